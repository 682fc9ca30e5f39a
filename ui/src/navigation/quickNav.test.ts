import { describe, expect, it } from 'vitest';
import { visibleMenu, type AccessContext } from '../access';
import type { User } from '../api';
import { makeUser } from '../test/users';
import { QUICK_NAV_DESTINATIONS, quickNavDestinations } from './quickNav';

/** The destinations of docs/shell.md's quick navigation, written out here. */
const SPEC_DESTINATIONS = [
  '/',
  '/referral?sort_by=sold_items',
  '/contest',
  '/fulfillment',
  '/orders',
  '/abandoned-orders',
  '/customers',
  '/campaigns',
  '/promotions',
  '/collections',
  '/pricing',
  '/personalized/artworks',
  '/personalized/cliparts',
  '/personalized/fonts',
  '/storefronts',
  '/settings/product-reviews',
  '/search-keyword',
  '/social-feed',
  '/payouts',
  '/settings/general',
  '/settings/account',
  '/settings/payment-account',
  '/settings/payment-gateways',
  '/domains',
  '/team',
  '/settings/notification',
  '/email-marketing/campaigns',
  '/email-marketing/subscribers',
  '/email-marketing/settings',
  '/sms/topup',
];

const DASHBOARD_HOST: AccessContext = { host: 'app.pressroom.test', bulk_v3: false };

function offered(user: User, context: AccessContext = DASHBOARD_HOST): string[] {
  return quickNavDestinations(visibleMenu(user, context)).map((d) => d.path);
}

describe('quick navigation destinations', () => {
  it('are exactly the listed ones, in order', () => {
    expect(QUICK_NAV_DESTINATIONS.map((d) => d.path)).toEqual(SPEC_DESTINATIONS);
  });

  it('each have a distinct readable label and a group', () => {
    const labels = QUICK_NAV_DESTINATIONS.map((d) => d.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const d of QUICK_NAV_DESTINATIONS) {
      expect(d.label).toMatch(/^[A-Z]/);
      expect(d.label).not.toContain('/');
      expect(d.group).not.toBe('');
    }
  });
});

describe('quick navigation follows the menu visibility', () => {
  it.each<[string, User, AccessContext, string[]]>([
    [
      'a seller without tags sees all but the tag- and custom_payment-gated pages',
      makeUser(),
      DASHBOARD_HOST,
      SPEC_DESTINATIONS.filter(
        (p) =>
          p !== '/pricing' &&
          !p.startsWith('/personalized/') &&
          !p.startsWith('/email-marketing/') &&
          p !== '/settings/payment-gateways',
      ),
    ],
    [
      'a seller with every tag and custom_payment sees every destination',
      makeUser({ tags: ['pricing', 'pb', 'email marketing'], custom_payment: true }),
      DASHBOARD_HOST,
      SPEC_DESTINATIONS,
    ],
    ['a designer sees none (the design area only)', makeUser({ roles: ['designer'] }), DASHBOARD_HOST, []],
    [
      'a fulfillment-domain seller sees Fulfill Orders, Storefronts and Billing & Payouts',
      makeUser(),
      { host: 'fulfill.pressroom.test', bulk_v3: false },
      ['/fulfillment', '/storefronts', '/search-keyword', '/social-feed', '/payouts', '/sms/topup'],
    ],
    [
      'a team member holding get_campaigns only',
      makeUser({ roles: ['staff'], permissions: ['get_campaigns'] }),
      DASHBOARD_HOST,
      [
        '/referral?sort_by=sold_items',
        '/contest',
        '/campaigns',
        '/promotions',
        '/collections',
        '/storefronts',
        '/settings/product-reviews',
        '/search-keyword',
        '/social-feed',
        '/settings/account',
        '/domains',
      ],
    ],
    [
      'a team member switched into a seller loses My Account and the own-account settings',
      makeUser({ roles: ['staff'], permissions: ['get_payments', 'update_payments', 'get_users'], access_user: true }),
      DASHBOARD_HOST,
      [
        '/referral?sort_by=sold_items',
        '/contest',
        '/storefronts',
        '/settings/product-reviews',
        '/search-keyword',
        '/social-feed',
        '/payouts',
        '/settings/payment-account',
        '/domains',
        '/sms/topup',
      ],
    ],
    [
      'a referrer loses the referral program',
      makeUser({ is_ref: true }),
      DASHBOARD_HOST,
      offered(makeUser()).filter((p) => !p.startsWith('/referral')),
    ],
  ])('%s', (_name, user, context, want) => {
    expect(offered(user, context)).toEqual(want);
  });

  it('keeps the listed order when the fulfill tag moves Fulfill Orders to the top of the menu', () => {
    const user = makeUser({ tags: ['fulfill'] });
    expect(visibleMenu(user, DASHBOARD_HOST)[0]).toBe('orders.fulfill');
    expect(offered(user).slice(0, 4)).toEqual(['/', '/referral?sort_by=sold_items', '/contest', '/fulfillment']);
  });
});
