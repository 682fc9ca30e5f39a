import type { MenuItemId } from '../access';
import { entryAt } from './sections';

/** The keyboard shortcut that opens the picker, in @mantine/hooks' notation. */
export const QUICK_NAV_SHORTCUT = 'ctrl+G';

/** One place the quick-navigation picker can open. */
export interface Destination {
  /** Where it goes, with its query (e.g. `/referral?sort_by=sold_items`). */
  readonly path: string;
  /** The readable name, as the menu calls it. */
  readonly label: string;
  /** The menu section it belongs to, shown under the label and searched too. */
  readonly group: string;
  /** The menu item whose visibility (ui/src/access) decides whether the user is offered it. */
  readonly item: MenuItemId;
}

/** A destination: its path, with the label the picker shows where the menu's short one is ambiguous. */
function destination(path: string, label?: string): Destination {
  const entry = entryAt(path);
  return { path: entry.path, label: label ?? entry.label, group: entry.section.label, item: entry.item };
}

/**
 * The destinations, in their fixed order, taken from the menu table (navigation/sections),
 * each gated by the menu item it opens: Search Keywords and Social Feed follow "All Stores", My Account
 * the user menu's My Account, the SMS top-up Billing & Payouts (get_payments).
 */
export const QUICK_NAV_DESTINATIONS: readonly Destination[] = [
  destination('/'),
  destination('/referral'),
  destination('/contest'),
  destination('/fulfillment'),
  destination('/orders'),
  destination('/abandoned-orders', 'Abandoned Checkouts'),
  destination('/customers'),
  destination('/campaigns'),
  destination('/promotions'),
  destination('/collections'),
  destination('/pricing'),
  destination('/personalized/artworks'),
  destination('/personalized/cliparts'),
  destination('/personalized/fonts'),
  destination('/storefronts'),
  destination('/settings/product-reviews'),
  destination('/search-keyword'),
  destination('/social-feed'),
  destination('/payouts'),
  destination('/settings/general', 'General Settings'),
  destination('/settings/account'),
  destination('/settings/payment-account'),
  destination('/settings/payment-gateways'),
  destination('/domains'),
  destination('/team'),
  destination('/settings/notification', 'Notification Settings'),
  destination('/email-marketing/campaigns', 'Email Campaigns'),
  destination('/email-marketing/subscribers', 'Email Subscribers'),
  destination('/email-marketing/settings', 'Email Marketing Settings'),
  destination('/sms/topup'),
];

/** The destinations the user may open, in their fixed order: those whose menu item is visible to them. */
export function quickNavDestinations(visible: readonly MenuItemId[]): Destination[] {
  const shown = new Set(visible);
  return QUICK_NAV_DESTINATIONS.filter((destination) => shown.has(destination.item));
}
