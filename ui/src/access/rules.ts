/**
 * The access rules, mirroring bff/access for the menus and guards. The bff
 * enforces them on every call; here they only decide what to show. schema/testdata/access/rules.json
 * keeps the two in agreement (rules.test.ts here, access_test.go there).
 */
import type { User } from '../api';

/** What the rules read of the session user. */
export type AccessUser = Pick<
  User,
  | 'roles'
  | 'tags'
  | 'permissions'
  | 'status'
  | 'custom_payment'
  | 'is_ref'
  | 'access_user'
  | 'email_verified_at'
  | 'email_need_verify_date'
  | 'created_at'
  | 'tfa_enable'
  | 'tfa_confirm'
  | 'store_ids'
  | 'team_store_ids'
>;

export const ROLE_SELLER = 'seller';
export const ROLE_DESIGNER = 'designer';
export const ROLE_ADMIN = 'admin';

/** Named permissions of authorized (team) accounts, in the order the team screen shows them. */
export const PERMISSIONS = [
  'get_payments',
  'update_payments',
  'get_orders',
  'get_campaigns',
  'update_campaign',
  'get_reports',
  'get_users',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const TAGS = {
  beta: 'beta',
  notify: 'notify',
  hideNotifyModal: 'hide-notify-modal',
  oldBulkCampaign: 'old bulk campaign',
  fulfill: 'fulfill',
  pricing: 'pricing',
  emailMarketing: 'email marketing',
  pb: 'pb',
  personalized: 'personalized',
} as const;

/** The date from which new accounts must verify their e-mail. */
export const EMAIL_VERIFICATION_CUTOVER = Date.UTC(2024, 6, 29);
/** How long after the requirement date older accounts may stay unverified. */
export const EMAIL_VERIFICATION_GRACE_MS = 30 * 24 * 60 * 60 * 1000;

export const hasRole = (user: AccessUser, role: string): boolean => user.roles.includes(role);
export const hasTag = (user: AccessUser, tag: string): boolean => user.tags.includes(tag);

export const isDesigner = (user: AccessUser): boolean => hasRole(user, ROLE_DESIGNER);
export const isAdmin = (user: AccessUser): boolean => hasRole(user, ROLE_ADMIN);

/** A user with a roles list that lacks seller: needs a named permission for each check. */
export const isAuthorizedAccount = (user: AccessUser): boolean =>
  user.roles.length > 0 && !hasRole(user, ROLE_SELLER);

/** Working in another seller's account (switched): My Account, Switch Account and chat are hidden. */
export const inAuthorizedAccount = (user: AccessUser): boolean => user.access_user && isAuthorizedAccount(user);

/** An admin acting as the seller (access_user on the seller's own roles), not a switched team member. */
export const isImpersonated = (user: AccessUser): boolean => user.access_user && !isAuthorizedAccount(user);

/**
 * A seller working in its own account: not a designer, not a team member, not switched into
 * another account or impersonated. The survey and the getting-started panel are for these only.
 */
export const inOwnSellerAccount = (user: AccessUser): boolean =>
  !isDesigner(user) && !isAuthorizedAccount(user) && !user.access_user;

export const isTrusted = (user: AccessUser): boolean => user.status === 'trusted';

/** Sellers and users without roles pass every check; authorized accounts need the permission. */
export const can = (user: AccessUser, permission: Permission): boolean =>
  !isAuthorizedAccount(user) || user.permissions.includes(permission);

function hostnameOf(host: string): string {
  const colon = host.lastIndexOf(':');
  return colon >= 0 && !host.slice(colon).includes(']') ? host.slice(0, colon) : host;
}

/** A dashboard host whose name starts with "fulfill". */
export const isFulfillmentDomain = (host: string): boolean => hostnameOf(host).toLowerCase().startsWith('fulfill');

/** Two-factor on, this session has not entered a code yet. */
export const needsTfa = (user: AccessUser): boolean => user.tfa_enable && !user.tfa_confirm;

/**
 * The e-mail verification rule: not access_user, unverified, not a designer, and created
 * on or after the requirement date (the user's email_need_verify_date, else the cut-over), or that
 * date is 30 or more days past.
 */
export function mustVerifyEmail(user: AccessUser, now: number = Date.now()): boolean {
  if (user.access_user || user.email_verified_at !== null || isDesigner(user)) return false;
  let due = EMAIL_VERIFICATION_CUTOVER;
  if (user.email_need_verify_date) {
    const own = Date.parse(`${user.email_need_verify_date}T00:00:00Z`);
    if (!Number.isNaN(own)) due = own;
  }
  return Date.parse(user.created_at) >= due || now >= due + EMAIL_VERIFICATION_GRACE_MS;
}

/** The store filter: access_user with a non-empty store_ids (else team_store_ids) list sees only those. */
export function storeFilter(user: AccessUser, requested: readonly number[]): number[] {
  const allowed = user.store_ids.length > 0 ? user.store_ids : user.team_store_ids;
  if (!user.access_user || allowed.length === 0) return [...requested];
  return requested.filter((id) => allowed.includes(id));
}

/** The base store URL rule: preview for custom_payment or status neither verified nor trusted. */
export function storeDomain(user: AccessUser): 'preview' | 'marketplace' {
  return user.custom_payment || (user.status !== 'verified' && user.status !== 'trusted') ? 'preview' : 'marketplace';
}

export const SELLER_LOGIN = '/auth/seller/login';
export const ADMIN_LOGIN = '/auth/admin/login';

/** The admin login for the designer variant (host contains "designer" or the designer query). */
export function loginEndpoint(host: string, designerQuery: boolean): string {
  return designerQuery || hostnameOf(host).toLowerCase().includes('designer') ? ADMIN_LOGIN : SELLER_LOGIN;
}

/** custom_payment on a domain that is not a custom-payment domain goes to the seller-centre callback. */
export const needsSellerCentre = (user: AccessUser, customPaymentDomain: boolean): boolean =>
  user.custom_payment && !customPaymentDomain;
