import { describe, expect, it } from 'vitest';
import { api, apiLogin } from './support/accounts';
import { reloadUntil, sql, STORE_URL } from './support/shop';
import { DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

describe('collections (docs/collections.md)', () => {
  const browser = suiteBrowser();

  it('the seller builds a collection, orders its featured campaigns, and the store shows it in its menu and home', async () => {
    const stamp = Date.now().toString(36);
    const name = `Summer ${stamp}`;
    // The demo store sells the bulk template; a second campaign goes on sale next to it for this test (and is removed after).
    const second = 'Bulk template — T-shirt';
    const first = `Beach ${stamp}`;
    const made = sql(
      `WITH c AS (INSERT INTO campaigns (user_id, name) SELECT owner_id, :'a1' FROM stores WHERE slug = 'demo' RETURNING id, user_id),
       p AS (INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, options, base_cost)
             SELECT c.id, cp.template_id, cp.name, cp.product_type, cp.print_spaces, cp.options, cp.base_cost
             FROM c JOIN campaigns o ON o.user_id = c.user_id AND o.name = :'a2' JOIN campaign_products cp ON cp.campaign_id = o.id
             RETURNING id, campaign_id)
       INSERT INTO store_products (store_id, product_id, campaign_id, price, currency)
       SELECT s.id, p.id, p.campaign_id, 2499, s.currency FROM p, stores s WHERE s.slug = 'demo' RETURNING campaign_id`,
      first,
      second,
    );
    expect(made).not.toBe('');

    const seller = await openPage(browser());
    const page = seller.page;
    await signIn(page, DEMO_SELLER);
    await page.goto('/collections');
    await page.getByRole('heading', { name: 'Collections' }).waitFor();
    await page.getByRole('link', { name: 'New collection' }).click();
    await page.getByRole('heading', { name: 'New collection' }).waitFor();
    await page.getByLabel('Name').fill(name);
    expect(await page.getByLabel('Address').inputValue()).toBe(`summer-${stamp}`);
    await page.getByLabel('Description').fill('Light shirts for hot days.');
    const campaigns = page.getByRole('combobox', { name: 'Campaigns' });
    for (const campaign of [second, first]) {
      await campaigns.click();
      await campaigns.fill(campaign);
      await page.getByRole('option', { name: campaign, exact: true }).click();
    }
    await page.getByLabel('Description').click(); // closes the dropdown
    await page.getByText('This address is free.').waitFor();
    await screenshot(page, 'collections-new');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await page.getByText('The collection was created.').waitFor();
    await page.getByRole('heading', { name }).waitFor();
    const id = Number(/\/collections\/edit\/(\d+)/.exec(page.url())?.[1]);
    expect(id).toBeGreaterThan(0);

    // The same address again is refused next to the field.
    await page.goto('/collections/edit/new');
    await page.getByLabel('Name').fill(name);
    await page.getByText('You already have a collection at this address; choose another.').waitFor();
    await screenshot(page, 'collections-address-taken');

    // Featured: both, the first-added moved below the other.
    await page.goto(`/collections/${id}/featured-campaigns`);
    await page.getByRole('heading', { name: 'Featured campaigns' }).waitFor();
    await page.getByRole('button', { name: `Feature ${second}` }).click();
    await page.getByRole('button', { name: `Feature ${first}` }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: `Move ${first} up` }).click();
    const order = await page.getByTestId('featured-campaign').allInnerTexts();
    expect(order).toHaveLength(2);
    expect(order[0]).toContain(first);
    expect(order[1]).toContain(second);
    await page.getByRole('button', { name: 'Save order' }).click();
    await page.getByText('The featured campaigns were saved.').waitFor();
    await screenshot(page, 'collections-featured');
    await page.goto('/collections');
    const row = page.getByTestId('collection').filter({ hasText: name });
    await row.waitFor();
    expect(await row.innerText()).toContain('2 campaigns');
    expect(await row.innerText()).toContain('2 featured');
    await screenshot(page, 'collections-list');

    // The store: the menu links the collection, the home shows its featured campaigns in order, its page lists them.
    const buyer = await openPage(browser(), undefined, STORE_URL);
    const shop = buyer.page;
    const menuLink = shop.getByRole('navigation', { name: 'Collections' }).getByRole('link', { name });
    await reloadUntil(shop, '/s/demo/', async () => (await menuLink.count()) === 1);
    const section = shop.locator('section.featured', { has: shop.getByRole('heading', { name }) });
    const cards = await section.locator('a.card strong').allInnerTexts();
    expect(cards).toEqual([first, second]);
    await screenshot(shop, 'collections-store-home');
    await menuLink.click();
    await shop.getByRole('heading', { name, level: 1 }).waitFor();
    expect(await shop.getByText('Light shirts for hot days.').count()).toBe(1);
    expect(await shop.locator('a.card strong').allInnerTexts()).toEqual([first, second]);
    await screenshot(shop, 'collections-store-page');
    await buyer.context.close();
    await seller.context.close();

    // The demo store goes back to how the other suites expect it.
    const token = await apiLogin(DEMO_SELLER);
    expect((await api('DELETE', `/seller/collections/${id}`, token)).status).toBe(200);
    sql(`DELETE FROM campaigns WHERE name = :'a1'`, first);
  });
});
