import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';

/** A payout method's codes (spec: bank, payoneer, pingpong, lianlian, payoneer_vn). */
export type PayoutMethod = 'bank' | 'payoneer' | 'pingpong' | 'lianlian' | 'payoneer_vn';

/** A payment account's status. */
export type PaymentAccountStatus = 'new' | 'valid' | 'invalid';

/** One field of a payout method's form (bff/paymentaccounts). */
export interface MethodField {
  name: string;
  label: string;
  required: boolean;
  /** Sealed at rest and shown masked. */
  sensitive: boolean;
  kind: 'text' | 'email' | 'country';
  description: string;
}

/** A payout method and the fields it needs. */
export interface PayoutMethodForm {
  code: PayoutMethod;
  label: string;
  fields: MethodField[];
}

/** Where a seller's payouts go; sensitive fields come back masked. */
export interface PaymentAccount {
  id: number;
  method: PayoutMethod;
  method_label: string;
  label: string;
  fields: Record<string, string>;
  status: PaymentAccountStatus;
  /** Why an admin marked it invalid. */
  status_note: string;
  is_default: boolean;
  confirm_sent_at: string | null;
  confirm_expires_at: string | null;
  confirmed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** What the form sends; on a change, an empty (or still masked) sensitive field keeps the stored value. */
export interface PaymentAccountInput {
  method: PayoutMethod;
  fields: Record<string, string>;
}

/** An account with its sensitive fields in the clear, for the admin paying a payout. */
export interface RevealedPaymentAccount extends PaymentAccount {
  seller_name: string;
  seller_email: string;
}

export const payoutMethods = (api: ApiClient, signal?: AbortSignal) => api.get<PayoutMethodForm[]>('/seller/payment-accounts/methods', { signal });
export const paymentAccounts = (api: ApiClient, signal?: AbortSignal) => api.get<PaymentAccount[]>('/seller/payment-accounts', { signal });
/** Adds (id null) or changes an account; either mails the seller a confirmation link. */
export const savePaymentAccount = (api: ApiClient, id: number | null, input: PaymentAccountInput) =>
  api.send<Envelope<PaymentAccount>>(id === null ? 'POST' : 'PUT', id === null ? '/seller/payment-accounts' : `/seller/payment-accounts/${id}`, {
    body: input,
  });
export const deletePaymentAccount = (api: ApiClient, id: number) => api.send<Envelope<null>>('DELETE', `/seller/payment-accounts/${id}`);
export const makeDefaultAccount = (api: ApiClient, id: number) => api.send<Envelope<PaymentAccount>>('POST', `/seller/payment-accounts/${id}/default`);
export const resendConfirmation = (api: ApiClient, id: number) => api.send<Envelope<null>>('POST', `/seller/payment-accounts/${id}/resend`);
/** Spends the link e-mailed to the seller. */
export const confirmPaymentAccount = (api: ApiClient, token: string) =>
  api.send<Envelope<PaymentAccount>>('POST', '/seller/payment-accounts/confirm', { body: { token } });
export const revealPaymentAccount = (api: ApiClient, id: number, signal?: AbortSignal) =>
  api.get<RevealedPaymentAccount>(`/admin/payment-accounts/${id}`, { signal });
export const invalidatePaymentAccount = (api: ApiClient, id: number, reason: string) =>
  api.send<Envelope<PaymentAccount>>('POST', `/admin/payment-accounts/${id}/invalidate`, { body: { reason } });
