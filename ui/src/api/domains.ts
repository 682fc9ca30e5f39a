import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';

/** Where a domain stands: never checked (or no answer yet), proven, or the last check found no proof. */
export type DomainStatus = 'pending' | 'verified' | 'failed';

/** A store's custom domain (bff/domains) with the DNS TXT record that proves it. */
export interface CustomDomain {
  id: number;
  store_id: number;
  store_name: string;
  domain: string;
  status: DomainStatus;
  check_error: string;
  checked_at: string | null;
  verified_at: string | null;
  created_at: string;
  record_name: string;
  record_value: string;
}

async function withMessage<T>(api: ApiClient, method: string, path: string, body?: unknown) {
  const { message, data } = await api.send<Envelope<T>>(method, path, { body });
  return { message, data };
}

export const domains = (api: ApiClient, signal?: AbortSignal) => api.get<CustomDomain[]>('/domains', { signal });
export const addDomain = (api: ApiClient, body: { store_id: number; domain: string }) =>
  withMessage<CustomDomain>(api, 'POST', '/domains', body);
export const checkDomain = (api: ApiClient, id: number) => withMessage<CustomDomain>(api, 'POST', `/domains/${id}/check`);
export const removeDomain = (api: ApiClient, id: number) => withMessage<null>(api, 'DELETE', `/domains/${id}`);
