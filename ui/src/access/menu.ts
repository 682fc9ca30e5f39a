import {
  can,
  hasTag,
  inAuthorizedAccount,
  isAdmin,
  isAuthorizedAccount,
  isDesigner,
  isImpersonated,
  isFulfillmentDomain,
  TAGS,
  type AccessUser,
  type Permission,
} from './rules';

/** Where the user is: the dashboard host and the deployment's capabilities. */
export interface AccessContext {
  host: string;
  /** The bulk v3 capability the Bulk campaigns item requires. */
  bulk_v3: boolean;
}

type Gate = (user: AccessUser, context: AccessContext) => boolean;

const always: Gate = () => true;
const permitted =
  (permission: Permission): Gate =>
  (user) =>
    can(user, permission);
const ownAccountOnly: Gate = (user) => !isAuthorizedAccount(user);
/** Not working through another account: neither switched into it nor impersonating it. */
const ownSession: Gate = (user) => !user.access_user;

/** The items in menu order, each with its gate; mirrors bff/access/menu.go. */
const MENU = [
  ['dashboard.overview', permitted('get_reports')],
  ['dashboard.referral', (user) => !user.is_ref],
  ['dashboard.contest', always],
  ['dashboard.calendar', always],
  ['orders.all', permitted('get_orders')],
  ['orders.abandoned', permitted('get_orders')],
  ['orders.cross_selling', permitted('get_orders')],
  ['orders.customers', permitted('get_orders')],
  ['orders.fulfill', permitted('get_orders')],
  ['orders.invalid_address', (user) => user.custom_payment && can(user, 'get_orders')],
  ['orders.cancel', (user) => user.custom_payment && can(user, 'get_orders')],
  ['campaigns.all', permitted('get_campaigns')],
  ['campaigns.promotions', permitted('get_campaigns')],
  ['campaigns.collections', permitted('get_campaigns')],
  ['campaigns.pricing', (user) => hasTag(user, TAGS.pricing) && can(user, 'update_campaign')],
  [
    'campaigns.bulk',
    (user, context) => can(user, 'get_campaigns') && (context.bulk_v3 || hasTag(user, TAGS.oldBulkCampaign)),
  ],
  ['campaigns.on_promotion', permitted('get_campaigns')],
  [
    'personalized',
    (user) => (hasTag(user, TAGS.pb) || hasTag(user, TAGS.personalized)) && can(user, 'update_campaign'),
  ],
  ['email_marketing', (user) => hasTag(user, TAGS.emailMarketing) && can(user, 'update_campaign')],
  ['storefronts', always],
  ['storefronts.product_reviews', always],
  ['products.stock_status', always],
  ['billing', permitted('get_payments')],
  ['settings.general', ownAccountOnly],
  ['settings.payment_accounts', permitted('update_payments')],
  ['settings.payment_gateways', (user) => user.custom_payment && can(user, 'get_payments')],
  ['settings.domains', always],
  ['settings.team', (user) => !isAuthorizedAccount(user) && can(user, 'get_users')],
  ['settings.notifications', ownAccountOnly],
  ['settings.api_keys', always],
  ['topbar.ai_design', (user) => hasTag(user, TAGS.beta)],
  ['topbar.bell', (user) => hasTag(user, TAGS.notify)],
  ['topbar.balance', permitted('get_payments')],
  ['user.my_account', ownSession],
  ['user.switch_account', ownSession],
  ['user.back_to_my_account', (user) => inAuthorizedAccount(user)],
  ['user.back_to_admin', (user) => isImpersonated(user)],
  ['chat', ownSession],
  ['seller_survey', always],
  ['notifications_popup', (user) => !hasTag(user, TAGS.hideNotifyModal)],
] as const satisfies readonly (readonly [string, Gate])[];

export type MenuItemId = (typeof MENU)[number][0] | 'design' | 'admin' | 'topbar.verify_email_banner';

const FULFILLMENT_MENU: ReadonlySet<MenuItemId> = new Set(['orders.fulfill', 'storefronts', 'billing']);

/**
 * The ids of the items the user sees, in menu order: designers only Design; admins (outside a seller's
 * account) only the Admin area and My Account; fulfillment-domain users
 * only Fulfill Orders, Storefronts and Billing & Payouts; the fulfill tag moves Fulfill Orders first.
 */
export function visibleMenu(user: AccessUser, context: AccessContext): MenuItemId[] {
  if (isDesigner(user)) return ['design'];
  if (isAdmin(user) && isAuthorizedAccount(user)) return ['admin', 'user.my_account'];
  const fulfillDomain = isFulfillmentDomain(context.host);
  const items: MenuItemId[] = [];
  for (const [id, gate] of MENU) {
    if (fulfillDomain && !FULFILLMENT_MENU.has(id)) continue;
    if (!gate(user, context)) continue;
    if (id === 'orders.fulfill' && hasTag(user, TAGS.fulfill)) items.unshift(id);
    else items.push(id);
  }
  if (user.email_verified_at === null) items.push('topbar.verify_email_banner');
  return items;
}
