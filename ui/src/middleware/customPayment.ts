import { needsSellerCentre } from '../access';
import { api } from '../api';
import { HANDOFF_PATH } from '../session/callback';
import type { Middleware } from './registry';

/** The seller-centre host's address and the custom-payment dashboard hosts (deployment settings). */
export interface SellerCentreConfig {
  /** Base address of the seller centre, e.g. https://seller.example.com; empty turns the rule off. */
  url: string;
  /** Host names that are custom-payment domains. */
  customPaymentHosts: readonly string[];
}

export function sellerCentreConfig(env: ImportMetaEnv = import.meta.env): SellerCentreConfig {
  return {
    url: (env.VITE_SELLER_CENTRE_URL ?? '').replace(/\/+$/, ''),
    customPaymentHosts: (env.VITE_CUSTOM_PAYMENT_HOSTS ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
  };
}

/**
 * Where a custom_payment user on a host that is not a custom-payment domain goes: the hand-off
 * page, carrying the page as redirect, which trades the session for a one-time code and sends the browser
 * to the seller centre with it; null when the rule does not apply.
 */
export function sellerCentreHandoff(
  config: SellerCentreConfig,
  url: URL,
  user: Parameters<typeof needsSellerCentre>[0],
  token: string | null,
): string | null {
  if (!config.url || !token) return null;
  if (!needsSellerCentre(user, config.customPaymentHosts.includes(url.hostname.toLowerCase()))) return null;
  const params = new URLSearchParams({ redirect: `${url.pathname}${url.search}` });
  return `${HANDOFF_PATH}?${params.toString()}`;
}

/** The seller centre's callback address with a one-time code and the page to continue to. */
export function sellerCentreCallback(config: SellerCentreConfig, redirect: string, code: string): string {
  const params = new URLSearchParams({ redirect, code });
  return `${config.url}/auth/callback?${params.toString()}`;
}

/** custom-payment: sends the user to the hand-off page, which moves the session to the seller centre. */
export const customPayment: Middleware = ({ url, user }) => {
  if (!user) return undefined;
  return sellerCentreHandoff(sellerCentreConfig(), url, user, api.tokens.get()) ?? undefined;
};
