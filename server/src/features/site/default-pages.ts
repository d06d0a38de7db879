import { PUBLIC_PAGES } from '@common/public-pages';
import type { SiteSettings } from '@common/schemas/site';
import { type OwnerPageName, withSiteName } from '@common/site';

/** The title and description a page has until the owner gives it theirs: the build's own (common/public-pages.ts). */
export function defaultMeta(name: OwnerPageName, siteName: string): { title: string; description: string } {
  const page = PUBLIC_PAGES[name];
  return { title: withSiteName(page.title, siteName), description: withSiteName(page.description, siteName) };
}

/** What a page a visitor opens says while the owner has not written it: useful words, never a blank screen. */
type DefaultText = (site: SiteSettings) => string;

const contactLine = (site: SiteSettings) =>
  site.contactEmail
    ? `Write to us at [${site.contactEmail}](mailto:${site.contactEmail}).`
    : `${site.name} has not published a contact address yet.`;

export const DEFAULT_TEXTS: Record<OwnerPageName, DefaultText> = {
  home: () => '',
  about: (site) =>
    [
      `${site.name} offers courses for members, some of them open to everyone.`,
      site.tagline,
      'Browse the [courses](/courses) to see what is on offer, or [create an account](/join) to begin.',
    ]
      .filter(Boolean)
      .join('\n\n'),
  terms: (site) =>
    [
      `By creating an account with ${site.name} you agree to use the site and its materials for your own personal development, and not to share your account or redistribute course content.`,
      'We keep your name and e-mail address to run your account and to send you messages you ask for, such as a password reset link. We do not sell your information.',
      'You may close your account at any time from your account page.',
    ].join('\n\n'),
  privacy: (site) =>
    [
      `${site.name} keeps your name, your e-mail address and your progress in the courses, to run your account. Payments are handled by Stripe; we never see your card.`,
      'You can download everything we keep about you, or delete your account, from your account page at any time.',
      contactLine(site),
    ].join('\n\n'),
  contact: (site) =>
    [
      contactLine(site),
      ...(site.socialLinks.length
        ? [
            `You can also find us on ${site.socialLinks.map((link) => `[${link.label}](${link.url})`).join(', ')}.`,
          ]
        : []),
    ].join('\n\n'),
};
