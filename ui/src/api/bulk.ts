import { z } from 'zod';
import { newIdempotencyKey, type ApiClient } from './ApiClient';
import type { Envelope } from './envelope';
import { checked, pageSchema } from './schema';

/** Lists are 15 to a page. */
export const BULK_PER_PAGE = 15;

/** Statuses of a bulk record; 'processing' and 'failed' are the ones the record task sets (docs/bulk.md). */
export const BULK_STATUSES = ['pending', 'queued', 'processing', 'completed', 'failed', 'stopped'] as const;
export type BulkStatus = (typeof BULK_STATUSES)[number];

/** Record types; the list shows both unless told. */
export const BULK_TYPES = ['regular_multi_space', 'express_multi_space'] as const;
export type BulkType = (typeof BULK_TYPES)[number];

/** One item of a record's designs: the artwork `new_url` goes on `print_space`. */
export interface BulkDesign {
  new_url: string;
  print_space?: string;
}

export const bulkRecordSchema = z.object({
  id: z.number().int(),
  bulk_upload_id: z.number().int().nullable(),
  template_campaign_id: z.number().int().nullable(),
  template_campaign_name: z.string().nullable(),
  campaign_id: z.number().int().nullable(),
  designs: z.string(),
  type: z.enum(BULK_TYPES),
  status: z.enum(BULK_STATUSES),
  message: z.string(),
  step: z.string(),
  attempts: z.number().int(),
  results: z.array(z.unknown()).nullable(),
  /** The worst resolution of the made campaign's print files; null until one is exported. */
  quality: z.enum(['good', 'normal', 'low']).nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type BulkRecord = z.infer<typeof bulkRecordSchema>;

const bulkPageSchema = pageSchema(bulkRecordSchema);
export type BulkPage = z.infer<typeof bulkPageSchema>;

export const bulkUploadSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  template_campaign_id: z.number().int().nullable(),
  created_at: z.string(),
  total: z.number().int(),
  counts: z.record(z.string(), z.number().int()),
  /** Records by the worst resolution of their print files. */
  qualities: z.record(z.string(), z.number().int()).optional(),
});
export type BulkUpload = z.infer<typeof bulkUploadSchema>;

const createResultSchema = z.object({ records: z.array(bulkRecordSchema), bulk_upload: bulkUploadSchema.nullable() });
export type BulkCreateResult = z.infer<typeof createResultSchema>;

/** What a row action did to one id. */
export const actionResultSchema = z.object({
  id: z.number().int(),
  ok: z.boolean(),
  status: z.string(),
  message: z.string().optional(),
});
export type BulkActionResult = z.infer<typeof actionResultSchema>;

