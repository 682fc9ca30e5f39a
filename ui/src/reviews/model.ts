import type { ReviewStatus } from '../api/reviews';
import type { Store } from '../api/stores';

/** The query key every review query starts with, so one invalidation refreshes them all. */
export const REVIEWS_KEY = ['product-reviews'];

/** How each status reads, and its badge's colour. */
export const REVIEW_STATUS: Readonly<Record<ReviewStatus, { label: string; color: string }>> = {
  pending: { label: 'Waiting for you', color: 'yellow' },
  published: { label: 'Published', color: 'green' },
  hidden: { label: 'Hidden', color: 'gray' },
};

/** A rating as five stars, "★★★★☆". */
export const stars = (rating: number): string => '★'.repeat(rating) + '☆'.repeat(5 - rating);

/** What a store's review setting means for its product pages, in words. */
export const REVIEW_SETTING_EFFECT: Readonly<Record<Store['review_setting'], string>> = {
  disable: 'shows no reviews',
  'enable-only-store': 'shows the published reviews of its own sales',
  'enable-share-review': "shows the published reviews of each campaign from all your stores",
};
