import {
  IconBrush,
  IconBuildingStore,
  IconLayoutDashboard,
  IconMail,
  IconPackage,
  IconPalette,
  IconReceipt2,
  IconSettings,
  IconShoppingCart,
  IconSpeakerphone,
  type Icon,
} from '@tabler/icons-react';
import type { MenuItemId } from '../access';

/** A top-level menu section of spec §2.5, the route it opens and the menu items it groups. */
export interface MenuSection {
  label: string;
  path: string;
  icon: Icon;
  badge?: string;
  /** The path prefix that marks the section active (default: the path's first segment). */
  match?: string;
  /** The section shows when any of these items is visible to the user (spec §6, ui/src/access). */
  items: readonly MenuItemId[];
}

export const DASHBOARD: MenuSection = {
  label: 'Dashboard',
  path: '/',
  icon: IconLayoutDashboard,
  items: ['dashboard.overview', 'dashboard.referral', 'dashboard.contest', 'dashboard.calendar'],
};

/** The designer area (spec §2.5 "Design"), the only section designers see. */
export const DESIGN: MenuSection = {
  label: 'Design',
  path: '/orders/design',
  match: '/orders/design',
  icon: IconPalette,
  items: ['design'],
};

/** The section headings of spec §2.5 that have a route today; each later issue fills its section. */
export const SECTIONS: readonly MenuSection[] = [
  {
    label: 'Orders',
    path: '/orders',
    icon: IconShoppingCart,
    items: [
      'orders.all',
      'orders.abandoned',
      'orders.cross_selling',
      'orders.customers',
      'orders.fulfill',
      'orders.invalid_address',
      'orders.cancel',
    ],
  },
  {
    label: 'Campaigns',
    path: '/campaigns',
    icon: IconSpeakerphone,
    items: [
      'campaigns.all',
      'campaigns.promotions',
      'campaigns.collections',
      'campaigns.pricing',
      'campaigns.bulk',
      'campaigns.on_promotion',
    ],
  },
  { label: 'Personalized', path: '/personalized', icon: IconBrush, items: ['personalized'] },
  {
    label: 'Email Marketing',
    path: '/email-marketing/campaigns',
    icon: IconMail,
    badge: 'Beta',
    items: ['email_marketing'],
  },
  {
    label: 'Storefronts',
    path: '/storefronts',
    icon: IconBuildingStore,
    items: ['storefronts', 'storefronts.product_reviews'],
  },
  { label: 'Products', path: '/product/stock-status', icon: IconPackage, items: ['products.stock_status'] },
  { label: 'Billing & Payouts', path: '/payouts', icon: IconReceipt2, items: ['billing'] },
  {
    label: 'Settings',
    path: '/settings/general',
    icon: IconSettings,
    items: [
      'settings.general',
      'settings.payment_accounts',
      'settings.payment_gateways',
      'settings.domains',
      'settings.team',
      'settings.notifications',
      'settings.api_keys',
    ],
  },
];

/** Where the Settings items live, so the section opens the first one the user may use. */
const SETTINGS_PATHS: Partial<Record<MenuItemId, string>> = {
  'settings.general': '/settings/general',
  'settings.payment_accounts': '/settings/payment-account',
  'settings.payment_gateways': '/settings/payment-gateways',
  'settings.domains': '/domains',
  'settings.team': '/team',
  'settings.notifications': '/settings/notification',
  'settings.api_keys': '/settings/api-keys',
};

/** The sections the user sees, in menu order, each opening its first visible item's page where it has one. */
export function visibleSections(visible: readonly MenuItemId[]): MenuSection[] {
  const shown = new Set(visible);
  return [DASHBOARD, DESIGN, ...SECTIONS].flatMap((section) => {
    const first = section.items.find((item) => shown.has(item));
    if (!first) return [];
    return [{ ...section, path: SETTINGS_PATHS[first] ?? section.path }];
  });
}