export const BULK_ACTIONS = ['start', 'stop', 'retry', 'remove'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The list query. */
export interface BulkListQuery {
  q?: string;
  page?: number;
  status?: BulkStatus[];
  type?: BulkType;
  bulkUploadId?: number;
  quality?: BulkQuality[];
}

/** The resolutions a record's print files are rated (docs/editor.md); normal and low are flagged. */
export const BULK_QUALITIES = ['good', 'normal', 'low'] as const;
export type BulkQuality = (typeof BULK_QUALITIES)[number];

const BASE = '/seller/bulk-campaigns/multi-print-spaces';

/** The designs text of one artwork: `[{new_url, print_space?}]`, print_space left out when not chosen. */
export function designsOf(newUrl: string, printSpace?: string): string {
  const item: BulkDesign = printSpace ? { new_url: newUrl, print_space: printSpace } : { new_url: newUrl };
  return JSON.stringify([item]);
}

/** The artworks a record's designs text names, for the list ('' entries when it is not an array of {new_url, print_space}). */
export function artworksOf(designs: string): string[] {
  try {
    const parsed: unknown = JSON.parse(designs);
    if (!Array.isArray(parsed)) return [];
    return parsed.map((d: unknown) =>
      typeof d === 'object' && d !== null && typeof (d as BulkDesign).new_url === 'string' ? (d as BulkDesign).new_url : '',
    );
  } catch {
    return [];
  }
}

export async function listBulkRecords(api: ApiClient, query: BulkListQuery, signal?: AbortSignal): Promise<BulkPage> {
  const page = await api.getPage<unknown>(BASE, {
    query: {
      q: query.q || undefined,
      page: query.page ?? 1,
      per_page: BULK_PER_PAGE,
      order_by: 'id:desc',
      'status[]': query.status && query.status.length > 0 ? query.status.join(',') : undefined,
      'type[]': query.type,
      bulk_upload_id: query.bulkUploadId,
      'quality[]': query.quality && query.quality.length > 0 ? query.quality.join(',') : undefined,
    },
    signal,
  });
  return checked(bulkPageSchema, `GET ${BASE}`, page);
}

const bulkUploadPageSchema = pageSchema(bulkUploadSchema);
export type BulkUploadPage = z.infer<typeof bulkUploadPageSchema>;

/** The seller's bulk uploads (imports), newest first, each with its records counted per status. */
export async function listBulkUploads(api: ApiClient, query: { q?: string; page?: number }, signal?: AbortSignal): Promise<BulkUploadPage> {
  const page = await api.getPage<unknown>(`${BASE}/uploads`, {
    query: { q: query.q || undefined, page: query.page ?? 1, per_page: BULK_PER_PAGE },
    signal,
  });
  return checked(bulkUploadPageSchema, `GET ${BASE}/uploads`, page);
}

/** A campaign the import page offers as the template; used: an earlier import took it, made: a bulk record made it. */
export const templateChoiceSchema = z.object({ id: z.number().int(), name: z.string(), used: z.boolean(), made: z.boolean() });
export type TemplateChoice = z.infer<typeof templateChoiceSchema>;

/** The seller's campaigns whose name contains q, templates used before first, bulk-made copies last. */
export async function searchBulkTemplates(api: ApiClient, q: string, signal?: AbortSignal): Promise<TemplateChoice[]> {
  const data = await api.get(`${BASE}/templates`, { query: { q: q || undefined }, signal });
  return checked(z.array(templateChoiceSchema), `GET ${BASE}/templates`, data);
}

export async function getBulkUpload(api: ApiClient, id: number, signal?: AbortSignal): Promise<BulkUpload> {
  return checked(bulkUploadSchema, `GET ${BASE}/uploads/${id}`, await api.get(`${BASE}/uploads/${id}`, { signal }));
}

/** Creates one record per designs text under a bulk upload called name, queued at once. */
export async function createBulkImport(
  api: ApiClient,
  body: { template_campaign_id: number; name: string; records: string[]; type?: BulkType },
): Promise<BulkCreateResult> {
  const envelope = await api.send<Envelope<unknown>>('POST', `${BASE}/records`, { body, idempotencyKey: newIdempotencyKey() });
  return checked(createResultSchema, `POST ${BASE}/records`, envelope.data);
}

/** Runs a row action on ids, or start-all / stop-all without ids. */
export async function bulkAction(api: ApiClient, action: BulkAction | 'start-all' | 'stop-all', ids?: number[]): Promise<BulkActionResult[]> {
  const envelope = await api.send<Envelope<unknown>>('POST', `${BASE}/${action}`, { body: ids ? { ids } : {} });
  return checked(z.array(actionResultSchema), `POST ${BASE}/${action}`, envelope.data);
}

/** A background bulk campaign job. */
export const bulkJobSchema = z.object({
  id: z.number().int(),
  campaign_id: z.number().int().nullable(),
  campaign_name: z.string(),
  prefix: z.string(),
  suffix: z.string(),
  collection: z.string(),
  designs: z.string(),
  status: z.enum(BULK_STATUSES),
  message: z.string(),
  new_campaign_id: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type BulkJob = z.infer<typeof bulkJobSchema>;

const bulkJobPageSchema = pageSchema(bulkJobSchema);
export type BulkJobPage = z.infer<typeof bulkJobPageSchema>;

export async function listBulkJobs(
  api: ApiClient,
  query: { q?: string; page?: number; status?: BulkStatus },
  signal?: AbortSignal,
): Promise<BulkJobPage> {
  const page = await api.getPage<unknown>('/seller/bulk-campaigns', {
    query: { q: query.q || undefined, page: query.page ?? 1, per_page: BULK_PER_PAGE, order_by: 'id:desc', 'status[]': query.status },
    signal,
  });
  return checked(bulkJobPageSchema, 'GET /seller/bulk-campaigns', page);
}
