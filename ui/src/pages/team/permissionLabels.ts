import type { Permission } from '../../access';

/** What each named permission lets a team member do. */
export const PERMISSION_LABELS: Record<Permission, string> = {
  get_payments: 'See balance and payouts',
  update_payments: 'Manage payment accounts',
  get_orders: 'See orders and customers',
  get_campaigns: 'See campaigns',
  update_campaign: 'Edit campaigns, pricing and email marketing',
  get_reports: 'See the dashboard reports',
  get_users: 'See the team',
};

/**
 * The permissions as a person reads them: each one's label, in the order given, joined by commas; a code this
 * screen does not know yet shows as itself rather than vanishing.
 */
export function permissionNames(permissions: readonly string[]): string {
  return permissions.map((p) => PERMISSION_LABELS[p as Permission] ?? p).join(', ');
}
