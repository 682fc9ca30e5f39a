import {
  IconBrush,
  IconBuildingStore,
  IconLayoutDashboard,
  IconMail,
  IconPackage,
  IconPalette,
  IconReceipt2,
  IconSettings,
  IconShieldCog,
  IconShoppingCart,
  IconSpeakerphone,
  IconUser,
  type Icon,
} from '@tabler/icons-react';
import type { MenuItemId } from '../access';

/** One page the menu links to: its label, its path and the access item gating it. */
export interface MenuEntry {
  readonly label: string;
  /** Where it goes, with its query where it has one (e.g. `/referral?sort_by=sold_items`). */
  readonly path: string;
  /** The menu item whose visibility (ui/src/access) decides whether the user sees the entry. */
  readonly item: MenuItemId;
  /** A page the bff serves itself (the queue monitor): the browser loads it, the app has no route for it. */
  readonly external?: boolean;
}

/** A top-level menu section and the pages it groups; a section with one entry is a plain link. */
export interface MenuSection {
  readonly label: string;
  readonly icon: Icon;
  readonly badge?: string;
  readonly entries: readonly MenuEntry[];
}

/** The sections in menu order: the single table of menu labels and paths. */
export const MENU_SECTIONS: readonly MenuSection[] = [
  {
    label: 'Dashboard',
    icon: IconLayoutDashboard,
    entries: [
      { label: 'Overview', path: '/', item: 'dashboard.overview' },
      { label: 'Referral Program', path: '/referral?sort_by=sold_items', item: 'dashboard.referral' },
      { label: 'Contest', path: '/contest', item: 'dashboard.contest' },
      { label: 'Calendar', path: '/calendar', item: 'dashboard.calendar' },
    ],
  },
  // The designer area, the only section designers see.
  { label: 'Design', icon: IconPalette, entries: [{ label: 'Design', path: '/orders/design', item: 'design' }] },
  // The admin area, the only section admins see in their own account.
  {
    label: 'Admin',
    icon: IconShieldCog,
    entries: [
      { label: 'Queue monitor', path: '/admin/queues', item: 'admin', external: true },
      { label: 'Production', path: '/system/production', item: 'admin' },
      { label: 'Payouts', path: '/system/payouts', item: 'admin' },
      { label: 'Stock status', path: '/system/stock-status', item: 'admin' },
      { label: 'Mail outbox', path: '/system/mail', item: 'admin' },
    ],
  },
  {
    label: 'Orders',
    icon: IconShoppingCart,
    entries: [
      { label: 'All Orders', path: '/orders', item: 'orders.all' },
      { label: 'Abandoned', path: '/abandoned-orders', item: 'orders.abandoned' },
      { label: 'Cross-Selling', path: '/cross-selling', item: 'orders.cross_selling' },
      { label: 'Customers', path: '/customers', item: 'orders.customers' },
      { label: 'Fulfill Orders', path: '/fulfillment', item: 'orders.fulfill' },
      { label: 'Invalid Address', path: '/invalid-address', item: 'orders.invalid_address' },
      { label: 'Cancel Orders', path: '/cancel-orders', item: 'orders.cancel' },
    ],
  },
  {
    label: 'Campaigns',
    icon: IconSpeakerphone,
    entries: [
      { label: 'All Campaigns', path: '/campaigns', item: 'campaigns.all' },
      { label: 'Promotions', path: '/promotions', item: 'campaigns.promotions' },
      { label: 'Collections', path: '/collections', item: 'campaigns.collections' },
      { label: 'Pricing', path: '/pricing', item: 'campaigns.pricing' },
      { label: 'Bulk campaigns', path: '/bulk-campaigns', item: 'campaigns.bulk' },
      { label: 'On promotion', path: '/on-promotion', item: 'campaigns.on_promotion' },
    ],
  },
  {
    label: 'Personalized',
    icon: IconBrush,
    entries: [
      { label: 'Artworks', path: '/personalized/artworks', item: 'personalized' },
      { label: 'Cliparts', path: '/personalized/cliparts', item: 'personalized' },
      { label: 'Fonts', path: '/personalized/fonts', item: 'personalized' },
    ],
  },
  {
    label: 'Email Marketing',
    icon: IconMail,
    badge: 'Beta',
    entries: [
      { label: 'Campaigns', path: '/email-marketing/campaigns', item: 'email_marketing' },
      { label: 'Subscribers', path: '/email-marketing/subscribers', item: 'email_marketing' },
      { label: 'Settings', path: '/email-marketing/settings', item: 'email_marketing' },
      { label: 'Senders', path: '/email-marketing/senders', item: 'email_marketing' },
    ],
  },
  {
    label: 'Storefronts',
    icon: IconBuildingStore,
    entries: [
      { label: 'All Stores', path: '/storefronts', item: 'storefronts' },
      { label: 'Product Reviews', path: '/settings/product-reviews', item: 'storefronts.product_reviews' },
      { label: 'Search Keywords', path: '/search-keyword', item: 'storefronts' },
      { label: 'Social Feed', path: '/social-feed', item: 'storefronts' },
    ],
  },
  {
    label: 'Products',
    icon: IconPackage,
    entries: [{ label: 'Stock status', path: '/product/stock-status', item: 'products.stock_status' }],
  },
  {
    label: 'Billing & Payouts',
    icon: IconReceipt2,
    entries: [{ label: 'Billing & Payouts', path: '/payouts', item: 'billing' }],
  },
  {
    label: 'Settings',
    icon: IconSettings,
    entries: [
      { label: 'General', path: '/settings/general', item: 'settings.general' },
      { label: 'Payment Accounts', path: '/settings/payment-account', item: 'settings.payment_accounts' },
      { label: 'Payment Gateways', path: '/settings/payment-gateways', item: 'settings.payment_gateways' },
      { label: 'Domains', path: '/domains', item: 'settings.domains' },
      { label: 'Team', path: '/team', item: 'settings.team' },
      { label: 'Notifications', path: '/settings/notification', item: 'settings.notifications' },
      { label: 'API Keys', path: '/settings/api-keys', item: 'settings.api_keys' },
    ],
  },
];

