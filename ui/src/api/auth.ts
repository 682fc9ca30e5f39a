import type { ApiClient } from './ApiClient';
import type { User } from './user';

export interface Credentials {
  email: string;
  password: string;
}

export interface AccessToken {
  access_token: string;
  token_type: string;
  expires_in: number;
}

/** Sellers sign in at the seller endpoint; designers (and admins) at the admin one. */
export type LoginVariant = 'seller' | 'designer';

const loginPaths: Record<LoginVariant, string> = {
  seller: '/auth/seller/login',
  designer: '/auth/admin/login',
};

export function login(api: ApiClient, variant: LoginVariant, credentials: Credentials): Promise<AccessToken> {
  return api.post<AccessToken>(loginPaths[variant], credentials, { credentialsCheck: true });
}

export async function logout(api: ApiClient): Promise<void> {
  await api.post<unknown>('/auth/logout');
}

export function fetchMe(api: ApiClient, signal?: AbortSignal): Promise<User> {
  return api.get<User>('/me', { signal });
}
