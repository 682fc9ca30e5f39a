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
