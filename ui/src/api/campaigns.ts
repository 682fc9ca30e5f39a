import { z } from 'zod';
import type { DesignDocument } from '../editor/document';
import { newIdempotencyKey, type ApiClient } from './ApiClient';
import type { Envelope } from './envelope';
import type { SlugCheck } from './stores';
import { checked, dpiObjectSchema, pageSchema } from './schema';

/** The campaign kinds (docs/editor.md). */
export const CAMPAIGN_KINDS = ['regular', 'custom', 'campaign_express', 'mockup', 'aop', 'combo', 'express_2', 'ai_mockup'] as const;
export type CampaignKind = (typeof CAMPAIGN_KINDS)[number];

/** A campaign's status: draft, active while a product of it is on sale, archived (docs/campaigns.md). */
export const CAMPAIGN_STATUSES = ['draft', 'active', 'archived'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** The template kinds the list filters by (product_type[]); a campaign is one of the first three. */
export const PRODUCT_TYPES = ['campaign', 'campaign_express', 'campaign_template', 'product_template', 'product'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/** What the list shows without a product type chosen: the campaign kinds (docs/campaigns.md). */
export const DEFAULT_PRODUCT_TYPES: readonly ProductType[] = ['campaign', 'campaign_express', 'campaign_template'];

/** Lists are 15 to a page. */
export const CAMPAIGNS_PER_PAGE = 15;

/** A print space of a product, as the JSON text of `print_spaces` holds it. */
const printSpaceSchema = z.object({
  name: z.string().min(1),
  width: z.number().positive(),
  height: z.number().positive(),
  displayWidth: z.number(),
  printType: z.number().int(),
  isMain: z.boolean(),
  viewWidth: z.number(),
  viewHeight: z.number(),
  DPI: z.number().positive(),
  minDPI: z.number().positive(),
});
export type PrintSpace = z.infer<typeof printSpaceSchema>;

const templateShape = {
  id: z.number().int(),
  name: z.string(),
  product_type: z.string(),
  print_spaces: z.string(),
  full_printed: z.number().int(),
  options: z.string(),
  default_option: z.string(),
  mockup_type: z.string(),
  base_cost: z.number(),
  extra_print_cost: z.number(),
  personalized: z.boolean(),
};

/** A product template of the catalogue; `print_spaces` and `options` are JSON text. */
const templateSchema = z.object(templateShape);
export type Template = z.infer<typeof templateSchema>;

/** The product around one of its print spaces (print/guides ProductOutline). */
const outlineSchema = z.object({
  shapes: z.array(z.array(z.number())),
  bounds: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
});

/** A campaign's copy of a template; `id` is the campaign product's own id; `outlines` by print space name, where known. */
const productSchema = z.object({
  ...templateShape,
  template_id: z.number().int(),
  outlines: z.record(z.string(), outlineSchema).optional(),
});
export type Product = z.infer<typeof productSchema>;

/** What the renderer says about a print file besides its pixels (renderer/raster.Report). */
const exportReportSchema = z.object({
  width: z.number(),
  height: z.number(),
  dpi: z.object({
    quality: z.enum(['good', 'normal', 'low']),
    min_effective_dpi: z.number(),
    objects: z.array(dpiObjectSchema).nullish().transform((v) => v ?? []),
  }),
  font_fallbacks: z
    .array(z.object({ object_id: z.string(), requested: z.string(), reason: z.string() }))
    .nullish()
    .transform((v) => v ?? []),
  warnings: z
    .array(z.object({ object_id: z.string(), message: z.string() }))
    .nullish()
    .transform((v) => v ?? []),
});
export type ExportReport = z.infer<typeof exportReportSchema>;

/** Where a print file stands: never asked for, queued, being drawn, made, or refused with a message. */
export const EXPORT_STATUSES = ['none', 'pending', 'rendering', 'done', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

const exportShape = {
  status: z.enum(EXPORT_STATUSES),
  file_url: z.string(),
  /** A signed download of the print file, which saves it as file_name (the bff names it). */
  download_url: z.string(),
  file_name: z.string(),
  width: z.number(),
  height: z.number(),
  dpi: z.number(),
  file_size: z.number(),
  report: exportReportSchema.nullable(),
  error: z.string(),
};

/** The print file of a design: where its export stands and, once done, the file and its report. */
const exportStateSchema = z.object(exportShape);
export type ExportState = z.infer<typeof exportStateSchema>;

/**
 * A design document as the bff stores it. The bff validated it on save (renderer/design), so only its
 * outline is checked here: a rule the editor's mirror reads differently must not lock a campaign out of its editor.
 */
const designDocumentSchema = z.custom<DesignDocument>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { printSpace?: unknown }).printSpace === 'object' &&
    Array.isArray((value as { objects?: unknown }).objects),
  { error: 'design_json is not a design document' },
);

/** The design of one product print space: its document and its print file. */
const designSchema = z.object({
  id: z.number().int(),
  product_id: z.number().int(),
  print_space: z.string(),
  design_json: designDocumentSchema,
  option: z.enum(['print', 'custom']),
  revision: z.number().int(),
  export: exportStateSchema,
});
export type Design = z.infer<typeof designSchema>;

/** Where a flat mockup stands: waiting for its print file or render, made, or refused with a message. */
export const MOCKUP_STATUSES = ['pending', 'done', 'failed'] as const;
export type MockupStatus = (typeof MOCKUP_STATUSES)[number];

/**
 * A mockup record of a campaign product: one mockup template's picture of the design of its print space.
 * `url` serves the image once done and changes with every render; `preview_url` serves its 500 px preview, empty
 * for a mockup made before previews; `download_url` downloads it as `file_name` (the bff names it); `is_default_mockup`
 * is '1' or '0'.
 */
const mockupSchema = z.object({
  id: z.number().int(),
  product_id: z.number().int(),
  print_space: z.string(),
  mockup_template_id: z.number().int(),
  name: z.string(),
  revision: z.number().int(),
  is_default_mockup: z.enum(['1', '0']),
  file_url: z.string(),
  url: z.string(),
  preview_url: z.string(),
  download_url: z.string(),
  file_name: z.string(),
  status: z.enum(MOCKUP_STATUSES),
  error: z.string(),
});
export type Mockup = z.infer<typeof mockupSchema>;

/** A campaign as the editor loads and saves it, with its products and designs. */
const campaignSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  kind: z.enum(CAMPAIGN_KINDS),
  personalized: z.boolean().nullable(),
  artwork_url: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
  products: z.array(productSchema),
  designs: z.array(designSchema),
  mockups: z.array(mockupSchema).optional(),
  /** Listed trademarks the name holds: the campaign is saved all the same, and the seller warned. */
  warnings: z.array(z.object({ field: z.string(), term: z.string(), message: z.string() })).optional(),
});
export type Campaign = z.infer<typeof campaignSchema>;

