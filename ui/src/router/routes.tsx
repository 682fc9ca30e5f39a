import type { QueryClient } from '@tanstack/react-query';
import { redirect, type RouteObject } from 'react-router';
import { BulkCampaignsPage } from '../bulk/BulkCampaignsPage';
import { BulkImportPage } from '../bulk/BulkImportPage';
import { BulkRecordsPage } from '../bulk/BulkRecordsPage';
import { CampaignEditorPage } from '../campaigns/CampaignEditorPage';
import { CampaignsPage } from '../campaigns/CampaignsPage';
import { KIND_SEGMENTS, type KindSegment } from '../campaigns/routes';
import { FullPageLoader } from '../components/FullPageLoader';
import { CenteredLayout } from '../layouts/CenteredLayout';
import { DefaultLayout } from '../layouts/DefaultLayout';
import { EMAIL_MARKETING_HOME, emailMarketingRoutes } from '../emailmarketing/routes';
import { QUICK_NAV_DESTINATIONS, routePathOf, type Destination } from '../navigation/quickNav';
import { NotificationPage } from '../notifications/NotificationPage';
import { NotificationsPage } from '../notifications/NotificationsPage';
import { DASHBOARD, DESIGN, SECTIONS, type MenuSection } from '../navigation/sections';
import { DashboardPage } from '../pages/DashboardPage';
import { LoginPage } from '../pages/LoginPage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { RouteErrorPage } from '../pages/RouteErrorPage';
import { ReviewPage } from '../review/ReviewPage';
import { SectionPage } from '../pages/SectionPage';
import { MailOutboxPage } from '../pages/admin/MailOutboxPage';
import { ForgotPasswordPage } from '../pages/auth/ForgotPasswordPage';
import { LoginAsSellerPage } from '../pages/auth/LoginAsSellerPage';
import { RegisterPage } from '../pages/auth/RegisterPage';
import { ResetPasswordPage } from '../pages/auth/ResetPasswordPage';
import { TfaPage } from '../pages/auth/TfaPage';
import { VerifyEmailPage } from '../pages/auth/VerifyEmailPage';
import { AccountSettingsPage } from '../pages/settings/AccountSettingsPage';
import { GeneralSettingsPage } from '../pages/settings/GeneralSettingsPage';
import { InvitationsPage } from '../pages/team/InvitationsPage';
import { TeamPage } from '../pages/team/TeamPage';
import { callbackLoader } from '../session/callback';
import { ArtworksPage } from '../uploads/ArtworksPage';
import { signOut } from '../session/logout';
import { loadSessionUser } from '../session/queries';
import { LOGIN_PATH } from '../session/redirects';
import { middlewareLoader } from './middlewareLoader';

/** Pages with their own screen; the other section paths show the section placeholder. */
const OWN_PAGES = new Set(['/settings/general', '/campaigns', EMAIL_MARKETING_HOME, DESIGN.path]);

/** The placeholder of a quick-navigation destination no screen exists for yet, with its section's icon. */
function placeholderSection(destination: Destination): MenuSection {
  const section = [DASHBOARD, DESIGN, ...SECTIONS].find((s) => s.label === destination.group) ?? DASHBOARD;
  return { ...section, label: destination.label, path: destination.path, items: [destination.item] };
}

/** The pages of the signed-in frame, plus an honest placeholder for every quick-navigation destination without one. */
function shellPages(): RouteObject[] {
  const pages: RouteObject[] = [
    { index: true, element: <DashboardPage /> },
    { path: 'settings/general', element: <GeneralSettingsPage /> },
    { path: 'personalized/artworks', element: <ArtworksPage /> },
    { path: 'settings/account', element: <AccountSettingsPage /> },
    { path: 'system/mail', element: <MailOutboxPage /> },
    { path: 'campaigns', element: <CampaignsPage /> },
    { path: 'campaigns/edit/:id?', element: <CampaignEditorPage /> },
    { path: 'bulk-campaigns', element: <BulkCampaignsPage /> },
    { path: 'bulk-campaigns/multi-print-spaces', element: <BulkRecordsPage /> },
    { path: 'bulk-campaigns/multi-print-spaces/import/:id?', element: <BulkImportPage /> },
    ...(Object.keys(KIND_SEGMENTS) as KindSegment[]).map((segment) => ({
      path: `campaigns/${segment}/edit/:id?`,
      element: <CampaignEditorPage segment={segment} />,
    })),
    ...emailMarketingRoutes(),
    { path: 'team', element: <TeamPage /> },
    { path: 'team/invitations', element: <InvitationsPage /> },
    { path: 'notifications', element: <NotificationsPage /> },
    { path: 'notifications/:id', element: <NotificationPage /> },
    { path: 'orders/design', element: <ReviewPage /> },
    { path: 'orders/design/:id', element: <ReviewPage /> },
    ...[DESIGN, ...SECTIONS]
      .filter((section) => !OWN_PAGES.has(section.path))
      .map((section) => ({ path: section.path.replace(/^\//, ''), element: <SectionPage section={section} /> })),
  ];
  const routed = new Set(pages.map((page) => page.path ?? ''));
  const placeholders = QUICK_NAV_DESTINATIONS.filter((d) => !routed.has(routePathOf(d))).map((d) => ({
    path: routePathOf(d),
    element: <SectionPage section={placeholderSection(d)} />,
  }));
  return [...pages, ...placeholders];
}

/** The route table; guards are named middlewares (see middleware/registry). */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  const loadUser = () => loadSessionUser(queryClient);
  return [
    {
      id: 'root',
      errorElement: <RouteErrorPage />,
      hydrateFallbackElement: <FullPageLoader />,
      children: [
        {
          element: <CenteredLayout />,
          loader: middlewareLoader(['guest'], loadUser),
          children: [
            { path: 'auth/login', element: <LoginPage /> },
            { path: 'auth/register', element: <RegisterPage /> },
            { path: 'auth/forgot-password', element: <ForgotPasswordPage /> },
            { path: 'auth/reset-password', element: <ResetPasswordPage /> },
          ],
        },
        {
          // Pages of a signed-in session that still owes something (two-factor, e-mail verification).
          element: <CenteredLayout />,
          loader: middlewareLoader(['auth'], loadUser),
          children: [
            { path: 'auth/tfa', element: <TfaPage /> },
            { path: 'auth/login-as-seller', element: <LoginAsSellerPage /> },
          ],
        },
        {
          // The e-mailed link works signed in or not, in any browser.
          element: <CenteredLayout />,
          loader: middlewareLoader([], loadUser),
          children: [{ path: 'auth/verify-email', element: <VerifyEmailPage /> }],
        },
        { path: 'auth/callback', loader: callbackLoader },
        {
          path: 'auth/logout',
          loader: async () => {
            await signOut(queryClient);
            return redirect(LOGIN_PATH);
          },
        },
        {
          element: <DefaultLayout />,
          loader: middlewareLoader(['auth', 'custom-payment', 'tfa-auth', 'verify-email-auth'], loadUser),
          children: shellPages(),
        },
        {
          element: <CenteredLayout />,
          children: [
            { path: 'error/404', element: <NotFoundPage /> },
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ];
}
