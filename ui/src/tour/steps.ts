/** Spec §4 cookies: "Skip tutorial" (or finishing) sets the first for good; the second keeps the step reached. */
export const DISABLE_TOUR_COOKIE = 'disable_product_tour';
export const STEP_TOUR_COOKIE = 'step_product_tour';

/** Spec §9: cookie max age 604800 s. The disable cookie is renewed whenever the dashboard opens. */
export const TOUR_COOKIE_MAX_AGE_S = 604_800;

/** The getting-started panel's items, each a tour anchor (`data-tour` on the dashboard). */
export type TourAnchor = 'greeting' | 'store' | 'campaign' | 'orders' | 'payment';

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

/** The campaign's 8 sub-steps (spec §1). */
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

/** The tour of spec §1 and §4, starting at "greeting". */
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
    title: 'Create a store',
    body: 'Your storefront is where customers buy. Give it a name and a domain.',
    path: '/storefronts',
  },
  ...CAMPAIGN_SUB_STEPS.map(
    (sub, i): TourStep => ({
      id: `campaign-${i + 1}`,
      anchor: 'campaign',
      title: `Launch a campaign: ${sub.title}`,
      body: sub.body,
      path: '/campaigns',
      sub: { index: i + 1, count: CAMPAIGN_SUB_STEPS.length },
    }),
  ),
  {
    id: 'orders',
    anchor: 'orders',
    title: 'Manage orders',
    body: 'Orders arrive here as customers buy; follow their fulfillment and tracking.',
    path: '/orders',
  },
  {
    id: 'payment',
    anchor: 'payment',
    title: 'Set up a payment account',
    body: 'Add the account your payouts go to. We verify it by email before the first payout.',
    path: '/settings/payment-account',
  },
];

/** The step kept in step_product_tour, or "greeting" for a missing or unknown value. */
export function stepIndex(stored: string | undefined): number {
  const i = TOUR_STEPS.findIndex((step) => step.id === stored);
  return i < 0 ? 0 : i;
}
