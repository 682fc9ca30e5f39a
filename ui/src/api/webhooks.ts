import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';

/** Channels of an endpoint (commerce/webhooks Kinds). */
export type EndpointKind = 'custom' | 'slack' | 'discord' | 'ms_teams' | 'telegram';

/** A seller's webhook endpoint or chat channel (bff/webhooks). */
export interface Endpoint {
  id: number;
  kind: EndpointKind;
  kind_label: string;
  name: string;
  /** Empty for telegram, whose address is `bot_token` and `chat_id`. */
  url: string;
  bot_token?: string;
  chat_id: string;
  /** The signing key of a custom endpoint; empty for the chat channels. */
  secret: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string;
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

export interface EndpointInput {
  kind: EndpointKind;
  name: string;
  url: string;
  bot_token: string;
  chat_id: string;
  events: string[];
  enabled: boolean;
}

/** One event on its way to an endpoint. */
export interface Delivery {
  id: number;
  endpoint_id: number;
  event_id: number | null;
  order_id: number | null;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: string;
  last_status: number | null;
  last_error: string;
  created_at: string;
  finished_at: string | null;
}

/** One try of a delivery. */
export interface Attempt {
  id: number;
  attempted_at: string;
  status_code: number | null;
  latency_ms: number;
  response: string;
  error: string;
}

const BASE = '/settings/notification/endpoints';

export const listEndpoints = (api: ApiClient, signal?: AbortSignal) => api.get<Endpoint[]>(BASE, { signal });

export const saveEndpoint = async (api: ApiClient, id: number | null, input: EndpointInput) =>
  id === null ? api.post<Endpoint>(BASE, input) : (await api.send<Envelope<Endpoint>>('PUT', `${BASE}/${id}`, { body: input })).data;

export const removeEndpoint = (api: ApiClient, id: number) => api.send('DELETE', `${BASE}/${id}`);

export const sendTest = (api: ApiClient, id: number) => api.post<Delivery>(`${BASE}/${id}/test`);

export const endpointDeliveries = (api: ApiClient, id: number, page: number, signal?: AbortSignal) =>
  api.getPage<Delivery>(`${BASE}/${id}/deliveries`, { query: { page, per_page: 10 }, signal });

export const deliveryAttempts = (api: ApiClient, id: number, delivery: number, signal?: AbortSignal) =>
  api.get<Attempt[]>(`${BASE}/${id}/deliveries/${delivery}/attempts`, { signal });

export const replayDelivery = (api: ApiClient, id: number, delivery: number) => api.send('POST', `${BASE}/${id}/deliveries/${delivery}/replay`);