/**
 * A row of the campaign list. `preview_url` is a thumbnail of the artwork; `mockup_url` the campaign's default mockup (its
 * 500 px preview, or its file for a mockup made before previews), empty until one is done; `mockups_pending` is true while
 * mockups of the campaign are being made.
 */
const campaignSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  kind: z.enum(CAMPAIGN_KINDS),
  product_type: z.enum(PRODUCT_TYPES),
  personalized: z.boolean().nullable(),
  status: z.enum(CAMPAIGN_STATUSES),
  product_count: z.number().int(),
  design_count: z.number().int(),
  updated_at: z.string(),
  preview_url: z.string(),
  mockup_url: z.string(),
  mockups_pending: z.boolean(),
});
export type CampaignSummary = z.infer<typeof campaignSummarySchema>;

const campaignPageSchema = pageSchema(campaignSummarySchema);
export type CampaignPage = z.infer<typeof campaignPageSchema>;

/** The export of one design as GET /campaigns/{id}/exports lists it. */
const designExportSchema = z.object({
  design_id: z.number().int(),
  product_id: z.number().int(),
  print_space: z.string(),
  revision: z.number().int(),
  ...exportShape,
});
export type DesignExport = z.infer<typeof designExportSchema>;

const extraPrintCostSchema = z.array(z.object({ id: z.number().int(), extra_print_cost: z.number() }));
export type ExtraPrintCost = z.infer<typeof extraPrintCostSchema>[number];

