import { z } from 'zod';
import type { ApiClient } from './ApiClient';
import type { Page } from './envelope';
import { checked, dpiObjectSchema, pageSchema } from './schema';

export type { DpiObject } from './schema';

/** Where the review calls live under the API base (bff/review). */
const BASE = '/design-orders/items';

/** The design statuses an item moves through (designing and reviewing, then the review's outcome; docs/review.md). */
export const REVIEW_STATUSES = ['designing', 'reviewing', 'approved', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

const dpiReportSchema = z.object({
  quality: z.enum(['good', 'normal', 'low']),
  min_effective_dpi: z.number(),
  objects: z.array(dpiObjectSchema),
});

/** A deep-zoom pyramid (renderer/tiles Manifest): level `levels - 1` is the full size, each level below half of it. */
export const manifestSchema = z.object({
  width: z.number().int(),
  height: z.number().int(),
  tile_size: z.number().int(),
  levels: z.number().int(),
  format: z.string(),
});
export type Manifest = z.infer<typeof manifestSchema>;

export const printSpaceSchema = z.object({
  name: z.string().optional(),
  width: z.number(),
  height: z.number(),
  dpi: z.number(),
  minDpi: z.number(),
  printType: z.number(),
});
export type PrintSpace = z.infer<typeof printSpaceSchema>;

const personalizationSchema = z.object({
  texts: z.array(z.object({ label: z.string(), value: z.string(), print_space: z.string().optional(), object_id: z.string().optional() })).default([]),
  images: z
    .array(
      z.object({
        label: z.string(),
        key: z.string(),
        choice: z.string().optional(),
        width: z.number().optional(),
        height: z.number().optional(),
        print_space: z.string().optional(),
        object_id: z.string().optional(),
      }),
    )
    .default([]),
});

export const reviewEventSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  user_name: z.string(),
  action: z.enum(['approve', 'reject', 'replace', 'rerender']),
  comment: z.string(),
  revision: z.number().int(),
  created_at: z.string(),
});
export type ReviewEvent = z.infer<typeof reviewEventSchema>;

export const reviewItemSchema = z.object({
  id: z.number().int(),
  order_id: z.number().int(),
  order_number: z.string(),
  customer_name: z.string(),
  product_name: z.string(),
  product_type: z.string(),
  print_space: printSpaceSchema,
  personalization: personalizationSchema,
  status: z.enum(REVIEW_STATUSES),
  revision: z.number().int(),
  print_status: z.enum(['pending', 'done', 'failed']),
  print_error: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  declared_dpi: z.number().nullable(),
  byte_size: z.number().int().nullable(),
  stripped: z.boolean().nullable(),
  dpi_report: dpiReportSchema.nullable(),
  manifest: manifestSchema.nullable(),
  updated_at: z.string(),
  /** The design document (schema/design.schema.json), shown beside the print file. */
  design: z.unknown().optional(),
  tiles_url: z.string().optional(),
  file_url: z.string().optional(),
  events: z.array(reviewEventSchema).optional(),
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;

export const reviewKeys = {
  all: ['review'] as const,
  queue: (status: readonly string[], page: number) => ['review', 'queue', status.join(','), page] as const,
  item: (id: number) => ['review', 'item', id] as const,
  manifest: (id: number, revision: number) => ['review', 'item', id, 'manifest', revision] as const,
};

/** Queue pages are 15 items, like every list. */
export const QUEUE_PER_PAGE = 15;

/** A page of the queue, oldest first (a queue is worked from its head). */
export async function reviewQueue(
  api: ApiClient,
  status: readonly ReviewStatus[],
  page: number,
  signal?: AbortSignal,
): Promise<Page<ReviewItem>> {
  const answer = await api.getPage<unknown>(BASE, {
    query: { status: status.join(','), page, per_page: QUEUE_PER_PAGE, order_by: 'id:asc' },
    signal,
  });
  return checked(pageSchema(reviewItemSchema), `GET ${BASE}`, answer);
}

export async function reviewItem(api: ApiClient, id: number, signal?: AbortSignal): Promise<ReviewItem> {
  return checked(reviewItemSchema, `GET ${BASE}/${id}`, await api.get<unknown>(`${BASE}/${id}`, { signal }));
}

/** The deep-zoom manifest of one revision of an item's print file (an earlier one, to compare with the current). */
export async function revisionManifest(api: ApiClient, id: number, revision: number, signal?: AbortSignal): Promise<Manifest> {
  const path = `${BASE}/${id}/tiles/${revision}/manifest`;
  return checked(manifestSchema, `GET ${path}`, await api.get<unknown>(path, { signal }));
}

/** The tiles path of another revision of the item whose current revision's path is `tilesUrl`. */
export function revisionTilesUrl(tilesUrl: string, revision: number): string {
  return tilesUrl.replace(/\/tiles\/\d+\/$/, `/tiles/${revision}/`);
}

export async function approveItem(api: ApiClient, id: number): Promise<ReviewItem> {
  return checked(reviewItemSchema, `POST ${BASE}/${id}/approve`, await api.post<unknown>(`${BASE}/${id}/approve`, {}));
}

export async function rejectItem(api: ApiClient, id: number, comment: string): Promise<ReviewItem> {
  return checked(reviewItemSchema, `POST ${BASE}/${id}/reject`, await api.post<unknown>(`${BASE}/${id}/reject`, { comment }));
}

export async function rerenderItem(api: ApiClient, id: number): Promise<ReviewItem> {
  return checked(reviewItemSchema, `POST ${BASE}/${id}/rerender`, await api.post<unknown>(`${BASE}/${id}/rerender`, {}));
}

export async function replaceItem(api: ApiClient, id: number, uploadId: number): Promise<ReviewItem> {
  return checked(reviewItemSchema, `POST ${BASE}/${id}/replace`, await api.post<unknown>(`${BASE}/${id}/replace`, { upload_id: uploadId }));
}

