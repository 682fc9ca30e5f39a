import { describe, expect, it } from 'vitest';
import { visibleMenu, type AccessContext } from '../access';
import type { User } from '../api';
import { makeUser } from '../test/users';
import { activeEntry, MENU_SECTIONS, routePathOf, visibleSections } from './sections';

const DASHBOARD_HOST: AccessContext = { host: 'app.pressroom.test', bulk_v3: true };

/** The menu as the user sees it: section label → entry labels. */
function menuOf(user: User, context: AccessContext = DASHBOARD_HOST): [string, string[]][] {
  return visibleSections(visibleMenu(user, context)).map((s) => [s.label, s.entries.map((e) => e.label)]);
}

describe('the menu', () => {
  it('has the menu’s sections and items, in order, with Beta on Email Marketing', () => {
    expect(MENU_SECTIONS.map((s) => [s.label, s.entries.map((e) => e.label)])).toEqual([
      ['Dashboard', ['Overview', 'Referral Program', 'Contest', 'Calendar']],
      ['Design', ['Design']],
      ['Admin', ['Queue monitor', 'Production', 'Payouts', 'Stock status', 'Mail outbox']],
      [
        'Orders',
        ['All Orders', 'Abandoned', 'Cross-Selling', 'Customers', 'Fulfill Orders', 'Invalid Address', 'Cancel Orders'],
      ],
      ['Campaigns', ['All Campaigns', 'Promotions', 'Collections', 'Pricing', 'Bulk campaigns', 'On promotion']],
      ['Personalized', ['Artworks', 'Cliparts', 'Fonts']],
      ['Email Marketing', ['Campaigns', 'Subscribers', 'Settings', 'Senders']],
      ['Storefronts', ['All Stores', 'Product Reviews', 'Search Keywords', 'Social Feed']],
      ['Products', ['Stock status']],
      ['Billing & Payouts', ['Billing & Payouts']],
      ['Settings', ['General', 'Payment Accounts', 'Payment Gateways', 'Domains', 'Team', 'Notifications', 'API Keys']],
    ]);
    expect(MENU_SECTIONS.find((s) => s.label === 'Email Marketing')?.badge).toBe('Beta');
  });

  it('gives every entry its own path', () => {
    const paths = MENU_SECTIONS.flatMap((s) => s.entries.map((e) => e.path));
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('gives route paths without the slash and the query', () => {
    expect(routePathOf('/referral?sort_by=sold_items')).toBe('referral');
    expect(routePathOf('/')).toBe('');
  });
});

describe('menu visibility', () => {
  it('shows a plain seller everything but the tag- and custom_payment-gated items', () => {
    expect(menuOf(makeUser())).toEqual([
      ['Dashboard', ['Overview', 'Referral Program', 'Contest', 'Calendar']],
      ['Orders', ['All Orders', 'Abandoned', 'Cross-Selling', 'Customers', 'Fulfill Orders']],
      ['Campaigns', ['All Campaigns', 'Promotions', 'Collections', 'Bulk campaigns', 'On promotion']],
      ['Storefronts', ['All Stores', 'Product Reviews', 'Search Keywords', 'Social Feed']],
      ['Products', ['Stock status']],
      ['Billing & Payouts', ['Billing & Payouts']],
      ['Settings', ['General', 'Payment Accounts', 'Domains', 'Team', 'Notifications', 'API Keys']],
    ]);
  });

  it('shows a team member holding get_campaigns only the sections they may use', () => {
    expect(menuOf(makeUser({ roles: ['staff'], permissions: ['get_campaigns'] }))).toEqual([
      ['Dashboard', ['Referral Program', 'Contest', 'Calendar']],
      ['Campaigns', ['All Campaigns', 'Promotions', 'Collections', 'Bulk campaigns', 'On promotion']],
      ['Storefronts', ['All Stores', 'Product Reviews', 'Search Keywords', 'Social Feed']],
      ['Products', ['Stock status']],
      ['Settings', ['Domains', 'API Keys']],
    ]);
  });

  it('shows a designer only Design', () => {
    expect(menuOf(makeUser({ roles: ['designer'] }))).toEqual([['Design', ['Design']]]);
  });

  it('shows a fulfillment-domain user only Fulfill Orders, Storefronts and Billing & Payouts', () => {
    expect(menuOf(makeUser(), { host: 'fulfill.pressroom.test', bulk_v3: true })).toEqual([
      ['Orders', ['Fulfill Orders']],
      ['Storefronts', ['All Stores', 'Search Keywords', 'Social Feed']],
      ['Billing & Payouts', ['Billing & Payouts']],
    ]);
  });

  it('moves Fulfill Orders to the top for the fulfill tag', () => {
    const menu = menuOf(makeUser({ tags: ['fulfill'] }));
    expect(menu[0]).toEqual(['Fulfill Orders', ['Fulfill Orders']]);
    expect(menu[2]).toEqual(['Orders', ['All Orders', 'Abandoned', 'Cross-Selling', 'Customers']]);
  });

  it('shows the tag-gated sections with their tags', () => {
    const menu = menuOf(makeUser({ tags: ['pricing', 'pb', 'email marketing'], custom_payment: true }));
    expect(menu.map(([label]) => label)).toEqual(MENU_SECTIONS.map((s) => s.label).filter((l) => l !== 'Design' && l !== 'Admin'));
  });

  it('gives an admin only the Admin area, the queue monitor among it', () => {
    expect(menuOf(makeUser({ roles: ['admin'] }))).toEqual([['Admin', ['Queue monitor', 'Production', 'Payouts', 'Stock status', 'Mail outbox']]]);
  });

  it('gives an impersonating admin the seller’s menu, never the Admin area', () => {
    expect(menuOf(makeUser({ access_user: true })).map(([label]) => label)).not.toContain('Admin');
  });
});

describe('the active entry', () => {
  const sections = visibleSections(visibleMenu(makeUser({ tags: ['email marketing'] }), DASHBOARD_HOST));

  it.each([
    ['/', 'Overview'],
    ['/referral', 'Referral Program'],
    ['/orders/detail/3', 'All Orders'],
    ['/campaigns/edit/3', 'All Campaigns'],
    ['/email-marketing/campaigns/view/3', 'Campaigns'],
    ['/settings/payment-account', 'Payment Accounts'],
  ])('on %s is %s', (pathname, label) => {
    expect(activeEntry(sections, pathname)?.label).toBe(label);
  });

  it('is none on a page outside the menu', () => {
    expect(activeEntry(sections, '/notifications')).toBeUndefined();
  });
});
