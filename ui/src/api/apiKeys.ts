import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';

/** The scopes a key may hold, as the bff lists them. */
export type ApiKeyScope = 'user' | 'product' | 'product_design' | 'store' | 'page' | 'orders';

/** An API key as the settings list shows it: never its secret, only the secret's first characters. */
export interface ApiKey {
  id: number;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  test_mode: boolean;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

export interface ApiKeyList {
  keys: ApiKey[];
  scopes: ApiKeyScope[];
}

export interface NewApiKey {
  name: string;
  scopes: ApiKeyScope[];
  test_mode: boolean;
  /** A date (YYYY-MM-DD), or empty for a key that does not expire. */
  expires_at: string;
}

/** What a create answers: the key and its secret, shown this once. */
export interface CreatedApiKey {
  key: ApiKey;
  secret: string;
}

export const listApiKeys = (api: ApiClient, signal?: AbortSignal) => api.get<ApiKeyList>('/settings/api-keys', { signal });

/**
 * Creates a key. Sent without an Idempotency-Key on purpose: a replayed answer would have to keep the secret, which
 * is never stored; the client never sends a POST without a key twice.
 */
export const createApiKey = (api: ApiClient, input: NewApiKey) =>
  api.send<Envelope<CreatedApiKey>>('POST', '/settings/api-keys', { body: input });

export const revokeApiKey = (api: ApiClient, id: number) =>
  api.send<Envelope<ApiKey>>('DELETE', `/settings/api-keys/${id}`);

/** The public API's OpenAPI document (served without a key). */
export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: {
    parameters?: Record<string, OpenApiParameter>;
    responses?: Record<string, { description?: string }>;
  };
}

export interface OpenApiParameter {
  name: string;
  in: string;
  description?: string;
  required?: boolean;
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: (OpenApiParameter | { $ref: string })[];
  responses: Record<string, { description?: string } | { $ref: string }>;
}

export const openApiDocument = (api: ApiClient, signal?: AbortSignal) =>
  api.send<OpenApiDocument>('GET', '/v1/openapi.json', { signal });
