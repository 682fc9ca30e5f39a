import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { POPUP_HIDDEN_AT_KEY } from '../../src/notifications/popupRules';

/** The running stack (bff serving ui/dist); scripts/test sets it to the throw-away stack's address. */
export const BASE_URL = (process.env.PRESSROOM_E2E_BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');

/** The system Chromium (Debian's package); browsers are never downloaded. */
export const CHROMIUM_PATH = process.env.PRESSROOM_CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--hide-scrollbars',
];

export const VIEWPORT = { width: 1366, height: 860 };
export const PHONE_VIEWPORT = { width: 390, height: 844 };

const screenshotDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');

/** Demo logins of the dev seed (DESIGN.md). */
export const DEMO_PASSWORD = 'pressroom-demo';
export const DEMO_SELLER = 'seller@example.com';
export const TOKEN_COOKIE = 'auth._token.local';

/** Fails fast, with the address, when no stack answers. */
export async function assertStackIsUp(): Promise<void> {
  try {
    const response = await fetch(`${BASE_URL}/healthz`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`answered ${response.status}`);
  } catch (error) {
    throw new Error(
      `No Pressroom stack at ${BASE_URL} (${String(error)}); start one with scripts/dev or set PRESSROOM_E2E_BASE_URL.`,
      { cause: error },
    );
  }
}

/**
 * Launches the system Chromium headless; playwright gives it a fresh temporary profile. extraArgs are added
 * to the usual switches (e.g. --host-resolver-rules to send a made-up domain to loopback).
 */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs], headless: true });
}

/**
 * A fresh browser context (no cookies, no storage) on the stack, with a desktop viewport unless told,
 * at BASE_URL or at `origin` (the same stack under another host name).
 *
 * The dashboard's new-notifications popup is kept away (its one-day hide flag is set) unless `notificationPopup`
 * is true: the suites share one stack, so any earlier file's orders and notifications would otherwise open a modal
 * over whatever a later file clicks. notifications.e2e.ts is the popup's own test.
 */
export async function openPage(
  browser: Browser,
  viewport: { width: number; height: number } = VIEWPORT,
  origin: string = BASE_URL,
  { notificationPopup = false }: { notificationPopup?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: origin, viewport, locale: 'en-US' });
  if (!notificationPopup) {
    await context.addInitScript(
      ({ key, dashboard }) => {
        if (window.location.origin === dashboard) window.localStorage.setItem(key, String(Date.now()));
      },
      { key: POPUP_HIDDEN_AT_KEY, dashboard: new URL(BASE_URL).origin },
    );
  }
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/**
 * Saves a full-page screenshot to e2e/screenshots/<name>.png for a human to look at (transitions finished). The page is
 * scrolled to the top first: Chromium draws the fixed header and menu where the scrolled viewport had them, across the
 * middle of a full-page picture.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(screenshotDir, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/** The path and query of the page, e.g. "/auth/login?redirect=%2Forders". */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/** Fills and submits the login form of the current page. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The session token cookie, if the browser holds one. */
export async function tokenCookie(context: BrowserContext): Promise<string | undefined> {
  const cookies = await context.cookies(BASE_URL);
  return cookies.find((cookie) => cookie.name === TOKEN_COOKIE)?.value;
}

/** Waits until the dashboard shows the signed-in user's e-mail. */
export async function waitForDashboard(page: Page, email: string): Promise<void> {
  await page.getByTestId('user-email').filter({ hasText: email }).waitFor();
}

/** Signs in through the login page (the demo password unless told) and waits for the dashboard. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/auth/login');
  await submitLogin(page, email, password);
  await waitForDashboard(page, email);
}

/**
 * The suite's browser. Called inside a `describe`, it checks that the stack answers and launches the
 * system Chromium before the suite's first test and closes it after the last; the returned function
 * gives the running browser to the tests.
 */
export function suiteBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    await assertStackIsUp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('The suite browser is not running: call suiteBrowser() inside a describe.');
    return browser;
  };
}
