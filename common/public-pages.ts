import { SITE_MARKS } from './site.ts';

/** Where the site's name goes: the server fills it in (features/site/site-html.ts), the client too (usePageMeta). */
const NAME = SITE_MARKS.name;

export interface PageMeta {
  /** The page's own title; the browser tab shows it followed by the site's name. */
  title: string;
  /** The meta description: what search engines show under the title. */
  description: string;
}

export interface PublicPage extends PageMeta {
  /** The route, with `:name` for a parameter segment. */
  path: string;
  /** The page's module under client/src, when it is its own chunk (the build preloads it). */
  module?: string;
}

/**
 * The public pages, for three readers: each page sets its title and description from here; the
 * build writes an HTML file per page carrying them and preloading the page's code (so a visitor
 * arriving on /login fetches the sign-in code together with the app's, not after it); and the
 * server answers each path with its page's HTML file.
 */
export const PUBLIC_PAGES = {
  home: {
    path: '/',
    title: NAME,
    description: `${NAME}: courses and a members' community for designing the life you want, one deliberate step at a time.`,
  },
  courses: {
    path: '/courses',
    module: 'features/courses/courses-page.tsx',
    title: 'Courses',
    description: `The courses of ${NAME}: guided programmes for members, some open to everyone.`,
  },
  // The server fills in each course's own title, summary and link-preview tags (features/courses/course-pages.ts).
  course: {
    path: '/courses/:slug',
    module: 'features/courses/course-page.tsx',
    title: 'Course',
    description: `A course of ${NAME}.`,
  },
  join: {
    path: '/join',
    module: 'features/auth/join-page.tsx',
    title: 'Create Your Account',
    description: `Join ${NAME}: create your account and begin your journey of transformation.`,
  },
  login: {
    path: '/login',
    module: 'features/auth/login-page.tsx',
    title: 'Sign In',
    description: `Sign in to your ${NAME} account to continue your journey.`,
  },
  forgotPassword: {
    path: '/forgot-password',
    module: 'features/auth/forgot-password-page.tsx',
    title: 'Reset Password',
    description: `Forgot your ${NAME} password? Enter your email and we will send you a link to choose a new one.`,
  },
  resetPassword: {
    path: '/reset-password/:token',
    module: 'features/auth/reset-password-page.tsx',
    title: 'Enter New Password',
    description: `Choose a new password for your ${NAME} account.`,
  },
  // The owner's pages: the server fills in each one's own title, description and text (features/site/).
  terms: {
    path: '/terms',
    module: 'features/site/terms-page.tsx',
    title: 'Terms of Service',
    description: `The terms of using ${NAME}, and how we keep and use your name and email address.`,
  },
  about: {
    path: '/about',
    module: 'features/site/about-page.tsx',
    title: 'About',
    description: `Who is behind ${NAME}, and what the courses are for.`,
  },
  privacy: {
    path: '/privacy',
    module: 'features/site/privacy-page.tsx',
    title: 'Privacy',
    description: `What ${NAME} keeps about you, why, and how to have it removed.`,
  },
  contact: {
    path: '/contact',
    module: 'features/site/contact-page.tsx',
    title: 'Contact',
    description: `How to reach ${NAME}.`,
  },
} as const satisfies Record<string, PublicPage>;

export type PublicPageName = keyof typeof PUBLIC_PAGES;

/** The full title for the browser tab: the page's, then the site's name. */
export function documentTitle(title: string, siteName: string): string {
  const own = title.split(NAME).join(siteName);
  return own === siteName ? own : `${own} · ${siteName}`;
}

/** Which public page a path shows, if any (`/reset-password/abc` is resetPassword). */
export function publicPageAt(pathname: string): PublicPageName | undefined {
  const segments = pathname.split('/');
  return (Object.keys(PUBLIC_PAGES) as PublicPageName[]).find((name) => {
    const pattern = PUBLIC_PAGES[name].path.split('/');
    return (
      pattern.length === segments.length &&
      pattern.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === segments[i]))
    );
  });
}
