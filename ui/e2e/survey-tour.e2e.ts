import type { Page, Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, DEMO_ADMIN, NEW_ACCOUNT_PASSWORD, verifiedAccount } from './support/accounts';
import { BASE_URL, DEMO_PASSWORD, DEMO_SELLER, openPage, screenshot, signIn, submitLogin, suiteBrowser, waitForDashboard } from './support/stack';

const PASSWORD = NEW_ACCOUNT_PASSWORD;

/** Matches the POST to `path`, for waiting on its response. */
const pathIs = (path: string) => (r: Response) => new URL(r.url()).pathname === path && r.request().method() === 'POST';

interface SurveyAnswer {
  success: boolean;
  message: string;
  data: { tier: number; upgraded: boolean } | null;
  errors: { field?: string; message: string }[];
}

async function saveSurvey(page: Page): Promise<SurveyAnswer> {
  const [answer] = await Promise.all([
    page.waitForResponse(pathIs('/api/seller/survey')),
    page.getByRole('dialog', { name: 'Seller Survey' }).getByRole('button', { name: 'Save' }).click(),
  ]);
  return (await answer.json()) as SurveyAnswer;
}

describe('seller survey, guided tour, featured info and tracking', () => {
  const browser = suiteBrowser();
  let adminToken = '';

  beforeAll(async () => {
    adminToken = await apiLogin(DEMO_ADMIN, DEMO_PASSWORD, 'admin');
  });

  it('validates the survey, upgrades the new seller to Tier 2, then runs the tour until "Skip tutorial"', async () => {
    const email = await verifiedAccount('survey', adminToken, 'Nova Seller');
    const { context, page } = await openPage(browser());
    await signIn(page, email, PASSWORD);

    const survey = page.getByRole('dialog', { name: 'Seller Survey' });
    await survey.waitFor();
    // The tour waits for the survey.
    expect(await page.getByTestId('product-tour').count()).toBe(0);
    await survey.getByRole('combobox', { name: 'How many items do you sell a month?' }).click();
    await page.getByRole('option', { name: '150 - 300' }).click();
    await survey.getByLabel('Facebook').fill('https://example.com/nova');
    await survey.getByLabel(/^Phone/).fill('call me');
    await survey.getByRole('button', { name: 'Save' }).click();
    await survey.getByText('Please enter a valid Facebook URL!').waitFor();
    await screenshot(page, 'survey-facebook-rule');

    // The browser lets "call me" through; the bff refuses it with a field error.
    await survey.getByLabel('Facebook').fill('https://www.facebook.com/nova.prints');
    const refused = await saveSurvey(page);
    expect(refused).toMatchObject({ success: false, message: 'Cannot save your information.', errors: [{ field: 'phone', message: 'The phone must be a valid phone number.' }] });
    await survey.getByText('The phone must be a valid phone number.').waitFor();
    await page.getByText('Cannot save your information.').waitFor();
    await screenshot(page, 'survey-server-error');

    await survey.getByLabel(/^Phone/).fill('+1 555 010 2222');
    const saved = await saveSurvey(page);
    expect(saved).toMatchObject({ success: true, message: 'Your information has been saved.', data: { tier: 2, upgraded: true } });
    await page.getByText('Your information has been saved.').waitFor();
    await survey.waitFor({ state: 'detached' });
    const me = await api<{ sale_volume: string; phone: string; facebook: string }>('GET', '/me', await apiLogin(email, PASSWORD));
    expect(me.body.data).toMatchObject({ sale_volume: '150 - 300', phone: '+1 555 010 2222', facebook: 'https://www.facebook.com/nova.prints' });

    // The survey is closed and the getting-started panel is shown: the tour starts at "greeting".
    const tour = page.getByTestId('product-tour');
    await page.getByTestId('getting-started').waitFor();
    await tour.and(page.locator('[data-step="greeting"]')).waitFor();
    await screenshot(page, 'tour-greeting');
    await tour.getByRole('button', { name: 'Next' }).click();
    await tour.and(page.locator('[data-step="store"]')).waitFor();
    await tour.getByRole('button', { name: 'Next' }).click();
    await tour.and(page.locator('[data-step="campaign-1"]')).waitFor();
    await tour.getByText('Step 1 of 8').waitFor();
    await screenshot(page, 'tour-campaign-step');
    await tour.getByRole('button', { name: 'Skip tutorial' }).click();
    await tour.waitFor({ state: 'detached' });
    expect((await context.cookies(BASE_URL)).find((c) => c.name === 'disable_product_tour')?.value).toBe('1');

    // Gone for good: after a reload the panel is there and the tour is not.
    await page.reload();
    await waitForDashboard(page, email);
    await page.getByTestId('getting-started').waitFor();
    expect(await page.getByTestId('product-tour').count()).toBe(0);
    expect(await page.getByRole('dialog', { name: 'Seller Survey' }).count()).toBe(0);
    await screenshot(page, 'tour-skipped');
    await context.close();
  });

  it('shows the featured articles as a carousel that advances and opens an article in a modal', async () => {
    const { context, page } = await openPage(browser());
    const [featured] = await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/api/public/featured-info'), signIn(page, DEMO_SELLER)]);
    const articles = ((await featured.json()) as { data: { id: number; subject: string; link: string }[] }).data;
    expect(articles.length).toBeGreaterThanOrEqual(2);
    const carousel = page.getByTestId('featured-carousel');
    const slide = carousel.getByTestId('featured-slide');
    expect((await carousel.boundingBox())!.width).toBeLessThanOrEqual(500);
    await slide.and(page.locator(`[data-article="${articles[0]!.id}"]`)).waitFor();
    await screenshot(page, 'featured-carousel');
    // It advances by itself to the next article.
    await slide.and(page.locator(`[data-article="${articles[1]!.id}"]`)).waitFor();

    const inModal = articles.find((a) => !a.link)!;
    await carousel.getByRole('tab', { name: inModal.subject }).click();
    await slide.and(page.locator(`[data-article="${inModal.id}"]`)).click();
    const modal = page.getByRole('dialog', { name: inModal.subject });
    await modal.getByTestId('featured-article').waitFor();
    await screenshot(page, 'featured-article');
    await context.close();
  });

  it('records one click and one submit for a utm_campaign visit, then forgets cs_track', async () => {
    const campaign = `spring-${Date.now().toString(36)}`;
    const { context, page } = await openPage(browser());
    // Every tracking call, recorded as it is sent (synchronously), with its answer to read later.
    const tracked: { path: string; answer: Promise<Response | null> }[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.endsWith('/utm-campaign/track')) tracked.push({ path, answer: r.response() });
    });
    const answers = () =>
      Promise.all(tracked.map(async ({ path, answer }) => ({ path, body: (await (await answer)?.json()) as unknown })));

    // Signed out: the guard sends the visitor to the login page, and cs_track keeps the campaign.
    await page.goto(`/?utm_campaign=${campaign}&utm_source=newsletter`);
    await page.waitForURL(`${BASE_URL}/auth/login`);
    const kept = (await context.cookies(BASE_URL)).find((c) => c.name === 'cs_track');
    expect(JSON.parse(decodeURIComponent(kept!.value))).toEqual({ utm_campaign: campaign, utm_source: 'newsletter' });

    await Promise.all([page.waitForResponse(pathIs('/api/seller/utm-campaign/track')), submitLogin(page, DEMO_SELLER, DEMO_PASSWORD)]);
    await waitForDashboard(page, DEMO_SELLER);
    await expect.poll(() => tracked.length).toBe(2);
    expect(await answers()).toEqual([
      { path: '/api/utm-campaign/track', body: expect.objectContaining({ data: { success: true, recorded: true } }) as unknown },
      { path: '/api/seller/utm-campaign/track', body: expect.objectContaining({ data: { success: true, recorded: true } }) as unknown },
    ]);
    await expect.poll(async () => (await context.cookies(BASE_URL)).find((c) => c.name === 'cs_track')).toBeUndefined();
    const names = Object.fromEntries((await context.cookies(BASE_URL)).map((c) => [c.name, decodeURIComponent(c.value)]));
    expect(JSON.parse(names.clickedCampaigns!)).toContain(campaign);
    expect(JSON.parse(names.submittedCampaigns!)).toContain(campaign);

    // Visiting again with the same campaign sends nothing more: it was clicked and submitted. The
    // guard writes cs_track before the page renders and the tracker drops it once it has looked, so
    // the count is taken after the page is up and cs_track is gone again.
    await page.goto(`/orders?utm_campaign=${campaign}`);
    await page.getByRole('heading', { level: 1, name: 'All Orders' }).waitFor();
    await expect.poll(async () => (await context.cookies(BASE_URL)).find((c) => c.name === 'cs_track')).toBeUndefined();
    expect(tracked).toHaveLength(2);
    await page.goto('/');
    await waitForDashboard(page, DEMO_SELLER);
    // The bff holds the one submit: the same submit again is not recorded twice.
    const again = await api<{ recorded: boolean }>('POST', '/seller/utm-campaign/track', await apiLogin(DEMO_SELLER), { utm_campaign: campaign });
    expect(again.body.data).toEqual({ success: true, recorded: false });
    await screenshot(page, 'utm-tracked');
    await context.close();
  });
});
