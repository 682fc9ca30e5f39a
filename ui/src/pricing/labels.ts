import type { ChangeKind, PriceMode, Quote } from '../api/pricing';
import type { Money } from '../api/orders';
import { formatMoney } from '../orders/labels';

/** The price modes in words (docs/pricing.md). */
export const MODE_LABELS: Readonly<Record<PriceMode, string>> = {
  adjust_price: 'Cost plus margin',
  fixed_price: 'One price',
  custom_price: 'Price per size',
};

/** What each mode does, under its choice in the forms. */
export const MODE_HELP: Readonly<Record<PriceMode, string>> = {
  adjust_price: 'Every size sells at what it costs to make plus your margin, so a size that costs more sells for more.',
  fixed_price: 'Every size sells at the same price.',
  custom_price: 'You set the price of each size.',
};

/** The kinds of a change of many campaigns' prices in words, with what the value is. */
export const CHANGE_LABELS: Readonly<Record<ChangeKind, { label: string; value: string; hint: string }>> = {
  margin: { label: 'Set a margin', value: 'Margin', hint: 'Every size at its cost to make plus this margin.' },
  price: { label: 'Set one price', value: 'Price', hint: 'Every size of every product at this price.' },
  percent: { label: 'Change by a percent', value: 'Percent', hint: 'Every price up (10) or down (-10) by this percent, size by size.' },
};

/** The lowest and highest earnings of a product's sizes: "$10.61 – $10.69", or one amount. */
export function earningsRange(q: Quote): string {
  if (q.sizes.length === 0) return '–';
  const amounts = q.sizes.map((s) => s.earnings.amount);
  const low = Math.min(...amounts);
  const high = Math.max(...amounts);
  const m = (amount: number): Money => ({ amount, currency: q.price.currency });
  return low === high ? formatMoney(m(low)) : `${formatMoney(m(low))} – ${formatMoney(m(high))}`;
}

/** Minor units as typed in a form: 1999 is "19.99". */
export function amountText(m: Money): string {
  return (m.amount / 100).toFixed(2);
}
