import { QueryClient } from '@tanstack/react-query';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ALL_ENTRIES, pathnameOf } from '../navigation/sections';
import { createRoutes } from './routes';

/** Every route, with sample values for its parameters (optional ones both with and without). */
const SPEC_ROUTES = [
  '/', '/abandoned-orders', '/account', '/ai-design', '/ai-design/history', '/bulk-campaigns', '/calendar',
  '/campaigns', '/cancel-orders', '/check-in', '/collections', '/contest', '/customers', '/domains',
  '/feature-requests', '/fulfillment', '/invalid-address', '/maintenance', '/notifications', '/on-promotion',
  '/orders', '/payouts', '/personalized', '/pricing', '/pricing/analytics', '/promotions', '/referral',
  '/referral-sales', '/search-keyword', '/pressroom-points', '/social-feed', '/storefronts', '/storefronts/pages',
  '/storefronts/pages/create', '/team', '/team/invitations', '/sms/topup', '/tts/callback', '/woocommerce/connect',
  '/campaigns/import', '/product/stock-status', '/orders/design', '/personalized/artworks',
  '/personalized/cliparts', '/personalized/fonts',
  // Auth
  '/auth/login', '/auth/register', '/auth/forgot-password', '/auth/reset-password', '/auth/callback', '/auth/tfa',
  '/auth/verify-email', '/auth/login-as-seller',
  // Settings
  '/settings/account', '/settings/api-keys', '/settings/general', '/settings/notification',
  '/settings/payment-account', '/settings/payment-gateways', '/settings/payment-gateways/create',
  '/settings/product-reviews',
  // Email marketing
  '/email-marketing/campaigns', '/email-marketing/senders', '/email-marketing/settings',
  '/email-marketing/subscribers', '/email-marketing/campaigns/new', '/email-marketing/campaigns/edit/3',
  '/email-marketing/campaigns/view/3',
  // Parameterised
  '/bulk-campaigns/custom/mockup', '/bulk-campaigns/custom/mockup/3', '/bulk-campaigns/multi-print-spaces',
  '/bulk-campaigns/multi-print-spaces/import', '/bulk-campaigns/multi-print-spaces/import/3',
  '/bulk-campaigns/3', '/bulk-campaigns/regular/3',
  '/campaigns/ai/edit', '/campaigns/aop/edit/3', '/campaigns/combo/edit/3', '/campaigns/custom/edit',
  '/campaigns/edit', '/campaigns/edit/3', '/campaigns/template/bulk', '/campaigns/template/bulk/3',
  '/campaigns/template/mockup/3', '/campaigns/template/anything/else', '/campaigns/express/edit/3',
  '/campaigns/bulk', '/campaigns/bulk/3', '/campaigns/bulk_v2', '/campaigns/bulk_v2/3', '/campaigns/mockup/3',
  '/collections/edit/3', '/collections/3/featured-campaigns', '/orders/detail', '/orders/detail/3',
  '/orders/invoice/3', '/notifications/3', '/social-feed/update', '/social-feed/update/3', '/storefronts/edit/3',
  '/storefronts/sitemap/3', '/storefronts/sitemap/3/urls/4', '/storefronts/sitemap/urls', '/storefronts/pages/edit',
  '/storefronts/pages/edit/3', '/storefronts/3/blog', '/blog/categories', '/blog/new', '/blog/3/edit',
  '/feature-requests/some-slug', '/feature-requests/ideas/some-slug',
  // the error page
  '/error/404',
];

function resolvesToPage(path: string): boolean {
  const routes = createRoutes(new QueryClient());
  const matches = matchRoutes(routes, path) ?? [];
  const leaf = matches.at(-1)?.route;
  return leaf !== undefined && leaf.path !== '*';
}

describe('route table', () => {
  it.each(SPEC_ROUTES)('%s resolves to a page, not the 404', (path) => {
    expect(resolvesToPage(path)).toBe(true);
  });

  it('every menu and shell link resolves to a page', () => {
    const inApp = ALL_ENTRIES.filter((entry) => !entry.external);
    expect(inApp.map((entry) => pathnameOf(entry.path)).filter((path) => !resolvesToPage(path))).toEqual([]);
  });

  it('leaves the pages the bff serves itself (the queue monitor) to the browser', () => {
    expect(ALL_ENTRIES.filter((entry) => entry.external).map((entry) => entry.path)).toEqual(['/admin/queues']);
    expect(resolvesToPage('/admin/queues')).toBe(false);
  });

  it.each(['/no-such-page', '/campaigns/edit/3/extra', '/blog'])('%s falls to the 404 page', (path) => {
    expect(resolvesToPage(path)).toBe(false);
  });
});