/**
 * Pages the top bar and sidebar link to outside the menu, in the section the quick
 * navigation files them under: My Account (user menu) and the SMS credits top-up (sidebar).
 */
export const SHELL_SECTIONS: readonly MenuSection[] = [
  {
    label: 'Settings',
    icon: IconUser,
    entries: [{ label: 'My Account', path: '/settings/account', item: 'user.my_account' }],
  },
  {
    label: 'Billing & Payouts',
    icon: IconReceipt2,
    entries: [{ label: 'SMS Credits Top-up', path: '/sms/topup', item: 'billing' }],
  },
];

/** A menu entry together with the section it belongs to. */
export interface PlacedEntry extends MenuEntry {
  readonly section: MenuSection;
}

/** Every page of the menu and the shell links, with its section, in menu order. */
export const ALL_ENTRIES: readonly PlacedEntry[] = [...MENU_SECTIONS, ...SHELL_SECTIONS].flatMap((section) =>
  section.entries.map((entry) => ({ ...entry, section })),
);

/** The path without its query, e.g. `/referral` for `/referral?sort_by=sold_items`. */
export function pathnameOf(path: string): string {
  return path.split('?')[0]!;
}

/** The route path of a link (no leading slash, no query), e.g. `referral` for `/referral?sort_by=sold_items`. */
export function routePathOf(path: string): string {
  return pathnameOf(path).replace(/^\//, '');
}

/** The entry at `path` (query ignored); throws for a path neither the menu nor the shell links to. */
export function entryAt(path: string): PlacedEntry {
  const pathname = pathnameOf(path);
  const entry = ALL_ENTRIES.find((e) => pathnameOf(e.path) === pathname);
  if (!entry) throw new Error(`no menu entry links to ${path}`);
  return entry;
}

/**
 * The sections the user sees, in menu order, each with only its visible entries: a section shows
 * when one of its items is visible. When visibleMenu lists Fulfill Orders first
 * (the fulfill tag), the menu shows it as its own first link, ahead of the sections.
 */
export function visibleSections(visible: readonly MenuItemId[]): MenuSection[] {
  const shown = new Set(visible);
  const sections = MENU_SECTIONS.flatMap((section) => {
    const entries = section.entries.filter((entry) => shown.has(entry.item));
    return entries.length === 0 ? [] : [{ ...section, entries }];
  });
  // visibleMenu puts Fulfill Orders first for the fulfill tag; on its own it comes after the dashboard.
  const moved = visible[0] === 'orders.fulfill' && sections[0]?.entries[0]?.item !== 'orders.fulfill';
  if (!moved) return sections;
  const fulfill = entryAt('/fulfillment');
  const rest = sections
    .map((section) => ({ ...section, entries: section.entries.filter((entry) => entry.item !== 'orders.fulfill') }))
    .filter((section) => section.entries.length > 0);
  return [{ label: fulfill.label, icon: fulfill.section.icon, entries: [fulfill] }, ...rest];
}

/** The entry among `sections` that `pathname` is on: the one with the longest path that is it or holds it. */
export function activeEntry(sections: readonly MenuSection[], pathname: string): MenuEntry | undefined {
  let best: MenuEntry | undefined;
  for (const entry of sections.flatMap((section) => section.entries)) {
    const path = pathnameOf(entry.path);
    const on = path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`);
    if (on && (!best || path.length > pathnameOf(best.path).length)) best = entry;
  }
  return best;
}
