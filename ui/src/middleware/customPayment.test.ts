import { describe, expect, it } from 'vitest';
import { makeUser } from '../test/users';
import { sellerCentreCallback, sellerCentreConfig, sellerCentreHandoff } from './customPayment';

const config = sellerCentreConfig({
  VITE_SELLER_CENTRE_URL: 'https://seller.example.com/',
  VITE_CUSTOM_PAYMENT_HOSTS: 'pay.example.com, Shop.Example.com',
} as unknown as ImportMetaEnv);

describe('custom-payment', () => {
  it('sends a custom_payment user on another domain to the hand-off page with the page as redirect, never the token', () => {
    const url = new URL('https://dash.example.com/orders?status=pending');
    const target = sellerCentreHandoff(config, url, makeUser({ custom_payment: true }), 'tok');
    expect(target).toBe('/auth/handoff?redirect=%2Forders%3Fstatus%3Dpending');
    expect(target).not.toContain('tok');
  });

  it('builds the seller-centre callback with the one-time code', () => {
    expect(sellerCentreCallback(config, '/orders', 'one-time')).toBe(
      'https://seller.example.com/auth/callback?redirect=%2Forders&code=one-time',
    );
  });

  it.each([
    ['on a custom-payment domain', 'https://shop.example.com/', makeUser({ custom_payment: true })],
    ['without custom_payment', 'https://dash.example.com/', makeUser()],
  ])('leaves a user alone %s', (_name, href, user) => {
    expect(sellerCentreHandoff(config, new URL(href), user, 'tok')).toBeNull();
  });

  it('is off without a seller-centre address', () => {
    const off = sellerCentreConfig({} as ImportMetaEnv);
    expect(sellerCentreHandoff(off, new URL('https://dash.example.com/'), makeUser({ custom_payment: true }), 'tok')).toBeNull();
  });
});
