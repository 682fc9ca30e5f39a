import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';

/** A seller's own Stripe account (bff/paymentgateways); its secrets come back masked. */
export interface PaymentGateway {
  id: number;
  name: string;
  provider: 'stripe';
  account_id: string;
  test_mode: boolean;
  publishable_key: string;
  /** Masked: "sk_test_••••••••4242". */
  secret_key: string;
  /** Masked: "whsec_••••••••9876". */
  webhook_secret: string;
  /** Where Stripe is to send the gateway's events. */
  webhook_url: string;
  stores: { id: number; name: string; slug: string }[];
  /** Open checkouts of its stores with a payment begun through it. */
  pending_checkouts: number;
  created_at: string;
  updated_at: string;
}

/** A store the gateway form offers, with the gateway it pays through now (null: Pressroom's). */
export interface GatewayStoreOption {
  id: number;
  name: string;
  slug: string;
  gateway_id: number | null;
  gateway_name: string | null;
}

/** What the form sends; on a change, an empty (or still masked) secret keeps the stored one. */
export interface PaymentGatewayInput {
  name: string;
  secret_key: string;
  publishable_key: string;
  webhook_secret: string;
  store_ids: number[];
}

export const paymentGateways = (api: ApiClient, page: number, signal?: AbortSignal) =>
  api.getPage<PaymentGateway>('/seller/payment-gateways', { query: { page, per_page: 15 }, signal });
export const paymentGateway = (api: ApiClient, id: number, signal?: AbortSignal) =>
  api.get<PaymentGateway>(`/seller/payment-gateways/${id}`, { signal });
export const gatewayStores = (api: ApiClient, signal?: AbortSignal) => api.get<GatewayStoreOption[]>('/seller/payment-gateways/stores', { signal });
/** Connects (id null) or saves a gateway; Stripe checks the keys first. */
export const savePaymentGateway = (api: ApiClient, id: number | null, input: PaymentGatewayInput) =>
  api.send<Envelope<PaymentGateway>>(id === null ? 'POST' : 'PUT', id === null ? '/seller/payment-gateways' : `/seller/payment-gateways/${id}`, {
    body: input,
  });
export const deletePaymentGateway = (api: ApiClient, id: number) => api.send<Envelope<null>>('DELETE', `/seller/payment-gateways/${id}`);

/** What the seller sets up in Stripe's dashboard first: the webhook endpoint of their accounts and its events. */
export interface GatewaySetup {
  webhook_url: string;
  events: string[];
}

export const gatewaySetup = (api: ApiClient, signal?: AbortSignal) => api.get<GatewaySetup>('/seller/payment-gateways/setup', { signal });
