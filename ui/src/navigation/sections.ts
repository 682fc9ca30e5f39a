import {
  IconBrush,
  IconBuildingStore,
  IconLayoutDashboard,
  IconMail,
  IconPackage,
  IconReceipt2,
  IconSettings,
  IconShoppingCart,
  IconSpeakerphone,
  type Icon,
} from '@tabler/icons-react';

/** A top-level menu section of spec §2.5 and the route it opens. */
export interface MenuSection {
  label: string;
  path: string;
  icon: Icon;
  badge?: string;
}

export const DASHBOARD: MenuSection = { label: 'Dashboard', path: '/', icon: IconLayoutDashboard };

/**
 * The section headings of spec §2.5 that have a route today. Each later issue fills its section;
 * the full visibility rules of spec §6 (permissions, tags, designers, fulfillment domains) come with the shell issue.
 */
export const SECTIONS: readonly MenuSection[] = [
  { label: 'Orders', path: '/orders', icon: IconShoppingCart },
  { label: 'Campaigns', path: '/campaigns', icon: IconSpeakerphone },
  { label: 'Personalized', path: '/personalized', icon: IconBrush },
  { label: 'Email Marketing', path: '/email-marketing/campaigns', icon: IconMail, badge: 'Beta' },
  { label: 'Storefronts', path: '/storefronts', icon: IconBuildingStore },
  { label: 'Products', path: '/product/stock-status', icon: IconPackage },
  { label: 'Billing & Payouts', path: '/payouts', icon: IconReceipt2 },
  { label: 'Settings', path: '/settings/general', icon: IconSettings },
];
