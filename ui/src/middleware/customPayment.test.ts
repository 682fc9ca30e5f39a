import { describe, expect, it } from 'vitest';
import { makeUser } from '../test/users';
import { sellerCentreCallback, sellerCentreConfig } from './customPayment';

const config = sellerCentreConfig({
  VITE_SELLER_CENTRE_URL: 'https://seller.example.com/',
  VITE_CUSTOM_PAYMENT_HOSTS: 'pay.example.com, Shop.Example.com',
} as unknown as ImportMetaEnv);

describe('custom-payment', () => {
  it('sends a custom_payment user on another domain to the seller-centre callback with redirect and token', () => {
    const url = new URL('https://dash.example.com/orders?status=pending');
    expect(sellerCentreCallback(config, url, makeUser({ custom_payment: true }), 'tok')).toBe(
      'https://seller.example.com/auth/callback?redirect=%2Forders%3Fstatus%3Dpending&token=tok',
    );
  });

  it.each([
    ['on a custom-payment domain', 'https://shop.example.com/', makeUser({ custom_payment: true })],
    ['without custom_payment', 'https://dash.example.com/', makeUser()],
  ])('leaves a user alone %s', (_name, href, user) => {
    expect(sellerCentreCallback(config, new URL(href), user, 'tok')).toBeNull();
  });

  it('is off without a seller-centre address', () => {
    const off = sellerCentreConfig({} as ImportMetaEnv);
    expect(sellerCentreCallback(off, new URL('https://dash.example.com/'), makeUser({ custom_payment: true }), 'tok')).toBeNull();
  });
});
