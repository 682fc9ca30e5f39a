/** Cookies: "Skip tutorial" (or finishing) sets the first for good; the second keeps the step reached. */
export const DISABLE_TOUR_COOKIE = 'disable_product_tour';
export const STEP_TOUR_COOKIE = 'step_product_tour';

/** The getting-started panel's items, each a tour anchor (`data-tour` on the dashboard). */
export type TourAnchor = 'greeting' | 'store' | 'campaign' | 'orders' | 'payment';

/** The anchors that lead to a screen: every one but the greeting. */
export type ScreenAnchor = Exclude<TourAnchor, 'greeting'>;

/** The title and screen of each anchor, shared by the tour's steps and the getting-started panel. */
export const TOUR_SCREENS: Readonly<Record<ScreenAnchor, { title: string; path: string }>> = {
  store: { title: 'Create a store', path: '/storefronts' },
  campaign: { title: 'Launch a campaign', path: '/campaigns' },
  orders: { title: 'Manage orders', path: '/orders' },
  payment: { title: 'Set up a payment account', path: '/settings/payment-account' },
};

export interface TourStep {
  /** Kept in step_product_tour. */
  id: string;
  anchor: TourAnchor;
  title: string;
  body: string;
  /** The path the step's "Go" button opens, when it has one. */
  path?: string;
  /** For the campaign's sub-steps: which one of how many. */
  sub?: { index: number; count: number };
}

/** The campaign's 8 sub-steps. */
const CAMPAIGN_SUB_STEPS: readonly { title: string; body: string }[] = [
  { title: 'Open the campaign editor', body: 'Go to Campaigns and choose to create a campaign.' },
  { title: 'Pick your products', body: 'Choose the product templates to sell: tees, hoodies, mugs and more.' },
  { title: 'Upload your artwork', body: 'Add your design to each print area; PNG files of 4500 px print best.' },
  { title: 'Place and size the design', body: 'Drag, scale and rotate the artwork; the resolution check warns about blurry prints.' },
  { title: 'Choose colours', body: 'Tick the product colours your design looks good on.' },
  { title: 'Set your prices', body: 'Set a price per product; the profit per sale is shown next to it.' },
  { title: 'Write the listing', body: 'Give the campaign a title, description and a short URL on your store.' },
  { title: 'Launch', body: 'Pick the store and launch: the campaign goes live with its mockups.' },
];

/** The tour, starting at "greeting". */
export const TOUR_STEPS: readonly TourStep[] = [
  {
    id: 'greeting',
    anchor: 'greeting',
    title: 'Welcome to your dashboard!',
    body: 'This short tour shows the four steps to your first sale: create a store, launch a campaign, manage orders and set up a payment account.',
  },
  {
    id: 'store',
    anchor: 'store',
    ...TOUR_SCREENS.store,
    body: 'Your storefront is where customers buy. Give it a name and a domain.',
  },
  ...CAMPAIGN_SUB_STEPS.map(
    (sub, i): TourStep => ({
      id: `campaign-${i + 1}`,
      anchor: 'campaign',
      title: `${TOUR_SCREENS.campaign.title}: ${sub.title}`,
      body: sub.body,
      path: TOUR_SCREENS.campaign.path,
      sub: { index: i + 1, count: CAMPAIGN_SUB_STEPS.length },
    }),
  ),
  {
    id: 'orders',
    anchor: 'orders',
    ...TOUR_SCREENS.orders,
    body: 'Orders arrive here as customers buy; follow their fulfillment and tracking.',
  },
  {
    id: 'payment',
    anchor: 'payment',
    ...TOUR_SCREENS.payment,
    body: 'Add the account your payouts go to. We verify it by email before the first payout.',
  },
];

/** The step kept in step_product_tour, or "greeting" for a missing or unknown value. */
export function stepIndex(stored: string | undefined): number {
  const i = TOUR_STEPS.findIndex((step) => step.id === stored);
  return i < 0 ? 0 : i;
}
