import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { BASE_URL, DEMO_PASSWORD, submitLogin, waitForDashboard } from './stack';

/** Demo accounts of the dev seed besides the seller (DESIGN.md; bff/seed). */
export const DEMO_ADMIN = 'admin@example.com';
export const DEMO_TEAM = 'team@example.com';
/** A team member of the seller holding get_campaigns only (no get_orders). */
export const DEMO_SUPPORT = 'support@example.com';

interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

/** Calls the bff directly (no browser), for set-up and for checking what the server says. */
export async function api<T>(method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: Envelope<T> }> {
  const response = await fetch(`${BASE_URL}/api${path}`, {
    method,
    headers: {
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Envelope<T> };
}

/** Signs in through the API and returns the token. */
export async function apiLogin(email: string, password = DEMO_PASSWORD, variant: 'seller' | 'admin' = 'seller'): Promise<string> {
  const answer = await api<{ access_token: string }>('POST', `/auth/${variant}/login`, undefined, { email, password });
  if (answer.status !== 200) throw new Error(`login ${email}: ${answer.status} ${answer.body.message}`);
  return answer.body.data.access_token;
}

/** A unique address for an account a test registers. */
export function freshEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}@example.com`;
}

export interface OutboxMail {
  to: string;
  subject: string;
  body: string;
}

/** The local mail outbox as the admin reads it at /system/mail, newest first, filtered by q. */
export async function outbox(adminToken: string, q: string): Promise<{ total: number; data: OutboxMail[] }> {
  const answer = await fetch(`${BASE_URL}/api/admin/system/mail?per_page=100&q=${encodeURIComponent(q)}`, {
    headers: { Authorization: `Bearer ${adminToken}` },
  });
  return (await answer.json()) as { total: number; data: OutboxMail[] };
}

/** The password of the accounts the e2e tests register. */
export const NEW_ACCOUNT_PASSWORD = 'a-long-enough-password';

/** Registers a seller and verifies its address through the API, for tests about what comes after; returns its e-mail. */
export async function verifiedAccount(prefix: string, adminToken: string, name = 'Eve Example'): Promise<string> {
  const email = freshEmail(prefix);
  const password = NEW_ACCOUNT_PASSWORD;
  const answer = await api('POST', '/auth/register', undefined, { name, email, password, password_confirmation: password });
  if (answer.status !== 200) throw new Error(`register ${email}: ${answer.status} ${answer.body.message}`);
  const link = new URL(await outboxLink(adminToken, email, '/auth/verify-email'), BASE_URL);
  const verified = await api('POST', '/auth/verify-email', undefined, { token: link.searchParams.get('token') });
  if (verified.status !== 200) throw new Error(`verify ${email}: ${verified.status} ${verified.body.message}`);
  return email;
}

/** The path and query of the newest link the outbox holds for `to`, read through the admin API. */
export async function outboxLink(adminToken: string, to: string, page: string): Promise<string> {
  const list = await outbox(adminToken, to);
  const mail = list.data.find((m) => m.to === to && m.body.includes(page));
  const match = mail?.body.match(/https?:\/\/\S+/);
  if (!match) throw new Error(`no ${page} mail for ${to}`);
  const url = new URL(match[0]);
  return `${url.pathname}${url.search}`;
}

function base32Decode(input: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of input.replace(/=+$/, '').toUpperCase()) {
    const v = alphabet.indexOf(ch);
    if (v < 0) throw new Error(`not base32: ${ch}`);
    bits += v.toString(2).padStart(5, '0');
  }
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The RFC 6238 code (SHA-1, 6 digits, 30-second steps) of `secret` at `at`. */
export function totp(secret: string, at: number = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return value.toString().padStart(6, '0');
}

/** Signs a team member in and closes the select-account modal a team member is shown after login. */
export async function signInTeamMember(page: Page, email: string): Promise<void> {
  await page.goto('/auth/login');
  await submitLogin(page, email, DEMO_PASSWORD);
  const modal = page.getByRole('dialog', { name: 'Select account' });
  await modal.waitFor();
  await page.keyboard.press('Escape');
  await modal.waitFor({ state: 'hidden' });
  await waitForDashboard(page, email);
}
