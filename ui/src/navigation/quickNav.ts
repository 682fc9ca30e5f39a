import type { MenuItemId } from '../access';

/** The keyboard shortcut that opens the picker (spec §2.6), in @mantine/hooks' notation. */
export const QUICK_NAV_SHORTCUT = 'ctrl+G';

/** One place the quick-navigation picker (spec §2.6) can open. */
export interface Destination {
  /** Where it goes, with its query (e.g. `/referral?sort_by=sold_items`). */
  readonly path: string;
  /** The readable name, as the menu of spec §2.5 calls it. */
  readonly label: string;
  /** The menu section it belongs to, shown under the label and searched too. */
  readonly group: string;
  /** The menu item whose visibility (spec §6, ui/src/access) decides whether the user is offered it. */
  readonly item: MenuItemId;
}

/**
 * The destinations of spec §2.6, in the spec's order. Each is gated by the menu item it opens; where
 * the mirrored menu table has no item of its own the gate is the nearest one:
 * - Search Keywords and Social Feed belong to Storefronts (spec §2.5) and follow "All Stores";
 * - My Account follows the user menu's My Account (hidden while switched into another account);
 * - SMS top-up spends money, so it follows Billing & Payouts (get_payments).
 */
export const QUICK_NAV_DESTINATIONS: readonly Destination[] = [
  { path: '/', label: 'Overview', group: 'Dashboard', item: 'dashboard.overview' },
  { path: '/referral?sort_by=sold_items', label: 'Referral Program', group: 'Dashboard', item: 'dashboard.referral' },
  { path: '/contest', label: 'Contest', group: 'Dashboard', item: 'dashboard.contest' },
  { path: '/fulfillment', label: 'Fulfill Orders', group: 'Orders', item: 'orders.fulfill' },
  { path: '/orders', label: 'All Orders', group: 'Orders', item: 'orders.all' },
  { path: '/abandoned-orders', label: 'Abandoned Checkouts', group: 'Orders', item: 'orders.abandoned' },
  { path: '/customers', label: 'Customers', group: 'Orders', item: 'orders.customers' },
  { path: '/campaigns', label: 'All Campaigns', group: 'Campaigns', item: 'campaigns.all' },
  { path: '/promotions', label: 'Promotions', group: 'Campaigns', item: 'campaigns.promotions' },
  { path: '/collections', label: 'Collections', group: 'Campaigns', item: 'campaigns.collections' },
  { path: '/pricing', label: 'Pricing', group: 'Campaigns', item: 'campaigns.pricing' },
  { path: '/personalized/artworks', label: 'Artworks', group: 'Personalized', item: 'personalized' },
  { path: '/personalized/cliparts', label: 'Cliparts', group: 'Personalized', item: 'personalized' },
  { path: '/personalized/fonts', label: 'Fonts', group: 'Personalized', item: 'personalized' },
  { path: '/storefronts', label: 'All Stores', group: 'Storefronts', item: 'storefronts' },
  {
    path: '/settings/product-reviews',
    label: 'Product Reviews',
    group: 'Storefronts',
    item: 'storefronts.product_reviews',
  },
  { path: '/search-keyword', label: 'Search Keywords', group: 'Storefronts', item: 'storefronts' },
  { path: '/social-feed', label: 'Social Feed', group: 'Storefronts', item: 'storefronts' },
  { path: '/payouts', label: 'Billing & Payouts', group: 'Billing & Payouts', item: 'billing' },
  { path: '/settings/general', label: 'General Settings', group: 'Settings', item: 'settings.general' },
  { path: '/settings/account', label: 'My Account', group: 'Settings', item: 'user.my_account' },
  {
    path: '/settings/payment-account',
    label: 'Payment Accounts',
    group: 'Settings',
    item: 'settings.payment_accounts',
  },
  {
    path: '/settings/payment-gateways',
    label: 'Payment Gateways',
    group: 'Settings',
    item: 'settings.payment_gateways',
  },
  { path: '/domains', label: 'Domains', group: 'Settings', item: 'settings.domains' },
  { path: '/team', label: 'Team', group: 'Settings', item: 'settings.team' },
  {
    path: '/settings/notification',
    label: 'Notification Settings',
    group: 'Settings',
    item: 'settings.notifications',
  },
  {
    path: '/email-marketing/campaigns',
    label: 'Email Campaigns',
    group: 'Email Marketing',
    item: 'email_marketing',
  },
  {
    path: '/email-marketing/subscribers',
    label: 'Email Subscribers',
    group: 'Email Marketing',
    item: 'email_marketing',
  },
  {
    path: '/email-marketing/settings',
    label: 'Email Marketing Settings',
    group: 'Email Marketing',
    item: 'email_marketing',
  },
  { path: '/sms/topup', label: 'SMS Credits Top-up', group: 'Billing & Payouts', item: 'billing' },
];

/** The destinations the user may open, in the spec's order: those whose menu item is visible to them. */
export function quickNavDestinations(visible: readonly MenuItemId[]): Destination[] {
  const shown = new Set(visible);
  return QUICK_NAV_DESTINATIONS.filter((destination) => shown.has(destination.item));
}

/** The route path (no leading slash, no query) a destination needs, e.g. `referral` for `/referral?...`. */
export function routePathOf(destination: Destination): string {
  return destination.path.split('?')[0]!.replace(/^\//, '');
}
