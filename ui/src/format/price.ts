/** A display currency: locale and code. */
export interface Currency {
  /** ISO 4217 code, e.g. USD. */
  readonly code: string;
  /** BCP 47 locale the amounts are written in, e.g. en-US. */
  readonly locale: string;
  /** Units of this currency per US dollar. */
  readonly rate: number;
}

/** Default currency USD, locale en-US, rate 1. */
export const DEFAULT_CURRENCY: Currency = { code: 'USD', locale: 'en-US', rate: 1 };

/**
 * Currencies written with the code before the amount: dollar-like and
 * peso-like currency codes. The list is every ISO 4217 currency whose everyday sign is a bare "$":
 * the dollars and the pesos of the Americas. Their sign alone does not say which currency an amount
 * is in — "$10" reads as US dollars to one seller and Mexican pesos to another — so the code goes
 * first ("USD 10.00", "MXN 10.00"). Currencies with a sign of their own (€, £, ¥, ₱ …) keep the
 * locale's usual format.
 */
export const CODE_FIRST_CURRENCIES: ReadonlySet<string> = new Set([
  // Dollars.
  'USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'TWD', 'BSD', 'BBD', 'BZD', 'BMD', 'BND', 'KYD', 'FJD',
  'GYD', 'JMD', 'LRD', 'NAD', 'SBD', 'SRD', 'TTD', 'XCD',
  // Pesos written with "$".
  'MXN', 'ARS', 'CLP', 'COP', 'CUP', 'DOP', 'UYU',
]);

const TWO_DECIMALS = { minimumFractionDigits: 2, maximumFractionDigits: 2 } as const;

/** Intl's formatter for locale, falling back to en-US when the locale is not a valid tag. */
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  try {
    return new Intl.NumberFormat(locale, options);
  } catch {
    return new Intl.NumberFormat(DEFAULT_CURRENCY.locale, options);
  }
}

/**
 * An amount already in `currency`, written in the currency's locale and rounded to 2 decimals, with
 * the code first for CODE_FIRST_CURRENCIES: formatPrice(1234.5) is "USD 1,234.50";
 * formatPrice(1234.5, { code: 'EUR', locale: 'de-DE', rate: 0.92 }) is "1.234,50 €".
 */
export function formatPrice(amount: number, currency: Currency = DEFAULT_CURRENCY): string {
  const code = currency.code.toUpperCase();
  const value = Number.isFinite(amount) ? amount : 0;
  if (CODE_FIRST_CURRENCIES.has(code)) return `${code} ${numberFormat(currency.locale, TWO_DECIMALS).format(value)}`;
  try {
    return numberFormat(currency.locale, { style: 'currency', currency: code, ...TWO_DECIMALS }).format(value);
  } catch {
    // Not an ISO code Intl knows: still show the amount, labelled.
    return `${code} ${numberFormat(currency.locale, TWO_DECIMALS).format(value)}`;
  }
}

/** A US-dollar amount in `currency` (times its rate), rounded to cents. */
export function convertPrice(usd: number, currency: Currency = DEFAULT_CURRENCY): number {
  return Math.round(usd * currency.rate * 100) / 100;
}
