import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { api, apiLogin, DEMO_ADMIN, outbox } from './support/accounts';
import { readCsv } from './support/csv';
import { canvasPng } from './support/images';
import { buy, orderIdOf, sql, STORE_URL } from './support/shop';
import { DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

interface StoreRow {
  id: number;
  slug: string;
  name: string;
  [field: string]: unknown;
}

interface FeedRow {
  id: number;
  name: string;
  url: string;
  state: string;
  item_count: number;
}

/** Waits until ok() holds, trying every half second; a timeout says what was waited for and what seen() finds then. */
async function until(what: string, ok: () => Promise<boolean> | boolean, ms = 90_000, seen?: () => Promise<string> | string) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${seen ? `; seen: ${await seen()}` : ''}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Reloads page until text shows on it (a page cache, a batched write or a background build in between). After each
 * reload the text is given a few seconds to show: a dashboard page draws its lists only once their data came.
 */
async function reloadUntil(page: Page, text: string | RegExp, ms = 60_000, seen?: () => Promise<string> | string) {
  await until(`"${String(text)}" on ${page.url()}`, async () => {
    await page.reload();
    return page.getByText(text).first().waitFor({ timeout: 5_000 }).then(() => true, () => false);
  }, ms, seen);
}

const GOOGLE_NS = 'http://base.google.com/ns/1.0';
const FACEBOOK_COLUMNS = 'id,title,description,availability,condition,price,sale_price,link,image_link,brand,item_group_id,color,size,product_type';

describe('product reviews, search keywords and social feeds (docs/reviews.md, docs/search-keywords.md, docs/social-feeds.md)', () => {
  const browser = suiteBrowser();
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it("a delivered order's buyer reviews it from the e-mail, the seller publishes and answers, and the store shows it", async () => {
    const run = Date.now().toString(36);
    const seller = await apiLogin(DEMO_SELLER);
    const admin = await apiLogin(DEMO_ADMIN, undefined, 'admin');
    // The demo store shows its own reviews for this test, and goes back as it was.
    const storeList = (await api<unknown>('GET', '/seller/stores?per_page=100', seller)).body as unknown as { data: StoreRow[] };
    const demo = storeList.data.find((s) => s.slug === 'demo');
    if (!demo) throw new Error('no demo store');
    const input = (setting: unknown) => ({
      name: demo.name, slug: demo.slug, logo_key: demo.logo_key, favicon_key: demo.favicon_key, primary_color: demo.primary_color,
      accent_color: demo.accent_color, currency: demo.currency, target_market: demo.target_market, review_setting: setting, is_open: demo.is_open,
    });
    expect((await api('PUT', `/seller/stores/${demo.id}`, seller, input('enable-only-store'))).status).toBe(200);
    cleanups.push(() => api('PUT', `/seller/stores/${demo.id}`, seller, input(demo.review_setting)));

    // A buyer pays; the seller ships and the parcel arrives.
    const email = `reviewer-${run}@example.com`;
    const shop = await openPage(browser(), undefined, STORE_URL);
    const number = await buy(shop.page, email, 'Rae Reviewer');
    const orderId = orderIdOf(email, number);
    expect((await api('PUT', '/seller/notifications', seller, { mark_all_as_read: true })).status).toBe(200);
    expect((await api('POST', `/seller/orders/${orderId}/actions/ship`, seller, { carrier: 'DHL', tracking_number: `RV${run}` })).status).toBe(200);
    expect((await api('POST', `/seller/orders/${orderId}/actions/deliver`, seller, {})).status).toBe(200);

    // The delivery e-mail holds the item's review link.
    let link = '';
    await until('the delivery e-mail', async () => {
      const mail = (await outbox(admin, email)).data.find((m) => m.subject.includes('has arrived'));
      link = /https?:\/\/\S+\/reviews\/\d+\/[0-9a-f]{32}/.exec(mail?.body ?? '')?.[0] ?? '';
      return link !== '';
    }, 90_000, async () => {
      const mails = (await outbox(admin, email)).data.map((m) => `${m.subject}: ${m.body.slice(0, 300)}`);
      const state = sql(`SELECT o.status || ' ' || string_agg(coalesce(sh.delivered_at::text, 'undelivered'), ',') FROM orders o
        JOIN order_items i ON i.order_id = o.id LEFT JOIN shipments sh ON sh.order_item_id = i.id WHERE o.id = :'a1' GROUP BY o.status;`, String(orderId));
      return `order ${state}; mails ${JSON.stringify(mails)}`;
    });
    expect(link.startsWith(`${STORE_URL}/s/demo/reviews/`)).toBe(true);

    const buyer = shop.page;
    await buyer.goto(link);
    await buyer.getByRole('heading', { name: /^Review your / }).waitFor();
    expect(await buyer.getByLabel('Your name as shown').inputValue()).toBe('Rae R.');
    await buyer.getByRole('button', { name: 'Send review' }).click();
    await buyer.getByText('Choose a rating from 1 to 5 stars.').waitFor();
    await buyer.getByText('Write a few words about the product.').waitFor();
    await screenshot(buyer, 'review-form-refused');
    const photo = await canvasPng(buyer, () => {
      const c = new OffscreenCanvas(400, 300);
      const g = c.getContext('2d');
      if (!g) throw new Error('no 2d context');
      g.fillStyle = '#2a6f97';
      g.fillRect(0, 0, 400, 300);
      g.fillStyle = '#ffd166';
      g.beginPath();
      g.arc(200, 150, 90, 0, Math.PI * 2);
      g.fill();
      return c;
    }, null);
    const body = `Soft shirt, sharp print (${run}). <b>Would</b> buy again.`;
    await buyer.getByLabel(/Like it/).check();
    await buyer.getByLabel('Your review').fill(body);
    await buyer.getByLabel('A photo (optional)').setInputFiles({ name: 'wearing-it.png', mimeType: 'image/png', buffer: photo });
    await screenshot(buyer, 'review-form');
    await buyer.getByRole('button', { name: 'Send review' }).click();
    await buyer.getByText('Thank you! Your review was received.').waitFor();
    await screenshot(buyer, 'review-thanks');
    const shown = `Soft shirt, sharp print (${run}). Would buy again.`;
    // The renderer checks the photo like every upload.
    await until('the photo checked', () =>
      sql(`SELECT u.status FROM product_reviews r JOIN uploads u ON u.id = r.photo_upload_id JOIN order_items i ON i.id = r.order_item_id
        WHERE i.order_id = :'a1';`, String(orderId)) === 'ready', 90_000, () =>
      sql(`SELECT u.status || ' ' || u.message FROM product_reviews r JOIN uploads u ON u.id = r.photo_upload_id
        JOIN order_items i ON i.id = r.order_item_id WHERE i.order_id = :'a1';`, String(orderId)));

    // The seller reads it among the reviews, publishes it and answers.
    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/settings/product-reviews');
    await page.getByRole('heading', { name: 'Product Reviews' }).waitFor();
    const row = page.getByTestId('product-review').filter({ hasText: shown });
    await row.waitFor();
    await row.getByText('Waiting for you').waitFor();
    await row.getByRole('img', { name: 'Photo by Rae R.' }).waitFor();
    await screenshot(page, 'product-reviews');
    await row.getByRole('button', { name: 'Publish' }).click();
    await row.getByText('Published', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Reply' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reply to Rae R.' });
    await dialog.getByLabel('Your reply').fill('Thank you, Rae! Enjoy it.');
    await screenshot(page, 'product-reviews-reply');
    await dialog.getByRole('button', { name: 'Save reply' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row.getByText('Thank you, Rae! Enjoy it.').waitFor();
    await screenshot(page, 'product-reviews-published');

    // The store shows it on the product's page, with its photo, the average and the reply.
    const campaign = sql(`SELECT campaign_id FROM order_items WHERE order_id = :'a1' LIMIT 1;`, String(orderId));
    await buyer.goto(`/s/demo/c/${campaign}`);
    await reloadUntil(buyer, shown);
    const review = buyer.locator('[data-review]').filter({ hasText: shown });
    await review.getByText('Reply from').waitFor();
    await review.getByText('Thank you, Rae! Enjoy it.').waitFor();
    expect(await review.getByRole('img', { name: '4 out of 5 stars' }).count()).toBe(1);
    await buyer.getByText(/out of 5 from \d+ reviews?/).waitFor();
    const img = review.getByRole('img', { name: 'Photo by Rae R.' });
    await until('the photo drawn', async () => (await img.evaluate((i) => (i as HTMLImageElement).naturalWidth)) === 400);
    await review.scrollIntoViewIfNeeded();
    await screenshot(buyer, 'review-on-store');
    // The link works once: a second review of the item is refused.
    await buyer.goto(link);
    await buyer.getByText('You have already reviewed this item. Thank you!').waitFor();

    // Searches in the store show up in Search Keywords.
    await buyer.goto('/s/demo/');
    const name = (await buyer.locator('a.card strong').first().innerText()).trim();
    const word = name.split(/\s+/)[0]!.toLowerCase();
    await buyer.getByRole('searchbox', { name: 'Search the shop' }).fill(word);
    await buyer.getByRole('searchbox', { name: 'Search the shop' }).press('Enter');
    await buyer.getByRole('heading', { name: `Search: ${word}` }).waitFor();
    expect(await buyer.locator('a.card').count()).toBeGreaterThan(0);
    await screenshot(buyer, 'store-search');
    const nothing = `unicorn ${run}`;
    await buyer.goto(`/s/demo/search?q=${encodeURIComponent(nothing.toUpperCase())}`);
    await buyer.getByText(`Nothing here matches “${nothing.toUpperCase()}”.`).waitFor();
    await shop.context.close();

    await page.goto('/search-keyword');
    await page.getByRole('heading', { name: 'Search Keywords' }).waitFor();
    await reloadUntil(page, nothing, 60_000, async () => {
      const rows = sql(`SELECT string_agg(store_id || ' ' || hour || ' ' || query || ' ' || searches, '; ') FROM search_keywords;`);
      return `rows: ${rows}; page: ${(await page.locator('body').innerText()).slice(0, 1500)}`;
    });
    await page.getByTestId('keywords-top').getByText(word, { exact: true }).waitFor();
    const none = page.getByTestId('keywords-no_results').getByTestId('keyword').filter({ hasText: nothing });
    await none.getByText('1 of 1').waitFor();
    await screenshot(page, 'search-keywords');
    await context.close();
  }, 300_000); // a purchase, a delivery e-mail, a photo check, a page cache and a keyword flush to wait for

  it('a seller makes a Google and a Facebook feed of the store, which build and download as XML and CSV', async () => {
    const run = Date.now().toString(36);
    const seller = await apiLogin(DEMO_SELLER);
    const stores = (await api<unknown>('GET', '/seller/stores?per_page=100', seller)).body as unknown as { data: StoreRow[] };
    const demo = stores.data.find((s) => s.slug === 'demo');
    if (!demo) throw new Error('no demo store');
    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/social-feed');
    await page.getByRole('heading', { name: 'Social Feed' }).waitFor();
    await page.getByRole('link', { name: 'New feed' }).click();
    await page.getByRole('heading', { name: 'New feed' }).waitFor();
    await page.getByRole('button', { name: 'Create feed' }).click();
    await page.getByText('The name is required.').waitFor();
    await page.getByText('Choose one of your stores.').waitFor();
    await page.getByLabel(/^Name/).fill(`Google Shopping ${run}`);
    await page.getByRole('combobox', { name: /^Store/ }).click();
    await page.getByRole('option', { name: demo.name, exact: true }).click();
    await screenshot(page, 'social-feed-new');
    await page.getByRole('button', { name: 'Create feed' }).click();
    await page.getByRole('heading', { name: 'Social Feed' }).waitFor();
    const row = page.getByTestId('social-feed').filter({ hasText: `Google Shopping ${run}` });
    await row.getByText('Ready', { exact: true }).waitFor({ timeout: 90_000 });
    const feeds = await api<unknown>('GET', `/seller/social-feeds?q=${run}`, seller);
    const feed = (feeds.body as unknown as { data: FeedRow[] }).data[0]!;
    cleanups.push(() => api('DELETE', `/seller/social-feeds/${feed.id}`, seller));
    expect(feed.url).toBe(`${STORE_URL}/s/demo/feeds/${feed.id}.xml`);
    await until('items in the feed (the demo mockups rendered)', async () => {
      const f = (await api<FeedRow>('GET', `/seller/social-feeds/${feed.id}`, seller)).body.data;
      if (f.state === 'ready' && f.item_count === 0) await api('POST', `/seller/social-feeds/${feed.id}/rebuild`, seller);
      return f.item_count > 0;
    }, 120_000);
    await page.reload();
    await row.getByTestId('feed-built').waitFor();
    await screenshot(page, 'social-feeds');

    // The stable address answers the Google feed; Chromium's XML reader reads it.
    const xml = await (await fetch(feed.url)).text();
    const items = await page.evaluate(
      ([text, ns]) => {
        const doc = new DOMParser().parseFromString(text, 'application/xml');
        if (doc.getElementsByTagName('parsererror').length > 0) throw new Error('the feed is not XML');
        return Array.from(doc.getElementsByTagName('item')).map((it) => ({
          id: it.getElementsByTagNameNS(ns, 'id')[0]?.textContent ?? '',
          price: it.getElementsByTagNameNS(ns, 'price')[0]?.textContent ?? '',
          availability: it.getElementsByTagNameNS(ns, 'availability')[0]?.textContent ?? '',
          image: it.getElementsByTagNameNS(ns, 'image_link')[0]?.textContent ?? '',
          link: it.getElementsByTagName('link')[0]?.textContent ?? '',
        }));
      },
      [xml, GOOGLE_NS] as const,
    );
    const built = (await api<FeedRow>('GET', `/seller/social-feeds/${feed.id}`, seller)).body.data;
    expect(items.length).toBe(built.item_count);
    for (const it of items) {
      expect(it.id).not.toBe('');
      expect(it.price).toMatch(/^\d+\.\d{2} USD$/);
      expect(['in_stock', 'out_of_stock']).toContain(it.availability);
      expect(it.link.startsWith(`${STORE_URL}/s/demo/c/`)).toBe(true);
    }
    // The mockup the feed names is served by the store.
    expect((await fetch(items[0]!.image)).headers.get('content-type')).toMatch(/^image\//);

    // As a Facebook catalogue: CSV at its own address.
    await row.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: `Google Shopping ${run}` }).waitFor();
    await page.getByRole('combobox', { name: 'Format' }).click();
    await page.getByRole('option', { name: 'Facebook catalogue (CSV)' }).click();
    await screenshot(page, 'social-feed-edit');
    await page.getByRole('button', { name: 'Save feed' }).click();
    await page.getByRole('heading', { name: 'Social Feed' }).waitFor();
    await until('the CSV built', async () => (await api<FeedRow>('GET', `/seller/social-feeds/${feed.id}`, seller)).body.data.state === 'ready');
    const csvUrl = `${STORE_URL}/s/demo/feeds/${feed.id}.csv`;
    expect((await fetch(feed.url)).status).toBe(404);
    const records = readCsv(await (await fetch(csvUrl)).text());
    expect(records[0]!.join(',')).toBe(FACEBOOK_COLUMNS);
    expect(records.length - 1).toBe(items.length);
    for (const r of records.slice(1)) {
      expect(r).toHaveLength(14);
      expect(['in stock', 'out of stock']).toContain(r[3]);
      expect(r[5]).toMatch(/^\d+\.\d{2} USD$/);
    }
    await context.close();
  }, 240_000); // two background builds, and the demo mockups the first may wait for
});
