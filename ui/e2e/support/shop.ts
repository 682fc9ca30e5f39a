import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';

/** The storefront scripts/test started (PRESSROOM_E2E_STORE_URL), by default the one scripts/dev runs. */
export const STORE_URL = (process.env.PRESSROOM_E2E_STORE_URL ?? 'http://127.0.0.1:8082').replace(/\/+$/, '');

/** The demo shop's T-shirt (bff/seed BulkTemplateName): the campaign the shop tests buy. */
export const DEMO_SHIRT = 'Bulk template — T-shirt';

/**
 * Opens the demo shop's T-shirt (on a page opened at STORE_URL), by its name: other files publish campaigns of their
 * own to the demo shop, which come first on its home page.
 */
export async function openDemoShirt(page: Page, base = '/s/demo/'): Promise<void> {
  await page.goto(base);
  await page.locator('a.card', { hasText: DEMO_SHIRT }).first().click();
  await page.getByRole('button', { name: 'Add to cart' }).waitFor();
}

/**
 * Buys the demo shop's T-shirt as `email` with the test gateway, shipping to Berlin, and answers the order number.
 */
export async function buy(page: Page, email: string, name: string): Promise<string> {
  await openDemoShirt(page);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.getByRole('button', { name: 'Check out' }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Address', { exact: true }).fill('1 Market St');
  await page.getByLabel('City').fill('Berlin');
  await page.getByLabel('Country').selectOption('DE');
  await page.getByLabel('Postal code').fill('10115');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.getByRole('button', { name: /^Pay / }).click();
  const thanks = page.getByRole('heading', { name: /Thank you! Order \d+ is confirmed\./ });
  await thanks.waitFor();
  return /Order (\d+)/.exec(await thanks.innerText())?.[1] ?? '';
}

/**
 * Runs SQL on the e2e stack's database (psql, with `:'a1'`… for the arguments) and answers its unaligned output: the
 * setup and checks a browser cannot reach.
 */
export function sql(query: string, ...args: string[]): string {
  const url = process.env.PRESSROOM_DATABASE_URL;
  if (!url) throw new Error('PRESSROOM_DATABASE_URL is not set: run through scripts/test e2e');
  const vars = args.flatMap((a, i) => ['-v', `a${i + 1}=${a}`]);
  return execFileSync('psql', [url, '-tA', '-v', 'ON_ERROR_STOP=1', ...vars], { input: query, stdio: ['pipe', 'pipe', 'pipe'] })
    .toString()
    .trim();
}

/** The id of order `number` that `email` placed (buy), for its pages: /orders/detail/{id}. */
export function orderIdOf(email: string, number: string): number {
  const id = Number(sql(`SELECT id FROM orders WHERE email = :'a1' AND number = :'a2';`, email, number));
  if (!Number.isInteger(id) || id <= 0) throw new Error(`no order ${number} of ${email}`);
  return id;
}

/**
 * Loads `path` until `ready` finds what it waits for (up to 20 s): the storefront keeps a rendered page for
 * PRESSROOM_STOREFRONT_PAGE_CACHE, so a seller's change shows after it.
 */
export async function reloadUntil(page: Page, path: string, ready: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.goto(path);
    if (await ready()) return;
    await page.waitForTimeout(500);
  }
  throw new Error(`${path} never showed the change`);
}
