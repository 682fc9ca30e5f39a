/** The transaction types as the table and its filter name them. */
export const TRANSACTION_TYPE_LABELS: Readonly<Record<string, string>> = {
  sale: 'Sale',
  commission: 'Commission',
  fulfill: 'Fulfillment',
  fee: 'Fee',
  refund: 'Refund',
  payout: 'Payout',
  topup: 'Top-up',
  ads_topup: 'Ads top-up',
  cashback: 'Cashback',
  admin: 'Adjustment',
  other: 'Other',
};

export const PAYOUT_STATUS_LABELS: Readonly<Record<string, string>> = {
  pending: 'Pending',
  processing: 'Processing',
  completed: 'Completed',
  on_hold: 'On hold',
  cancelled: 'Cancelled',
};

export const PAYOUT_STEP_LABELS: Readonly<Record<string, string>> = {
  approve: 'Approve',
  complete: 'Complete',
  hold: 'Hold',
  cancel: 'Cancel',
};

/** The billing export's file name: the seller's date (`utcOffset` hours east of UTC). */
export function exportFileName(now: Date, utcOffset: number): string {
  const shifted = new Date(now.getTime() + utcOffset * 3_600_000);
  return `billing-${shifted.toISOString().slice(0, 10)}.csv`;
}