/** The print spaces of a product or template, parsed from its JSON text; throws naming the product when malformed. */
export function printSpacesOf(product: Pick<Template, 'name' | 'print_spaces'>): PrintSpace[] {
  let raw: unknown;
  try {
    raw = JSON.parse(product.print_spaces);
  } catch {
    throw new Error(`The print spaces of ${product.name} are not JSON.`);
  }
  const result = z.array(printSpaceSchema).safeParse(raw);
  if (!result.success) throw new Error(`The print spaces of ${product.name} are malformed: ${result.error.issues[0]?.message}`);
  return result.data;
}

// --- calls ---------------------------------------------------------------------------------------

/** The query of the campaign list and its export: the kind (system_type), the product type and the status. */
export interface CampaignListQuery {
  q?: string;
  page?: number;
  kind?: CampaignKind;
  productType?: ProductType;
  status?: CampaignStatus;
}

/** The list's filters as the bff reads them (each empty: the bff's default). */
function filterQuery(query: CampaignListQuery): Record<string, string | undefined> {
  return {
    q: query.q || undefined,
    'system_type[]': query.kind,
    'product_type[]': query.productType,
    'status[]': query.status,
  };
}

/** The body of the create step (POST /seller/campaigns). */
export interface NewCampaign {
  name: string;
  kind: CampaignKind;
  template_ids: number[];
  personalized?: boolean | null;
}

/** The body of PUT /campaigns/{id}: the whole campaign as the editor holds it; designs not listed are removed. */
export interface CampaignUpdate {
  name: string;
  personalized: boolean | null;
  products: { id: number; personalized: boolean }[];
  designs: { product_id: number; print_space: string; design_json: DesignDocument }[];
}

/** Unsaved editor state for the extra print cost: how many objects each print space holds. */
export interface PrintSpaceObjects {
  product_id: number;
  print_space: string;
  objects: number;
}

async function sendChecked<S extends z.ZodType>(
  api: ApiClient,
  method: string,
  path: string,
  schema: S,
  body?: unknown,
  idempotencyKey?: string,
): Promise<z.output<S>> {
  const envelope = await api.send<Envelope<unknown>>(method, path, { body, idempotencyKey });
  return checked(schema, `${method} ${path}`, envelope.data);
}

/** The product catalogue the campaigns are built from. */
export async function listTemplates(api: ApiClient, signal?: AbortSignal): Promise<Template[]> {
  return checked(z.array(templateSchema), 'GET /seller/product-templates', await api.get('/seller/product-templates', { signal }));
}

/** A 3D mockup template of the catalogue (bff/campaigns.Model): the GLB a product's print space is drawn on. */
const modelSchema = z.object({
  template_id: z.number().int(),
  print_space: z.string(),
  type_detail: z.string(),
  name: z.string(),
  url: z.string(),
});
export type Model3D = z.infer<typeof modelSchema>;

export async function listModels(api: ApiClient, signal?: AbortSignal): Promise<Model3D[]> {
  return checked(z.array(modelSchema), 'GET /seller/product-templates/models', await api.get('/seller/product-templates/models', { signal }));
}

/** The 3D model of a product's print space: its template's, for its mockup type or any. */
export function modelFor(models: readonly Model3D[], product: Pick<Product, 'template_id' | 'mockup_type'>, printSpace: string): Model3D | undefined {
  return models.find(
    (m) => m.template_id === product.template_id && m.print_space === printSpace && (m.type_detail === '' || m.type_detail === product.mockup_type),
  );
}

/** A page of the seller's campaigns, newest first. */
export async function listCampaigns(api: ApiClient, query: CampaignListQuery, signal?: AbortSignal): Promise<CampaignPage> {
  const page = await api.getPage<unknown>('/seller/campaigns', {
    query: { ...filterQuery(query), page: query.page ?? 1, per_page: CAMPAIGNS_PER_PAGE, order_by: 'id:desc' },
    signal,
  });
  return checked(campaignPageSchema, 'GET /seller/campaigns', page);
}

/** Every campaign the filters match, as a CSV or JSON file (streamed by the bff). */
export const exportCampaigns = (api: ApiClient, query: CampaignListQuery, format: 'csv' | 'json') =>
  api.download('/seller/campaigns/export', { query: { ...filterQuery(query), format } });

