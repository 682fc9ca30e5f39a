import type { QueryClient } from '@tanstack/react-query';
import {
  IconBrush,
  IconBuildingStore,
  IconBulb,
  IconCalendarCheck,
  IconCoins,
  IconLayoutDashboard,
  IconPlugConnected,
  IconSparkles,
  IconSpeakerphone,
  IconUser,
  type Icon,
} from '@tabler/icons-react';
import { redirect, type RouteObject } from 'react-router';
import type { User } from '../api';
import { AbandonedOrdersPage } from '../abandoned/AbandonedOrdersPage';
import { ApiKeysPage } from '../apikeys/ApiKeysPage';
import { ApiReferencePage } from '../apikeys/ApiReferencePage';
import { AdminPayoutsPage } from '../billing/AdminPayoutsPage';
import { PayoutsPage } from '../billing/PayoutsPage';
import { BlogCategoriesPage } from '../blog/BlogCategoriesPage';
import { BlogPostEditPage } from '../blog/BlogPostEditPage';
import { StoreBlogPage } from '../blog/StoreBlogPage';
import { BulkCampaignsPage } from '../bulk/BulkCampaignsPage';
import { BulkImportPage } from '../bulk/BulkImportPage';
import { BulkRecordsPage } from '../bulk/BulkRecordsPage';
import { CampaignEditorPage } from '../campaigns/CampaignEditorPage';
import { CampaignsPage } from '../campaigns/CampaignsPage';
import { ImportPage } from '../campaigns/ImportPage';
import { KIND_SEGMENTS, type KindSegment } from '../campaigns/routes';
import { FullPageLoader } from '../components/FullPageLoader';
import { CollectionEditPage } from '../collections/CollectionEditPage';
import { CollectionsPage } from '../collections/CollectionsPage';
import { FeaturedCampaignsPage } from '../collections/FeaturedCampaignsPage';
import { CrossSellingPage } from '../crossselling/CrossSellingPage';
import { CustomerDetailPage } from '../customers/CustomerDetailPage';
import { CustomersPage } from '../customers/CustomersPage';
import { DomainsPage } from '../domains/DomainsPage';
import { BlankLayout } from '../layouts/BlankLayout';
import { CenteredLayout } from '../layouts/CenteredLayout';
import { DefaultLayout } from '../layouts/DefaultLayout';
import { emailMarketingRoutes } from '../emailmarketing/routes';
import { SitemapPage } from '../storefronts/SitemapPage';
import { SitemapUrlsPage } from '../storefronts/SitemapUrlsPage';
import { StoreEditPage } from '../storefronts/StoreEditPage';
import { StorePageEditPage } from '../storefronts/StorePageEditPage';
import { StorePagesPage } from '../storefronts/StorePagesPage';
import { StorefrontsPage } from '../storefronts/StorefrontsPage';
import { NotificationPage } from '../notifications/NotificationPage';
import { NotificationsPage } from '../notifications/NotificationsPage';
import { ALL_ENTRIES, routePathOf } from '../navigation/sections';
import { DashboardPage } from '../pages/DashboardPage';
import { PricingAnalyticsPage } from '../pricing/PricingAnalyticsPage';
import { LoginPage } from '../pages/LoginPage';
import { MaintenancePage } from '../pages/MaintenancePage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { RouteErrorPage } from '../pages/RouteErrorPage';
import { InvalidAddressPage } from '../orders/InvalidAddressPage';
import { InvoicePage } from '../orders/InvoicePage';
import { OrderDetailPage } from '../orders/OrderDetailPage';
import { OrdersPage } from '../orders/OrdersPage';
import { ProductionPage } from '../production/ProductionPage';
import { PaymentAccountsPage } from '../payments/PaymentAccountsPage';
import { PaymentGatewayFormPage } from '../payments/PaymentGatewayFormPage';
import { PaymentGatewaysPage } from '../payments/PaymentGatewaysPage';
import { PricingPage } from '../pricing/PricingPage';
import { OnPromotionPage } from '../promotions/OnPromotionPage';
import { PromotionsPage } from '../promotions/PromotionsPage';
import { ReviewPage } from '../review/ReviewPage';
import { ProductReviewsPage } from '../reviews/ProductReviewsPage';
import { SearchKeywordsPage } from '../searchkeywords/SearchKeywordsPage';
import { SocialFeedEditPage } from '../socialfeeds/SocialFeedEditPage';
import { SocialFeedsPage } from '../socialfeeds/SocialFeedsPage';
import { StockStatusPage } from '../stock/StockStatusPage';
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
import { NotificationSettingsPage } from '../webhooks/NotificationSettingsPage';
import { InvitationsPage } from '../pages/team/InvitationsPage';
import { TeamPage } from '../pages/team/TeamPage';
import { callbackLoader, handoffLoader } from '../session/callback';
import { ArtworksPage } from '../uploads/ArtworksPage';
import { ClipartsPage } from '../cliparts/ClipartsPage';
import { FontsPage } from '../fonts/FontsPage';
import { signOut } from '../session/logout';
import { loadSessionUser, meQuery } from '../session/queries';
import { loginAfterLogout } from '../session/redirects';
import { loadMaintenance } from '../systemconfig/platform';
import { middlewareLoader } from './middlewareLoader';

