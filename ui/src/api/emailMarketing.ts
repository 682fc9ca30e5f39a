import { newIdempotencyKey, type ApiClient } from './ApiClient';
import type { Envelope, Page } from './envelope';

/** One of the account's stores, as the email screens pick it. */
export interface EmailStore {
  id: number;
  name: string;
  domain: string;
}

/** Klaviyo provider settings; `private_key` is only ever the masked key. */
export interface KlaviyoSettings {
  store_id: number;
  private_key: string;
  list_id: string;
  connected: boolean;
  updated_at: string | null;
}

export type SyncStatus = 'queued' | 'running' | 'done' | 'failed';

/** A profile sync run and its progress. */
export interface SyncRun {
  id: number;
  store_id: number;
  status: SyncStatus;
  total: number;
  done: number;
  error: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** A store domain senders can send from. */
export interface StoreDomain {
  id: number;
  store_id: number;
  domain: string;
  verified_at: string | null;
}

/** An email sender with the address it makes. */
export interface Sender {
  id: number;
  store_domain_id: number;
  username: string;
  name: string;
  domain: string;
  email: string;
  created_at: string;
}

/** The verification state of a sender's domain. */
export interface SenderStatus {
  id: number;
  email: string;
  domain: string;
  verified: boolean;
  status: 'verified' | 'pending';
  verified_at: string | null;
}

export interface Subscriber {
  id: number;
  store_id: number;
  email: string;
  first_name: string;
  last_name: string;
  status: 'subscribed' | 'unsubscribed';
  source: string;
  created_at: string;
}

export interface ImportResult {
  imported: number;
  updated: number;
  skipped: number;
  problems: string[];
}

/** A call's success message and data. */
async function withMessage<T>(
  api: ApiClient,
  method: string,
  path: string,
  body?: unknown,
  idempotencyKey?: string,
): Promise<{ message: string; data: T }> {
  const { message, data } = await api.send<Envelope<T>>(method, path, { body, idempotencyKey });
  return { message, data };
}

const klaviyoPath = (storeId: number) => `/seller/store/${storeId}/email-marketing-klaviyo`;

export const emailStores = (api: ApiClient, signal?: AbortSignal) =>
  api.get<EmailStore[]>('/seller/email-marketing/stores', { signal });
export const klaviyoSettings = (api: ApiClient, storeId: number, signal?: AbortSignal) =>
  api.get<KlaviyoSettings>(klaviyoPath(storeId), { signal });
export const saveKlaviyoSettings = (api: ApiClient, storeId: number, body: { private_key: string; list_id: string }) =>
  withMessage<KlaviyoSettings>(api, 'PUT', klaviyoPath(storeId), body);
export const startProfileSync = (api: ApiClient, storeId: number) =>
  withMessage<SyncRun>(api, 'POST', `${klaviyoPath(storeId)}/sync-profiles`, {});
export const latestProfileSync = (api: ApiClient, storeId: number, signal?: AbortSignal) =>
  api.get<SyncRun | null>(`${klaviyoPath(storeId)}/sync-profiles`, { signal });

export const storeDomains = (api: ApiClient, signal?: AbortSignal) =>
  api.get<StoreDomain[]>('/seller/email-marketing/domains', { signal });
export const senders = (api: ApiClient, page: number, signal?: AbortSignal) =>
  api.getPage<Sender>('/seller/email-marketing/senders', { query: { page, per_page: 15 }, signal });
export const createSender = (api: ApiClient, body: { store_domain_id: number; username: string; name: string }) =>
  withMessage<Sender>(api, 'POST', '/seller/email-marketing/senders', body, newIdempotencyKey());
export const updateSender = (api: ApiClient, id: number, body: { username: string; name: string }) =>
  withMessage<Sender>(api, 'PATCH', `/seller/email-marketing/senders/${id}`, body);
export const deleteSender = (api: ApiClient, id: number) =>
  withMessage<null>(api, 'DELETE', `/seller/email-marketing/senders/${id}`);
export const senderStatus = (api: ApiClient, id: number, signal?: AbortSignal) =>
  api.get<SenderStatus>(`/seller/email-marketing/senders/${id}/status`, { signal });

export const subscribers = (api: ApiClient, query: { q: string; page: number }, signal?: AbortSignal): Promise<Page<Subscriber>> =>
  api.getPage<Subscriber>('/seller/email-marketing/subscribers', { query: { ...query, per_page: 15 }, signal });
export const importSubscribers = (api: ApiClient, storeId: number, csv: string) =>
  withMessage<ImportResult>(api, 'POST', '/seller/email-marketing/subscribers/import', { store_id: storeId, csv }, newIdempotencyKey());
export const unsubscribe = (api: ApiClient, id: number) =>
  withMessage<Subscriber>(api, 'POST', `/seller/email-marketing/subscribers/${id}/unsubscribe`, {});

export type CampaignStatus = 'draft' | 'scheduled' | 'sending' | 'sent' | 'failed';

/** An e-mail campaign of a store with its send's progress. */
export interface EmailCampaign {
  id: number;
  store_id: number;
  store_name: string;
  sender_id: number | null;
  sender_email: string;
  name: string;
  subject: string;
  preheader: string;
  body_html: string;
  status: CampaignStatus;
  scheduled_at: string | null;
  recipients: number;
  sent: number;
  failed: number;
  error: string;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** A value of the recipient a campaign may name as {{name}} (or {{name|fallback}}). */
export interface MergeField {
  name: string;
  /** What the field holds. */
  label: string;
  /** What a preview and a test send show in its place. */
  sample: string;
}

/** A draft's subject and body as a recipient reads them, the merge fields filled with their samples. */
export interface CampaignPreview {
  subject: string;
  body_html: string;
}

/** What the campaign form saves; the store is fixed once the campaign exists. */
export interface CampaignInput {
  store_id?: number;
  sender_id: number;
  name: string;
  subject: string;
  preheader: string;
  body_html: string;
}

/** One of a store's abandoned-checkout e-mails 1 to 3. */
export interface AbandonedEmail {
  step: number;
  enabled: boolean;
  delay_minutes: number;
  subject: string;
  body_html: string;
}

export interface AbandonedSettings {
  store_id: number;
  coupon_code: string;
  emails: AbandonedEmail[];
}

export interface DiscountCode {
  id: number;
  code: string;
  kind: 'free' | 'discount_with_percent';
  percent: number;
}

const campaignsPath = '/seller/email-marketing/campaigns';

export const campaigns = (
  api: ApiClient,
  query: { q: string; status: string; page: number },
  signal?: AbortSignal,
): Promise<Page<EmailCampaign>> => api.getPage<EmailCampaign>(campaignsPath, { query: { ...query, per_page: 15 }, signal });
export const mergeFields = (api: ApiClient, signal?: AbortSignal) =>
  api.get<MergeField[]>('/seller/email-marketing/merge-fields', { signal });
/** The preview of an unsaved subject and body; unknown merge fields are refused (422) as at save. */
export const previewCampaign = (api: ApiClient, body: CampaignPreview, signal?: AbortSignal) =>
  api.send<Envelope<CampaignPreview>>('POST', `${campaignsPath}/preview`, { body, signal }).then((answer) => answer.data);
export const campaign = (api: ApiClient, id: number, signal?: AbortSignal) =>
  api.get<EmailCampaign>(`${campaignsPath}/${id}`, { signal });
export const createCampaign = (api: ApiClient, body: CampaignInput) =>
  withMessage<EmailCampaign>(api, 'POST', campaignsPath, body, newIdempotencyKey());
export const updateCampaign = (api: ApiClient, id: number, body: CampaignInput) =>
  withMessage<EmailCampaign>(api, 'PUT', `${campaignsPath}/${id}`, body);
export const deleteCampaign = (api: ApiClient, id: number) => withMessage<null>(api, 'DELETE', `${campaignsPath}/${id}`);
export const sendTestCampaign = (api: ApiClient, id: number, email: string) =>
  withMessage<{ email: string }>(api, 'POST', `${campaignsPath}/${id}/test`, { email });
export const sendCampaign = (api: ApiClient, id: number) =>
  withMessage<EmailCampaign>(api, 'POST', `${campaignsPath}/${id}/send`, {});

const abandonedPath = (storeId: number) => `/seller/store/${storeId}/email-marketing-abandoned`;

export const abandonedSettings = (api: ApiClient, storeId: number, signal?: AbortSignal) =>
  api.get<AbandonedSettings>(abandonedPath(storeId), { signal });
export const saveAbandonedEmails = (api: ApiClient, storeId: number, emails: AbandonedEmail[]) =>
  withMessage<AbandonedSettings>(api, 'PUT', abandonedPath(storeId), { emails });
export const discountCodes = (api: ApiClient, storeId: number, q: string, signal?: AbortSignal) =>
  api.get<DiscountCode[]>(`/seller/store/${storeId}/discount_code`, { query: { q }, signal });
export const saveAbandonedDiscount = (api: ApiClient, storeId: number, coupon: string) =>
  withMessage<{ store_id: number; config: { coupon: string } }>(api, 'PUT', '/seller/abandoned_discount', {
    store_id: storeId,
    config: { coupon },
  });
