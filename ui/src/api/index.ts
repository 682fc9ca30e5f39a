import { ApiClient } from './ApiClient';
import { cookieTokenStore } from './tokenStore';

export { ApiClient } from './ApiClient';
export { ApiError, isApiError } from './ApiError';
export type { Envelope, FieldError, Page } from './envelope';
export type { AccountBalance, User } from './user';

/** The app's API client; tests build their own with a stub fetch. */
export const api = new ApiClient({
  baseUrl: import.meta.env.VITE_API_BASE_URL ?? '/api',
  tokens: cookieTokenStore(),
});
