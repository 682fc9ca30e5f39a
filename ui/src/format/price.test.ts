import { describe, expect, it } from 'vitest';
import { CODE_FIRST_CURRENCIES, convertPrice, DEFAULT_CURRENCY, formatPrice, type Currency } from './price';

const NBSP = '\u00a0';
const EUR_DE: Currency = { code: 'EUR', locale: 'de-DE', rate: 0.92 };

describe('price formatting', () => {
  it('defaults to USD in en-US at rate 1', () => {
    expect(DEFAULT_CURRENCY).toEqual({ code: 'USD', locale: 'en-US', rate: 1 });
  });

  it.each<[string, number, Currency | undefined, string]>([
    ['dollar-like: code first, 2 decimals', 1234.5, undefined, 'USD 1,234.50'],
    ['rounds to 2 decimals', 19.999, undefined, 'USD 20.00'],
    ['rounds half up at the cent', 0.125, undefined, 'USD 0.13'],
    ['negative amounts keep the code first', -5, undefined, 'USD -5.00'],
    ['another dollar in its own locale', 1234.5, { code: 'CAD', locale: 'fr-CA', rate: 1.4 }, `CAD 1${NBSP}234,50`],
    ['a peso: code first in its locale', 1234.5, { code: 'MXN', locale: 'es-MX', rate: 17 }, 'MXN 1,234.50'],
    ['a peso written with dots', 1234.5, { code: 'ARS', locale: 'es-AR', rate: 900 }, 'ARS 1.234,50'],
    ['euro: the locale’s own format', 1234.5, EUR_DE, `1.234,50${NBSP}€`],
    ['euro in Ireland', 1234.5, { code: 'EUR', locale: 'en-IE', rate: 0.92 }, '€1,234.50'],
    ['pound', 3, { code: 'GBP', locale: 'en-GB', rate: 0.8 }, '£3.00'],
    ['yen still shows 2 decimals', 1200, { code: 'JPY', locale: 'ja-JP', rate: 150 }, '￥1,200.00'],
    ['lower-case codes are read as codes', 7, { code: 'usd', locale: 'en-US', rate: 1 }, 'USD 7.00'],
    ['a bad locale falls back to en-US', 7, { code: 'USD', locale: 'not a locale!', rate: 1 }, 'USD 7.00'],
    ['an unknown code is still labelled', 7, { code: 'XYZW', locale: 'en-US', rate: 1 }, 'XYZW 7.00'],
    ['not a number reads as zero', Number.NaN, undefined, 'USD 0.00'],
  ])('%s', (_name, amount, currency, want) => {
    expect(formatPrice(amount, currency)).toBe(want);
  });

  it('puts the code first for the dollars and the "$" pesos only', () => {
    for (const code of ['USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'MXN', 'ARS', 'CLP', 'COP']) {
      expect(CODE_FIRST_CURRENCIES.has(code), code).toBe(true);
    }
    for (const code of ['EUR', 'GBP', 'JPY', 'PHP', 'VND', 'INR']) {
      expect(CODE_FIRST_CURRENCIES.has(code), code).toBe(false);
    }
  });

  it('converts US dollars by the currency rate, to the cent', () => {
    expect(convertPrice(10)).toBe(10);
    expect(convertPrice(10, EUR_DE)).toBe(9.2);
    expect(convertPrice(1.005, { code: 'MXN', locale: 'es-MX', rate: 17.13 })).toBe(17.22);
  });
});
