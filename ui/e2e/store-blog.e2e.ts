import { describe, expect, it } from 'vitest';
import { api, apiLogin } from './support/accounts';
import { canvasPng } from './support/images';
import { reloadUntil, sql, STORE_URL } from './support/shop';
import { DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

/** A 1200x630 cover, drawn by the browser: a warm gradient with a stripe. */
const paintCover = () => {
  const canvas = new OffscreenCanvas(1200, 630);
  const ctx = canvas.getContext('2d')!;
  const g = ctx.createLinearGradient(0, 0, 1200, 630);
  g.addColorStop(0, '#f4a259');
  g.addColorStop(1, '#bc4b51');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, 1200, 630);
  ctx.fillStyle = '#fff8';
  ctx.fillRect(0, 260, 1200, 110);
  return canvas;
};

describe('store pages and blog (docs/store-pages.md, docs/store-blog.md, docs/sitemap.md)', () => {
  const browser = suiteBrowser();

  it('the seller writes a page and a post, finds them in the sitemap, and a buyer reads them on the demo store', async () => {
    const stamp = Date.now().toString(36);
    const pageTitle = `Care guide ${stamp}`;
    const postTitle = `Autumn hoodies ${stamp}`;
    const category = `Care tips ${stamp}`;
    const storeId = Number(sql(`SELECT id FROM stores WHERE slug = 'demo'`));
    expect(storeId).toBeGreaterThan(0);

    const seller = await openPage(browser());
    const page = seller.page;
    await signIn(page, DEMO_SELLER);

    // A page, from All Stores → Store pages → New page, in the side column, written with the rich-text editor.
    await page.goto('/storefronts');
    await page.getByRole('link', { name: 'Store pages' }).click();
    await page.getByRole('heading', { name: 'Store Pages' }).waitFor();
    await page.getByRole('link', { name: 'New page' }).click();
    await page.getByRole('heading', { name: 'New page' }).waitFor();
    await page.getByRole('combobox', { name: 'Store' }).click();
    await page.getByRole('option', { name: "Sam's Print Shop" }).click();
    await page.getByLabel('Title').fill(pageTitle);
    expect(await page.getByLabel('Address').inputValue()).toBe(`care-guide-${stamp}`);
    await page.getByRole('combobox', { name: 'Menu', exact: true }).click();
    await page.getByRole('option', { name: 'Side column' }).click();
    const text = page.getByRole('textbox', { name: 'Text', exact: true });
    await text.click();
    await page.getByRole('button', { name: 'Heading 2' }).click();
    await page.keyboard.type('How to wash');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Wash cold and ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('inside out');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(', then hang to dry.');
    await page.getByText('This address is free.', { exact: false }).waitFor();
    await screenshot(page, 'store-page-edit');
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.getByText('The page was created.').waitFor();
    await page.getByRole('heading', { name: pageTitle }).waitFor();
    const pageId = Number(/\/storefronts\/pages\/edit\/(\d+)/.exec(page.url())?.[1]);
    expect(pageId).toBeGreaterThan(0);
    expect(sql(`SELECT body FROM store_pages WHERE id = :'a1'`, String(pageId))).toBe(
      '<h2>How to wash</h2><p>Wash cold and <strong>inside out</strong>, then hang to dry.</p>',
    );
    await page.goto(`/storefronts/pages?store=${storeId}`);
    const row = page.getByTestId('store-page').filter({ hasText: pageTitle });
    await row.waitFor();
    expect(await row.innerText()).toContain('Side column');
    await screenshot(page, 'store-pages-list');

    // A category, then a published post with a cover, from the store's blog.
    await page.goto(`/storefronts/${storeId}/blog`);
    await page.getByRole('heading', { name: "Blog of Sam's Print Shop" }).waitFor();
    await page.getByRole('link', { name: 'Categories' }).click();
    await page.getByRole('heading', { name: 'Blog Categories' }).waitFor();
    await page.getByRole('button', { name: 'New category' }).click();
    await page.getByLabel('Name').fill(category);
    await page.getByLabel('Description').fill('Keep your prints bright for years.');
    await page.getByRole('button', { name: 'Create category' }).click();
    await page.getByText('The category was created.').waitFor();
    await page.getByTestId('blog-category').filter({ hasText: category }).waitFor();
    await screenshot(page, 'store-blog-categories');

    await page.goto(`/storefronts/${storeId}/blog`);
    await page.getByRole('link', { name: 'New post' }).click();
    await page.getByRole('heading', { name: 'New post' }).waitFor();
    await page.getByLabel('Title').fill(postTitle);
    const cover = await canvasPng(page, paintCover, null);
    await page.locator('input[type="file"]').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: cover });
    await page.getByRole('img', { name: "The post's cover" }).waitFor({ timeout: 60_000 });
    await page.getByLabel('Excerpt').fill('Three hoodies for the first cold mornings.');
    const categories = page.getByRole('combobox', { name: 'Categories' });
    await categories.click();
    await page.getByRole('option', { name: category }).click();
    await categories.press('Escape'); // closes the dropdown
    await page.getByRole('textbox', { name: 'Text', exact: true }).click();
    await page.keyboard.type('The new hoodies are in: ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('heavy cotton');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(', printed when you order.');
    await page.getByText('Published', { exact: true }).click();
    await page.getByText('This address is free.', { exact: false }).waitFor();
    await screenshot(page, 'store-blog-post-edit');
    await page.getByRole('button', { name: 'Create post' }).click();
    await page.getByText('The post was created.').waitFor();
    await page.getByRole('heading', { name: postTitle }).waitFor();
    const postId = Number(/\/blog\/(\d+)\/edit/.exec(page.url())?.[1]);
    expect(postId).toBeGreaterThan(0);
    await page.goto(`/storefronts/${storeId}/blog`);
    const postRow = page.getByTestId('blog-post').filter({ hasText: postTitle });
    await postRow.waitFor();
    expect(await postRow.innerText()).toMatch(/Published/i); // a badge, upper-cased by its style
    expect(await postRow.innerText()).toContain(category);
    await screenshot(page, 'store-blog-list');

    // The sitemap names the blog: its section and, one click on, the post's address.
    await page.goto('/storefronts');
    await page.getByTestId('store').filter({ hasText: "Sam's Print Shop" }).getByRole('link', { name: 'Sitemap' }).click();
    await page.getByRole('heading', { name: "Sitemap of Sam's Print Shop" }).waitFor();
    const blogSection = page.getByTestId('sitemap-section').filter({ hasText: 'Blog posts' });
    await blogSection.waitFor();
    await screenshot(page, 'store-sitemap');
    await blogSection.getByRole('link').first().click();
    await page.getByRole('heading', { name: 'Blog posts' }).waitFor();
    await page.getByRole('link', { name: new RegExp(`/blog/autumn-hoodies-${stamp}$`) }).waitFor();
    await screenshot(page, 'store-sitemap-urls');

    // The buyer: the menu links the blog and, in the side column, the page.
    const buyer = await openPage(browser(), undefined, STORE_URL);
    const shop = buyer.page;
    const blogLink = shop.locator('header').getByRole('link', { name: 'Blog' });
    await reloadUntil(shop, '/s/demo/', async () => (await blogLink.count()) === 1 && (await shop.getByRole('link', { name: pageTitle }).count()) === 1);
    await screenshot(shop, 'store-blog-buyer-home');
    await shop.getByRole('complementary').getByRole('link', { name: pageTitle }).click();
    await shop.getByRole('heading', { name: pageTitle, level: 1 }).waitFor();
    expect(await shop.locator('article h2').innerText()).toBe('How to wash');
    expect(await shop.locator('article strong').innerText()).toBe('inside out');
    await screenshot(shop, 'store-page-buyer');

    await shop.locator('header').getByRole('link', { name: 'Blog' }).click();
    await shop.getByRole('heading', { name: 'Blog', level: 1 }).waitFor();
    const card = shop.locator('.posts a.card', { hasText: postTitle });
    await card.waitFor();
    expect(await card.innerText()).toContain('Three hoodies for the first cold mornings.');
    await shop.waitForFunction((title) => {
      const img = Array.from(document.querySelectorAll<HTMLAnchorElement>('.posts a.card')).find((a) => a.innerText.includes(title))?.querySelector('img');
      return img !== null && img !== undefined && img.complete && img.naturalWidth > 0;
    }, postTitle);
    await screenshot(shop, 'store-blog-buyer');
    await card.click();
    await shop.getByRole('heading', { name: postTitle, level: 1 }).waitFor();
    expect(await shop.locator('article strong').innerText()).toBe('heavy cotton');
    expect(await shop.locator('meta[property="og:type"]').getAttribute('content')).toBe('article');
    expect(await shop.locator('meta[property="og:image"]').getAttribute('content')).toContain(`/img/post/${postId}?v=`);
    await shop.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('img.cover');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    await screenshot(shop, 'store-blog-post-buyer');
    await shop.getByRole('list', { name: 'Categories' }).getByRole('link', { name: category }).click();
    await shop.getByRole('heading', { name: category, level: 1 }).waitFor();
    expect(await shop.getByText('Keep your prints bright for years.').count()).toBe(1);

    const index = await (await fetch(`${STORE_URL}/s/demo/sitemap.xml`)).text();
    expect(index).toContain('/sitemaps/blog-1.xml</loc>');
    const blogMap = await (await fetch(`${STORE_URL}/s/demo/sitemaps/blog-1.xml`)).text();
    expect(blogMap).toContain(`/blog/autumn-hoodies-${stamp}</loc>`);
    await buyer.context.close();
    await seller.context.close();

    // The demo store goes back to how the other suites expect it.
    const token = await apiLogin(DEMO_SELLER);
    expect((await api('DELETE', `/seller/blog/posts/${postId}`, token)).status).toBe(200);
    expect((await api('DELETE', `/seller/store-pages/${pageId}`, token)).status).toBe(200);
    sql(`DELETE FROM blog_categories WHERE name = :'a1'`, category);
  }, 300_000);
});
