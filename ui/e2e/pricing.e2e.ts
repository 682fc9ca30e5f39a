import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reloadUntil, sql, STORE_URL } from './support/shop';
import { DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

/**
 * Puts a campaign `name` on sale in the demo store: a copy of the bulk template's T-shirt at base cost (8.50) plus
 * 11.49, as Sell does. Answers the campaign and its product.
 */
function campaignOnSale(name: string): { campaign: string; product: string } {
  const out = sql(
    `WITH c AS (INSERT INTO campaigns (user_id, name) SELECT owner_id, :'a1' FROM stores WHERE slug = 'demo' RETURNING id, user_id),
     p AS (INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, options, base_cost)
           SELECT c.id, cp.template_id, cp.name, cp.product_type, cp.print_spaces, cp.options, cp.base_cost
           FROM c JOIN campaigns o ON o.user_id = c.user_id AND o.name = 'Bulk template — T-shirt'
           JOIN campaign_products cp ON cp.campaign_id = o.id
           RETURNING id, campaign_id, base_cost)
     INSERT INTO store_products (store_id, product_id, campaign_id, price, currency)
     SELECT s.id, p.id, p.campaign_id, round(p.base_cost * 100)::bigint + 1149, s.currency FROM p, stores s WHERE s.slug = 'demo'
     RETURNING campaign_id || '|' || product_id`,
    name,
  );
  const [campaign = '', product = ''] = out.split('|');
  return { campaign, product };
}

describe('pricing and the campaign list (docs/pricing.md, docs/campaigns.md)', () => {
  const browser = suiteBrowser();

  it('the seller changes two campaigns to a 15.00 margin after a preview, and the demo store sells at the new prices', async () => {
    const stamp = Date.now().toString(36);
    const a = campaignOnSale(`Price A ${stamp}`);
    campaignOnSale(`Price B ${stamp}`);

    const { page, context } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/pricing');
    await page.getByRole('heading', { name: 'Pricing', level: 1 }).waitFor();
    await page.getByTestId('pricing-settings').waitFor();
    await page.getByLabel('Search').fill(stamp);
    const rows = page.getByTestId('priced-product');
    await rows.filter({ hasText: `Price A ${stamp}` }).waitFor();
    // The search applies once typing pauses: until then the store's other campaigns are listed too.
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    // 8.50 + 11.49; the 2XL costs 2.00 more to make and sells for 2.00 more.
    expect(await rows.first().getByTestId('size-prices').innerText()).toContain('2XL USD 21.99');
    await screenshot(page, 'pricing-list');

    await page.getByRole('checkbox', { name: 'Choose every campaign of the page' }).check();
    await page.getByRole('button', { name: 'Change prices of 2 campaigns' }).click();
    await page.getByLabel(/^Margin \(USD\)/).fill('15.00');
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByTestId('price-preview');
    await preview.waitFor();
    const first = preview.getByTestId('preview-row').first();
    expect(await first.innerText()).toMatch(/USD 19\.99\s+USD 23\.50/);
    await screenshot(page, 'pricing-preview');
    await page.getByRole('button', { name: 'Apply new prices to 2 products' }).click();
    await page.getByText('New prices for 2 products of 2 campaigns are saved.').waitFor();
    await rows.filter({ hasText: 'S USD 23.50' }).first().waitFor();
    await screenshot(page, 'pricing-applied');
    await context.close();

    // The demo store: the product page sells every size at its new price once its cached page is renewed.
    const buyer = await openPage(browser(), undefined, STORE_URL);
    const shop = buyer.page;
    const path = `/s/demo/c/${a.campaign}?product=${a.product}`;
    await reloadUntil(shop, path, async () => (await shop.getByText('2XL — $25.50').count()) === 1);
    expect(await shop.locator('.price').innerText()).toBe('$23.50');
    expect(await shop.locator('.compare').innerText()).toBe('$29.38'); // 25 % above
    await screenshot(shop, 'pricing-store-product');
    await buyer.context.close();
    sql(`DELETE FROM campaigns WHERE name LIKE 'Price _ ' || :'a1'`, stamp);
  });

  it('imports a CSV with a bad row, reports it by line, makes the good ones in the background, and exports the list', async () => {
    const stamp = Date.now().toString(36);
    const art = sql(`SELECT blob_key FROM uploads WHERE file_name = 'bulk-template-artwork.png' ORDER BY id LIMIT 1`);
    expect(art).not.toBe('');
    const csv = [
      'name,products,artwork,store,margin',
      `Imported ${stamp} one,T-shirt,${art},demo,12.00`,
      `Imported ${stamp} two,Hoody,${art},demo,12.00`,
      `Imported ${stamp} three,Mug wrap,/api/files/${art},,`,
    ].join('\n');

    const { page, context } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/campaigns/import');
    await page.getByRole('heading', { name: 'Import campaigns' }).waitFor();
    await page.locator('input[type="file"]').setInputFiles({ name: `import-${stamp}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('2 of 3 rows were sent to the worker.').waitFor();
    const report = page.getByTestId('import-report');
    const bad = report.getByTestId('report-line').filter({ hasText: 'Refused' });
    await bad.waitFor();
    expect(await bad.innerText()).toMatch(/^3\s+Refused\s+No product of the catalogue is called "Hoody"\.$/i);
    await screenshot(page, 'import-report');
    // The worker makes the two good rows' campaigns; the report links them as they come.
    await report.getByRole('switch', { name: 'Only rows with a problem' }).uncheck();
    await report.getByRole('link', { name: `Imported ${stamp} one` }).waitFor({ timeout: 60_000 });
    await report.getByRole('link', { name: `Imported ${stamp} three` }).waitFor({ timeout: 60_000 });
    await screenshot(page, 'import-report-made');

    // The same file again makes nothing new.
    await page.locator('input[type="file"]').setInputFiles({ name: `import-${stamp}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('0 of 3 rows were sent to the worker.').waitFor();
    expect(sql(`SELECT count(*) FROM campaigns WHERE name LIKE 'Imported ' || :'a1' || '%'`, stamp)).toBe('2');

    // The list: the imported campaigns, the one sold active; their export as CSV.
    await page.goto('/campaigns');
    await page.getByRole('textbox', { name: 'Search campaigns' }).fill(`Imported ${stamp}`);
    // The search is sent as the seller stops typing: the list narrows to the two.
    await expect.poll(() => page.getByTestId('campaign-row').count()).toBe(2);
    await screenshot(page, 'campaigns-list-imported');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await (await download).path();
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('id,name,slug,system_type,product_type,status,products,designs,stores,artwork_url,created_at,updated_at');
    expect(lines).toHaveLength(3);
    expect(lines.find((l) => l.includes(`Imported ${stamp} one`))).toMatch(/,regular,campaign,active,T-shirt,1,demo,/);
    await context.close();
    sql(`DELETE FROM campaigns WHERE name LIKE 'Imported ' || :'a1' || '%'`, stamp);
  });
});
