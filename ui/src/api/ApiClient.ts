import { ApiError } from './ApiError';
import type { Envelope, Page } from './envelope';
import { reportsFailure } from './envelope';
import type { TokenStore } from './tokenStore';

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  /** JSON-encoded, except FormData, which is sent as multipart/form-data. */
  body?: unknown;
  signal?: AbortSignal;
  /**
   * A 401 from this call is an answer about the credentials sent (login), not about the session:
   * it neither clears the token nor signs the user out.
   */
  credentialsCheck?: boolean;
  /**
   * Marks a create: the request carries this Idempotency-Key (make one with newIdempotencyKey() per user
   * action), so the bff makes one thing however often it arrives, and a request whose connection failed
   * is sent again, with the same key, up to CREATE_ATTEMPTS times.
   */
  idempotencyKey?: string;
}

/** How often a create is sent when its connection fails before an answer. */
export const CREATE_ATTEMPTS = 3;

/**
 * A fresh Idempotency-Key: 128 random bits in hex (crypto.getRandomValues works on plain http too, unlike
 * crypto.randomUUID).
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface ApiClientConfig {
  /** Base URL of the bff's API, `/api` unless `VITE_API_BASE_URL` says otherwise. */
  baseUrl: string;
  tokens: TokenStore;
  fetch?: typeof fetch;
}

type UnauthorizedListener = () => void;

/** The one HTTP client of the UI: JSON in and out, bearer token, envelope-aware errors. */
export class ApiClient {
  readonly tokens: TokenStore;
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly unauthorizedListeners = new Set<UnauthorizedListener>();

  constructor(config: ApiClientConfig) {
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.tokens = config.tokens;
    this.fetchImpl = config.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Called after a 401 has cleared the token (the session is gone); returns the unsubscribe function. */
  onUnauthorized(listener: UnauthorizedListener): () => void {
    this.unauthorizedListeners.add(listener);
    return () => this.unauthorizedListeners.delete(listener);
  }

  /** `data` of the envelope answered by GET `path`. */
  async get<T>(path: string, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return (await this.send<Envelope<T>>('GET', path, options)).data;
  }

  /** `data` of the envelope answered by POST `path`. */
  async post<T>(path: string, body?: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return (await this.send<Envelope<T>>('POST', path, { ...options, body })).data;
  }

  /** A page of a list (`q`, `page`, `per_page`, `order_by` go in `query`). */
  getPage<T>(path: string, options: Omit<RequestOptions, 'body'> = {}): Promise<Page<T>> {
    return this.send<Page<T>>('GET', path, options);
  }

  /** A file the API streams (a CSV export), fetched with the session's token; failures throw an ApiError. */
  async download(path: string, options: Omit<RequestOptions, 'body'> = {}): Promise<Blob> {
    const headers = new Headers();
    const token = this.tokens.get();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    let response: Response;
    try {
      response = await this.fetchImpl(this.url(path, options.query), {
        headers,
        signal: options.signal,
        credentials: 'same-origin',
      });
    } catch (cause) {
      throw ApiError.fromTransport(cause);
    }
    if (!response.ok) {
      if (response.status === 401) this.endSession();
      throw ApiError.fromResponse(response.status, await readJson(response), `Request failed with status code ${response.status}`);
    }
    return response.blob();
  }

  /** Sends a request and returns the parsed JSON body, or throws an ApiError. */
  async send<B>(method: string, path: string, options: RequestOptions = {}): Promise<B> {
    const headers = new Headers({ Accept: 'application/json' });
    const token = this.tokens.get();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    let body: string | FormData | undefined;
    if (options.body instanceof FormData) {
      body = options.body; // the browser sets the multipart Content-Type with its boundary
    } else if (options.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(options.body);
    }
    if (options.idempotencyKey) headers.set('Idempotency-Key', options.idempotencyKey);

    let response: Response | undefined;
    // Without a key a POST whose connection failed may have been carried out: it is never sent twice.
    const attempts = options.idempotencyKey ? CREATE_ATTEMPTS : 1;
    for (let attempt = 1; response === undefined; attempt++) {
      try {
        response = await this.fetchImpl(this.url(path, options.query), {
          method,
          headers,
          body,
          signal: options.signal,
          credentials: 'same-origin',
        });
      } catch (cause) {
        if (attempt >= attempts || options.signal?.aborted) throw ApiError.fromTransport(cause);
      }
    }

    const parsed = await readJson(response);
    if (!response.ok || reportsFailure(parsed)) {
      if (response.status === 401 && !options.credentialsCheck) this.endSession();
      const transportMessage = response.ok
        ? 'Request failed'
        : `Request failed with status code ${response.status}`;
      throw ApiError.fromResponse(response.status, parsed, transportMessage);
    }
    return parsed as B;
  }

  private endSession(): void {
    this.tokens.clear();
    for (const listener of this.unauthorizedListeners) listener();
  }

  private url(path: string, query: Record<string, QueryValue> | undefined): string {
    const url = `${this.baseUrl}${path.startsWith('/') ? path : `/${path}`}`;
    if (!query) return url;
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) params.set(key, String(value));
    }
    const search = params.toString();
    return search ? `${url}?${search}` : url;
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
