import { createBrowserRouter } from 'react-router';
import { ForgotPasswordPage } from '../features/auth/forgot-password-page';
import { JoinPage } from '../features/auth/join-page';
import { LoginPage } from '../features/auth/login-page';
import { ResetPasswordPage } from '../features/auth/reset-password-page';
import { DashboardPage } from '../features/member/dashboard-page';
import { CoursesPage } from '../features/public/courses-page';
import { HomePage } from '../features/public/home-page';
import { TermsPage } from '../features/public/terms-page';
import { ErrorPage } from './error-page';
import { RequireAdmin, RequireUser } from './guards';
import { NotFoundPage } from './not-found-page';
import { RootLayout } from './root-layout';

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <ErrorPage />,
    children: [
      {
        errorElement: <ErrorPage />,
        children: [
          { path: '/', element: <HomePage /> },
          { path: '/courses', element: <CoursesPage /> },
          { path: '/join', element: <JoinPage /> },
          { path: '/login', element: <LoginPage /> },
          { path: '/forgot-password', element: <ForgotPasswordPage /> },
          { path: '/reset-password/:token', element: <ResetPasswordPage /> },
          { path: '/terms', element: <TermsPage /> },
          { element: <RequireUser />, children: [{ path: '/dashboard', element: <DashboardPage /> }] },
          {
            // The console is its own chunk: public pages never download its code.
            element: <RequireAdmin />,
            children: [
              { path: '/admin', lazy: () => import('../features/admin/admin-index-route') },
              { path: '/admin/dashboard', lazy: () => import('../features/admin/admin-console-route') },
              {
                path: '/admin/database/:dbName',
                lazy: () => import('../features/database/database-explorer-route'),
              },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);
