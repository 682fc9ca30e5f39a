import type { ApiClient } from './ApiClient';
import type { AccessToken } from './auth';
import type { Envelope, Page } from './envelope';
import { ApiError } from './ApiError';

/** Registration (/auth/register): the new seller is signed in at once. */
export interface Registration {
  name: string;
  email: string;
  password: string;
  password_confirmation: string;
}

export function register(api: ApiClient, body: Registration): Promise<AccessToken> {
  return api.post<AccessToken>('/auth/register', body);
}

/** The answer's message, shown as a toast. */
async function messageOf(api: ApiClient, path: string, body?: unknown): Promise<string> {
  const envelope = await api.send<Envelope<unknown>>('POST', path, { body });
  return envelope.message;
}

export function forgotPassword(api: ApiClient, email: string): Promise<string> {
  return messageOf(api, '/auth/forgot-password', { email });
}

export interface PasswordReset {
  token: string;
  password: string;
  password_confirmation: string;
}

export function resetPassword(api: ApiClient, body: PasswordReset): Promise<string> {
  return messageOf(api, '/auth/reset-password', body);
}

export function verifyEmail(api: ApiClient, token: string): Promise<string> {
  return messageOf(api, '/auth/verify-email', { token });
}

export function resendVerification(api: ApiClient): Promise<string> {
  return messageOf(api, '/auth/verify-email/resend');
}

export interface PasswordChange {
  current_password: string;
  password: string;
  password_confirmation: string;
}

export function changePassword(api: ApiClient, body: PasswordChange): Promise<string> {
  return messageOf(api, '/auth/change-password', body);
}

/** A change of address: the new one gets a confirmation link; it changes when the link is opened. */
export interface EmailChange {
  email: string;
  current_password: string;
}

export function changeEmail(api: ApiClient, body: EmailChange): Promise<string> {
  return messageOf(api, '/auth/change-email', body);
}

/** Two-factor enrolment: the secret, its otpauth:// address and a QR code as a data: URL. */
export interface TfaSetup {
  secret: string;
  otpauth_url: string;
  qr_code: string;
}

/** Starts enrolment; every two-factor change needs the current password. */
export function tfaSetup(api: ApiClient, currentPassword: string): Promise<TfaSetup> {
  return api.post<TfaSetup>('/auth/tfa/setup', { current_password: currentPassword });
}

export function tfaEnable(api: ApiClient, code: string, currentPassword: string): Promise<{ recovery_codes: string[] }> {
  return api.post<{ recovery_codes: string[] }>('/auth/tfa/enable', { code, current_password: currentPassword });
}

export function tfaDisable(api: ApiClient, code: string, currentPassword: string): Promise<string> {
  return messageOf(api, '/auth/tfa/disable', { code, current_password: currentPassword });
}

/** Settles a session that owes a second factor: a TOTP code or a recovery code. */
export function tfaVerify(api: ApiClient, factor: { code: string } | { recovery_code: string }): Promise<string> {
  return messageOf(api, '/auth/tfa/verify', factor);
}

/** A seller account the user may switch into. */
export interface AuthorizedAccount {
  seller_id: number;
  name: string;
  avatar: string | null;
  role: string;
}

export function authorizedAccounts(api: ApiClient, signal?: AbortSignal): Promise<AuthorizedAccount[]> {
  return api.get<AuthorizedAccount[]>('/seller/authorized-accounts', { signal });
}

/** A refused switch whose target needs two-factor the member lacks (customPayload.fta_diff). */
export class TfaDiffError extends ApiError {
  constructor(status: number, message: string) {
    super(status, message);
    this.name = 'TfaDiffError';
  }
}

interface SwitchAnswer extends Envelope<AccessToken> {
  customPayload?: { fta_diff?: boolean };
}

/** Switches into a seller's account: answers the message and the new token. */
export async function switchAccount(api: ApiClient, sellerId: number): Promise<{ message: string; token: string }> {
  try {
    const answer = await api.send<SwitchAnswer>('POST', '/seller/switch-account', { body: { seller_id: sellerId } });
    if (answer.customPayload?.fta_diff) throw new TfaDiffError(403, answer.message);
    return { message: answer.message, token: answer.data.access_token };
  } catch (error) {
    if (error instanceof ApiError && (error.body as SwitchAnswer | undefined)?.customPayload?.fta_diff) {
      throw new TfaDiffError(error.status, error.message);
    }
    throw error;
  }
}

export async function switchBack(api: ApiClient): Promise<{ message: string; token: string }> {
  const answer = await api.send<Envelope<AccessToken>>('POST', '/seller/switch-back-account');
  return { message: answer.message, token: answer.data.access_token };
}

/** A one-time code that carries the session to another dashboard host (the seller centre). */
export function handoffCode(api: ApiClient): Promise<{ code: string; expires_in: number }> {
  return api.post<{ code: string; expires_in: number }>('/auth/handoff');
}

/** Exchanges a one-time hand-off code for a session of this host. */
export function exchangeHandoff(api: ApiClient, code: string): Promise<AccessToken> {
  return api.post<AccessToken>('/auth/handoff/exchange', { code });
}

/** An impersonating admin goes back to their own account: the impersonation ends, a session of the admin's own starts. */
export async function backToAdmin(api: ApiClient): Promise<{ message: string; token: string }> {
  const answer = await api.send<Envelope<AccessToken>>('POST', '/admin/back-to-admin');
  return { message: answer.message, token: answer.data.access_token };
}

/** An admin signs in as a seller (impersonation). */
export function loginAsSeller(api: ApiClient, email: string): Promise<AccessToken> {
  return api.post<AccessToken>('/admin/login-as-seller', { email });
}

/** One message of the local mail outbox (no SMTP server configured). */
export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  body: string;
  created_at: string;
}

export function outboxMail(api: ApiClient, query: { q?: string; page?: number }, signal?: AbortSignal): Promise<Page<OutboxMail>> {
  return api.getPage<OutboxMail>('/admin/system/mail', { query, signal });
}

/** The general settings a seller changes: the time zone every date is shown in and the display currency. */
export interface GeneralSettings {
  timezone: string;
  currency: string;
}

/** Saves the general settings (`PUT /api/settings/general`); answers the confirmation message. */
export async function saveGeneralSettings(api: ApiClient, settings: GeneralSettings): Promise<string> {
  const envelope = await api.send<Envelope<unknown>>('PUT', '/settings/general', { body: settings });
  return envelope.message;
}