/** Whether a campaign (other than `except`) may take an address. */
export const checkCampaignSlug = (api: ApiClient, slug: string, except: number, signal?: AbortSignal) =>
  api.get<SlugCheck>('/seller/campaigns/slug-availability', { query: { slug, except }, signal });

/** Gives a campaign an address. */
export const setCampaignSlug = (api: ApiClient, id: number, slug: string) =>
  sendChecked(api, 'PUT', `/seller/campaigns/${id}/slug`, campaignSchema, { slug });

/** Makes a copy of a campaign, answered as the copy. */
export const duplicateCampaign = (api: ApiClient, id: number) =>
  sendChecked(api, 'POST', `/seller/campaigns/${id}/duplicate`, campaignSchema, undefined, newIdempotencyKey());

/** Archives a campaign (or brings it back); the envelope's message says what became of it. */
export const archiveCampaign = (api: ApiClient, id: number, archive: boolean) =>
  api.send<Envelope<{ id: number; status: CampaignStatus }>>('POST', `/seller/campaigns/${id}/${archive ? 'archive' : 'unarchive'}`);

/** One campaign; 'Campaign not found' (404) for another account's or a missing id. */
export async function getCampaign(api: ApiClient, id: number, signal?: AbortSignal): Promise<Campaign> {
  return checked(campaignSchema, `GET /seller/campaigns/${id}`, await api.get(`/seller/campaigns/${id}`, { signal }));
}

/** Creates a campaign with a product per template. */
export const createCampaign = (api: ApiClient, body: NewCampaign) =>
  sendChecked(api, 'POST', '/seller/campaigns', campaignSchema, body, newIdempotencyKey());

/** Saves the whole campaign; changed designs get a new revision and their print files are made again. */
export const saveCampaign = (api: ApiClient, id: number, body: CampaignUpdate) =>
  sendChecked(api, 'PUT', `/seller/campaigns/${id}`, campaignSchema, body);

/** Adds a product made from a template. */
export const addProduct = (api: ApiClient, id: number, templateId: number) =>
  sendChecked(api, 'POST', `/seller/campaigns/${id}/products`, campaignSchema, { template_id: templateId }, newIdempotencyKey());

/** Removes a product and its designs. */
export const removeProduct = (api: ApiClient, id: number, productId: number) =>
  sendChecked(api, 'DELETE', `/seller/campaigns/${id}/products/${productId}`, campaignSchema);

/** Deletes a campaign; answers the bff's message. */
export async function deleteCampaign(api: ApiClient, id: number): Promise<string> {
  return (await api.send<Envelope<unknown>>('DELETE', `/seller/campaigns/${id}`)).message;
}

/** The print file of every design of a campaign, polled after a save. */
export async function listExports(api: ApiClient, id: number, signal?: AbortSignal): Promise<DesignExport[]> {
  return checked(z.array(designExportSchema), `GET /seller/campaigns/${id}/exports`, await api.get(`/seller/campaigns/${id}/exports`, { signal }));
}

/** The flat mockups of a campaign's products, polled after a save while they are made. */
export async function listMockups(api: ApiClient, id: number, signal?: AbortSignal): Promise<Mockup[]> {
  return checked(z.array(mockupSchema), `GET /seller/campaigns/${id}/mockups`, await api.get(`/seller/campaigns/${id}/mockups`, { signal }));
}

/** Makes a mockup its product's default (one per product); answers the campaign's mockups. */
export const setDefaultMockup = (api: ApiClient, id: number, mockupId: number) =>
  sendChecked(api, 'PUT', `/seller/campaigns/${id}/default-mockup`, z.array(mockupSchema), { mockup_id: mockupId });

/** Queues a failed mockup again; answers the campaign's mockups, that one pending. */
export const retryMockup = (api: ApiClient, id: number, mockupId: number) =>
  sendChecked(api, 'POST', `/seller/campaigns/${id}/mockups/${mockupId}/retry`, z.array(mockupSchema));

/** The extra print cost per product, of the unsaved state `designs` when given, else of the stored designs. */
export const calcExtraPrintCost = (api: ApiClient, id: number, designs?: PrintSpaceObjects[]) =>
  sendChecked(
    api,
    'POST',
    `/seller/campaigns/${id}/calc-extra-print-cost-products`,
    extraPrintCostSchema,
    designs ? { designs } : undefined,
  );
