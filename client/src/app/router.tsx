import { Route, Routes } from 'react-router';
import { page, registerPreloads, usePreloadOnIntent } from '../components/page/lazy-page';
import { HomePage } from '../features/public/home-page';
import { RequireAdmin, RequireUser } from './guards';
import { RootLayout } from './root-layout';

const CoursesPage = page(
  () => import('../features/courses/courses-page'),
  (m) => m.CoursesPage,
);
const CoursePage = page(
  () => import('../features/courses/course-page'),
  (m) => m.CoursePage,
);
// Open to visitors too (free previews), with react-query like the signed-in screens.
const LessonPage = page(
  () => import('../features/courses/lesson-page'),
  (m) => m.LessonPage,
);
// The owner's pages (the console's Site section writes them).
const TermsPage = page(
  () => import('../features/site/terms-page'),
  (m) => m.TermsPage,
);
const AboutPage = page(
  () => import('../features/site/about-page'),
  (m) => m.AboutPage,
);
const PrivacyPage = page(
  () => import('../features/site/privacy-page'),
  (m) => m.PrivacyPage,
);
const ContactPage = page(
  () => import('../features/site/contact-page'),
  (m) => m.ContactPage,
);
const JoinPage = page(
  () => import('../features/auth/join-page'),
  (m) => m.JoinPage,
);
const LoginPage = page(
  () => import('../features/auth/login-page'),
  (m) => m.LoginPage,
);
const ForgotPasswordPage = page(
  () => import('../features/auth/forgot-password-page'),
  (m) => m.ForgotPasswordPage,
);
const ResetPasswordPage = page(
  () => import('../features/auth/reset-password-page'),
  (m) => m.ResetPasswordPage,
);
const ConfirmEmailPage = page(
  () => import('../features/account/confirm-email-page'),
  (m) => m.ConfirmEmailPage,
);
const NotFoundPage = page(
  () => import('./not-found-page'),
  (m) => m.NotFoundPage,
);
// react-query and the signed-in screens: never downloaded by a public page.
const SignedInLayout = page(
  () => import('./signed-in-layout'),
  (m) => m.SignedInLayout,
);
const DashboardPage = page(
  () => import('../features/member/dashboard-page'),
  (m) => m.DashboardPage,
);
const AccountPage = page(
  () => import('../features/account/account-page'),
  (m) => m.AccountPage,
);
// The console is its own chunk, and each of its panels another (see features/admin/panels.ts).
const AdminIndex = page(
  () => import('../features/admin/admin-index-route'),
  (m) => m.Component,
);
const AdminConsole = page(
  () => import('../features/admin/admin-console-route'),
  (m) => m.Component,
);
const DatabaseExplorer = page(
  () => import('../features/database/database-explorer-route'),
  (m) => m.Component,
);

// The code each address needs: fetched when a visitor points at or focuses a link to it, and by
// sign-in while its answer is still on the way, so that the next page shows without a pause.
registerPreloads({
  '/courses': [CoursesPage],
  '/terms': [TermsPage],
  '/about': [AboutPage],
  '/privacy': [PrivacyPage],
  '/contact': [ContactPage],
  '/join': [JoinPage],
  '/login': [LoginPage],
  '/forgot-password': [ForgotPasswordPage],
  '/dashboard': [SignedInLayout, DashboardPage],
  '/account': [SignedInLayout, AccountPage],
  '/admin/dashboard': [SignedInLayout, AdminConsole],
});

/**
 * Declarative routes: the app uses none of react-router's data APIs (loaders, actions,
 * fetchers), and leaving the data router out takes 17 KB (gzipped) off every page's JavaScript.
 * The landing page is in the entry itself: most visits start there, it is tiny, and it saves
 * that page a round trip before its first paint.
 */
export function AppRoutes() {
  usePreloadOnIntent();
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route path="/" element={<HomePage />} />
        <Route path="/courses" element={<CoursesPage />} />
        <Route path="/courses/:slug" element={<CoursePage />} />
        <Route path="/join" element={<JoinPage />} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password/:token" element={<ResetPasswordPage />} />
        <Route path="/terms" element={<TermsPage />} />
        <Route path="/about" element={<AboutPage />} />
        <Route path="/privacy" element={<PrivacyPage />} />
        <Route path="/contact" element={<ContactPage />} />
        <Route path="/confirm-email" element={<ConfirmEmailPage />} />
        <Route element={<SignedInLayout />}>
          <Route path="/courses/:slug/lessons/:lessonId" element={<LessonPage />} />
        </Route>
        <Route element={<RequireUser />}>
          <Route element={<SignedInLayout />}>
            <Route path="/dashboard" element={<DashboardPage />} />
            <Route path="/account" element={<AccountPage />} />
          </Route>
        </Route>
        <Route element={<RequireAdmin />}>
          <Route element={<SignedInLayout />}>
            <Route path="/admin" element={<AdminIndex />} />
            <Route path="/admin/dashboard" element={<AdminConsole />} />
            <Route path="/admin/database/:dbName" element={<DatabaseExplorer />} />
          </Route>
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