type Placeholder = readonly [path: string, title: string, icon: Icon];

/** Routes outside the menu whose screens later issues build: each shows the honest placeholder. */
const PLACEHOLDERS: readonly Placeholder[] = [
  ['account', 'Account', IconUser],
  ['check-in', 'Check-in', IconCalendarCheck],
  ['feature-requests', 'Feature Requests', IconBulb],
  ['feature-requests/:prefix?/:slug', 'Feature Request', IconBulb],
  ['personalized', 'Personalized', IconBrush],
  ['referral-sales', 'Referral Sales', IconLayoutDashboard],
  ['pressroom-points', 'Pressroom Points', IconCoins],
  ['social-feed/update/:id?', 'Social Feed', IconBuildingStore],
  ['storefronts/pages', 'Store Pages', IconBuildingStore],
  ['storefronts/pages/create', 'New Store Page', IconBuildingStore],
  ['storefronts/pages/edit/:id?', 'Edit Store Page', IconBuildingStore],
  ['storefronts/sitemap/:id', 'Store Sitemap', IconBuildingStore],
  ['storefronts/sitemap/:id?/urls/:sitemapId?', 'Sitemap URLs', IconBuildingStore],
  ['storefronts/:id/blog', 'Store Blog', IconBuildingStore],
  ['blog/categories', 'Blog Categories', IconBuildingStore],
  ['blog/new', 'New Blog Post', IconBuildingStore],
  ['blog/:postId/edit', 'Edit Blog Post', IconBuildingStore],
  ['tts/callback', 'TikTok Shop Connection', IconPlugConnected],
  ['woocommerce/connect', 'WooCommerce Connection', IconPlugConnected],
  ['campaigns/template/bulk/:id?', 'Bulk Campaign Template', IconSpeakerphone],
  ['campaigns/template/mockup/:id?', 'Mockup Campaign Template', IconSpeakerphone],
  ['campaigns/template/*', 'Campaign Templates', IconSpeakerphone],
  ['campaigns/bulk/:id?', 'Bulk Campaign', IconSpeakerphone],
  ['campaigns/bulk_v2/:id?', 'Bulk Campaign', IconSpeakerphone],
  ['campaigns/mockup/:id?', 'Mockup Campaign', IconSpeakerphone],
  ['bulk-campaigns/custom/mockup/:id?', 'Custom Mockup Bulk Campaign', IconSpeakerphone],
  ['bulk-campaigns/:type?/:id', 'Bulk Campaign', IconSpeakerphone],
];

function placeholder([path, title, icon]: Placeholder): RouteObject {
  return { path, element: <SectionPage title={title} icon={icon} /> };
}

/**
 * The pages of the signed-in frame: the screens built so far, an honest placeholder for every other
 * page of the menu (navigation/sections) and every other route of the product.
 */
