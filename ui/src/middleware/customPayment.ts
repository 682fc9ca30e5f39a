import { needsSellerCentre } from '../access';
import { api } from '../api';
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
 * The seller-centre callback URL for a custom_payment user on a host that is not a custom-payment
 * domain, carrying the token and the page as redirect; null when the rule does not apply.
 */
export function sellerCentreCallback(
  config: SellerCentreConfig,
  url: URL,
  user: Parameters<typeof needsSellerCentre>[0],
  token: string | null,
): string | null {
  if (!config.url || !token) return null;
  if (!needsSellerCentre(user, config.customPaymentHosts.includes(url.hostname.toLowerCase()))) return null;
  const params = new URLSearchParams({ redirect: `${url.pathname}${url.search}`, token });
  return `${config.url}/auth/callback?${params.toString()}`;
}

/** custom-payment: clears the token here and sends the user on to the seller-centre callback. */
export const customPayment: Middleware = ({ url, user }) => {
  if (!user) return undefined;
  const target = sellerCentreCallback(sellerCentreConfig(), url, user, api.tokens.get());
  if (target) api.tokens.clear();
  return target ?? undefined;
};
