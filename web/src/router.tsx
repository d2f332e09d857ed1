// Every route of SPEC section 2. The marketing pages are in the entry chunk: a visitor's first
// paint is the page itself, never a spinner that a lazy chunk then replaces (a layout shift, and a
// second round trip before the hero). They are small static pages; the console's screens, far
// larger, stay split by route (React.lazy).
import { lazy } from 'react';
import { Navigate, createBrowserRouter, type RouteObject } from 'react-router-dom';
import PublicLayout from './features/marketing/PublicLayout';
import Landing from './features/marketing/Landing';
import Pricing from './features/marketing/Pricing';
import Docs from './features/marketing/Docs';
import About from './features/marketing/About';
import Blog from './features/marketing/Blog';
import Careers from './features/marketing/Careers';
import Contact from './features/marketing/Contact';
import RouteErrorPage, { NotFoundPage } from './features/errors/ErrorPage';

const AuthLayout = lazy(() => import('./features/auth/AuthLayout'));
const Login = lazy(() => import('./features/auth/Login'));
const Signup = lazy(() => import('./features/auth/Signup'));
const ForgotPassword = lazy(() => import('./features/auth/ForgotPassword'));
const Mfa = lazy(() => import('./features/auth/Mfa'));
const ResetPassword = lazy(() => import('./features/auth/ResetPassword'));
const VerifyEmail = lazy(() => import('./features/auth/VerifyEmail'));
const EmailVerified = lazy(() => import('./features/auth/EmailVerified'));

// A project's end users (not developers) land here from the platform's mails.
const EndUserLayout = lazy(() => import('./features/end-user-pages/EndUserLayout'));
const EndUserResetPassword = lazy(() => import('./features/end-user-pages/EndUserResetPassword'));
const EndUserVerifyEmail = lazy(() => import('./features/end-user-pages/EndUserVerifyEmail'));

const ConsoleLayout = lazy(() => import('./features/console/ConsoleLayout'));
const ProjectLayout = lazy(() => import('./features/console/ProjectLayout'));
const GlobalDashboard = lazy(() => import('./features/dashboard/GlobalDashboard'));
const ProjectDashboard = lazy(() => import('./features/dashboard/ProjectDashboard'));
const ProjectsPage = lazy(() => import('./features/projects/ProjectsPage'));
const DatabasePage = lazy(() => import('./features/database/DatabasePage'));
const DatabaseTablePage = lazy(() => import('./features/database/TablePage'));
const ApiKeysPage = lazy(() => import('./features/apikeys/ApiKeysPage'));
const StoragePage = lazy(() => import('./features/storage/StoragePage'));
const AuthUsersPage = lazy(() => import('./features/end-users/AuthUsersPage'));
const ConsoleHostingPage = lazy(() => import('./features/hosting/ConsoleHostingPage'));
const ProjectHostingPage = lazy(() => import('./features/hosting/ProjectHostingPage'));
const EmailPage = lazy(() => import('./features/mail/EmailPage'));
const AccountPage = lazy(() => import('./features/account/AccountPage'));
const ConnectPage = lazy(() => import('./features/connect/ConnectPage'));
const picker = (name: 'DatabasePicker' | 'ApiKeysPicker' | 'StoragePicker' | 'AuthenticationPicker' | 'EmailPicker') =>
  lazy(() => import('./features/projects/ProjectPicker').then((m) => ({ default: m[name] })));
const DatabasePicker = picker('DatabasePicker');
const ApiKeysPicker = picker('ApiKeysPicker');
const StoragePicker = picker('StoragePicker');
const AuthenticationPicker = picker('AuthenticationPicker');
const EmailPicker = picker('EmailPicker');

export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { index: true, element: <Landing /> },
          { path: 'pricing', element: <Pricing /> },
          { path: 'docs', element: <Docs /> },
          { path: 'about', element: <About /> },
          { path: 'blog', element: <Blog /> },
          { path: 'careers', element: <Careers /> },
          { path: 'contact', element: <Contact /> },
        ],
      },
      {
        element: <AuthLayout />,
        children: [
          { path: 'auth/login', element: <Login /> },
          { path: 'auth/signup', element: <Signup /> },
          { path: 'auth/forgot-password', element: <ForgotPassword /> },
          { path: 'auth/mfa', element: <Mfa /> },
          { path: 'auth/reset-password/:token', element: <ResetPassword /> },
          { path: 'verify-email', element: <VerifyEmail /> },
          { path: 'email-verified', element: <EmailVerified /> },
        ],
      },
      {
        element: <EndUserLayout />,
        children: [
          { path: 'auth/end-user/reset-password', element: <EndUserResetPassword /> },
          { path: 'auth/end-user/verify-email', element: <EndUserVerifyEmail /> },
        ],
      },
      {
        element: <ConsoleLayout />,
        children: [
          { path: 'dashboard', element: <GlobalDashboard /> },
          { path: 'console', element: <ProjectsPage /> },
          { path: 'console/database', element: <DatabasePicker /> },
          { path: 'console/api-keys', element: <ApiKeysPicker /> },
          { path: 'console/storage', element: <StoragePicker /> },
          { path: 'console/authentication', element: <AuthenticationPicker /> },
          { path: 'console/hosting', element: <ConsoleHostingPage /> },
          { path: 'console/email', element: <EmailPicker /> },
          { path: 'console/account', element: <AccountPage /> },
          {
            path: 'project/:projectId',
            element: <ProjectLayout />,
            children: [
              { index: true, element: <Navigate to="dashboard" replace /> },
              { path: 'dashboard', element: <ProjectDashboard /> },
              { path: 'connect', element: <ConnectPage /> },
              { path: 'database', element: <DatabasePage /> },
              { path: 'database/:table', element: <DatabaseTablePage /> },
              { path: 'api-keys', element: <ApiKeysPage /> },
              { path: 'storage', element: <StoragePage /> },
              { path: 'authentication', element: <AuthUsersPage /> },
              { path: 'hosting', element: <ProjectHostingPage /> },
              { path: 'email', element: <EmailPage /> },
              { path: 'account', element: <AccountPage /> },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