function shellPages(loadUser: () => Promise<User | null>): RouteObject[] {
  const guarded = (names: string[], route: RouteObject): RouteObject => ({
    ...route,
    loader: middlewareLoader(names, loadUser),
  });
  const pages: RouteObject[] = [
    { index: true, element: <DashboardPage /> },
    { path: 'settings/general', element: <GeneralSettingsPage /> },
    { path: 'settings/api-keys', element: <ApiKeysPage /> },
    { path: 'settings/api-keys/reference', element: <ApiReferencePage /> },
    { path: 'settings/notification', element: <NotificationSettingsPage /> },
    { path: 'personalized/artworks', element: <ArtworksPage /> },
    { path: 'personalized/cliparts', element: <ClipartsPage /> },
    { path: 'personalized/fonts', element: <FontsPage /> },
    { path: 'settings/account', element: <AccountSettingsPage /> },
    { path: 'system/mail', element: <MailOutboxPage /> },
    { path: 'system/payouts', element: <AdminPayoutsPage /> },
    { path: 'system/production', element: <ProductionPage /> },
    { path: 'system/stock-status', element: <StockStatusPage /> },
    { path: 'product/stock-status', element: <StockStatusPage /> },
    { path: 'payouts', element: <PayoutsPage /> },
    { path: 'settings/payment-account', element: <PaymentAccountsPage /> },
    { path: 'settings/payment-gateways', element: <PaymentGatewaysPage /> },
    { path: 'settings/payment-gateways/create', element: <PaymentGatewayFormPage /> },
    { path: 'settings/payment-gateways/edit/:id', element: <PaymentGatewayFormPage /> },
    { path: 'campaigns', element: <CampaignsPage /> },
    { path: 'campaigns/import', element: <ImportPage /> },
    { path: 'pricing', element: <PricingPage /> },
    { path: 'pricing/analytics', element: <PricingAnalyticsPage /> },
    { path: 'storefronts', element: <StorefrontsPage /> },
    { path: 'storefronts/edit/:id', element: <StoreEditPage /> },
    { path: 'storefronts/pages', element: <StorePagesPage /> },
    { path: 'storefronts/pages/create', element: <StorePageEditPage /> },
    { path: 'storefronts/pages/edit/:id?', element: <StorePageEditPage /> },
    { path: 'storefronts/sitemap/:id', element: <SitemapPage /> },
    { path: 'storefronts/sitemap/:id?/urls/:sitemapId?', element: <SitemapUrlsPage /> },
    { path: 'storefronts/:id/blog', element: <StoreBlogPage /> },
    { path: 'blog/categories', element: <BlogCategoriesPage /> },
    { path: 'blog/new', element: <BlogPostEditPage /> },
    { path: 'blog/:postId/edit', element: <BlogPostEditPage /> },
    { path: 'settings/product-reviews', element: <ProductReviewsPage /> },
    { path: 'search-keyword', element: <SearchKeywordsPage /> },
    { path: 'social-feed', element: <SocialFeedsPage /> },
    { path: 'social-feed/update/:id?', element: <SocialFeedEditPage /> },
    { path: 'domains', element: <DomainsPage /> },
    guarded(['preferOldBulkCampaign'], { path: 'campaigns/edit/:id?', element: <CampaignEditorPage /> }),
    guarded(['preferOldBulkCampaign'], placeholder(['campaigns/express/*', 'Express Campaign', IconSpeakerphone])),
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
    { path: 'orders', element: <OrdersPage /> },
    { path: 'orders/detail/:id?', element: <OrderDetailPage /> },
    { path: 'orders/invoice/:id?', element: <InvoicePage /> },
    { path: 'orders/design', element: <ReviewPage /> },
    { path: 'invalid-address', element: <InvalidAddressPage /> },
    { path: 'customers', element: <CustomersPage /> },
    { path: 'customers/detail/:id?', element: <CustomerDetailPage /> },
    { path: 'abandoned-orders', element: <AbandonedOrdersPage /> },
    { path: 'cross-selling', element: <CrossSellingPage /> },
    { path: 'promotions', element: <PromotionsPage /> },
    { path: 'on-promotion', element: <OnPromotionPage /> },
    { path: 'collections', element: <CollectionsPage /> },
    { path: 'collections/edit/:id', element: <CollectionEditPage /> },
    { path: 'collections/:id/featured-campaigns', element: <FeaturedCampaignsPage /> },
    { path: 'orders/design/:id', element: <ReviewPage /> },
    guarded(['beta-auth'], placeholder(['ai-design', 'AI Design', IconSparkles])),
    guarded(['beta-auth'], placeholder(['ai-design/history', 'AI Design History', IconSparkles])),
    ...PLACEHOLDERS.map(placeholder),
  ];
  const routed = new Set(pages.map((page) => page.path ?? ''));
  const unbuilt = ALL_ENTRIES.filter((entry) => !entry.external)
    .map((entry) => ({ entry, path: routePathOf(entry.path) }))
    .filter(({ path }) => !routed.has(path));
  return [...pages, ...unbuilt.map(({ entry, path }) => placeholder([path, entry.label, entry.section.icon]))];
}

/** The route table; guards are named middlewares (see middleware/registry). */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  const loadUser = () => loadSessionUser(queryClient);
  const loadPlatformMaintenance = () => loadMaintenance(queryClient);
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
        { path: 'auth/handoff', loader: handoffLoader },
        {
          path: 'auth/logout',
          loader: async () => {
            const user = queryClient.getQueryData(meQuery.queryKey);
            await signOut(queryClient);
            return redirect(loginAfterLogout(user));
          },
        },
        {
          element: <DefaultLayout />,
          loader: middlewareLoader(
            ['maintenance', 'cs-tracking', 'auth', 'custom-payment', 'tfa-auth', 'verify-email-auth'],
            loadUser,
            loadPlatformMaintenance,
          ),
          children: shellPages(loadUser),
        },
        // Only the browser tests' build (vite --mode e2e) has this route: no real route names an unknown guard.
        ...(import.meta.env.MODE === 'e2e'
          ? [{ path: 'e2e/unknown-middleware', loader: middlewareLoader(['e2e-unregistered'], loadUser) }]
          : []),
        {
          element: <BlankLayout />,
          loader: middlewareLoader(['maintenance'], loadUser, loadPlatformMaintenance),
          children: [{ path: 'maintenance', element: <MaintenancePage /> }],
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
