import { describe, expect, it } from 'vitest';
import table from '../../../schema/testdata/access/rules.json';
import { visibleMenu, type AccessContext } from './menu';
import {
  can,
  inAuthorizedAccount,
  isAuthorizedAccount,
  isDesigner,
  isFulfillmentDomain,
  isTrusted,
  loginEndpoint,
  mustVerifyEmail,
  needsSellerCentre,
  needsTfa,
  PERMISSIONS,
  storeDomain,
  storeFilter,
  type AccessUser,
} from './rules';

/** The shared cases of schema/testdata/access/rules.json, also read by bff/access's Go tests. */
interface RuleCase {
  name: string;
  user: AccessUser;
  context: AccessContext;
  now: string;
  designer_query: boolean;
  custom_payment_domain: boolean;
  expect: Record<string, unknown>;
}

interface StoreCase {
  name: string;
  user: AccessUser;
  requested: number[];
  want: number[];
}

const cases = table.cases as unknown as RuleCase[];
const storeCases = table.store_filter as unknown as StoreCase[];

describe('access rules agree with the shared table', () => {
  it('has cases', () => {
    expect(cases.length).toBeGreaterThan(10);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const user = c.user;
    expect({
      designer: isDesigner(user),
      authorized_account: isAuthorizedAccount(user),
      in_authorized_account: inAuthorizedAccount(user),
      trusted: isTrusted(user),
      fulfillment_domain: isFulfillmentDomain(c.context.host),
      must_verify_email: mustVerifyEmail(user, Date.parse(c.now)),
      needs_tfa: needsTfa(user),
      can: Object.fromEntries(PERMISSIONS.map((p) => [p, can(user, p)])),
      menu: visibleMenu(user, c.context),
      store_domain: storeDomain(user),
      login_endpoint: loginEndpoint(c.context.host, c.designer_query),
      needs_seller_centre: needsSellerCentre(user, c.custom_payment_domain),
    }).toEqual(c.expect);
  });

  it.each(storeCases.map((c) => [c.name, c] as const))('store filter: %s', (_name, c) => {
    expect(storeFilter(c.user, c.requested)).toEqual(c.want);
  });
});
