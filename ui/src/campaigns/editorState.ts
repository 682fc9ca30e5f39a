// The campaign editor's page logic that is not the canvas: which designs a campaign has, what a save sends,
// which rules a save must pass first, where the bff's field errors belong and how far the exports are.
import type { FieldError } from '../api';
import {
  printSpacesOf,
  type Campaign,
  type CampaignUpdate,
  type DesignExport,
  type PrintSpace,
  type PrintSpaceObjects,
  type Product,
} from '../api/campaigns';
import { validateDocument, type DesignDocument } from '../editor/document';

/** The designs the editor holds, by designKey. */
export type Documents = Readonly<Record<string, DesignDocument>>;

/** The key of the design of a product's print space. */
export const designKey = (productId: number, printSpace: string) => `${productId}:${printSpace}`;

/** The print type "handmade": such products are left out of the personalized match rule. */
const FULL_PRINTED_HANDMADE = 1;

/** The messages the bff sends for the same rules, word for word. */
export const MESSAGES = {
  designPerProduct: 'Every product needs at least one design.',
  personalizedMismatch: "Campaign's personalized should be matched with products's personalized.",
  noMainPrintSpace: 'No main print space',
} as const;

/** A product's print spaces, main ones first, otherwise in the template's order. */
export function orderedPrintSpaces(product: Pick<Product, 'name' | 'print_spaces'>): PrintSpace[] {
  const spaces = printSpacesOf(product);
  return [...spaces.filter((ps) => ps.isMain), ...spaces.filter((ps) => !ps.isMain)];
}

/**
 * The products the editor designs: it skips a product without a main print space and logs
 * "No main print space" (the campaign keeps it; it just cannot be designed here).
 */
export function designableProducts(products: readonly Product[], log: (message: string) => void = console.warn): Product[] {
  return products.filter((product) => {
    if (printSpacesOf(product).some((ps) => ps.isMain)) return true;
    log(`${MESSAGES.noMainPrintSpace}: ${product.name} (product ${product.id})`);
    return false;
  });
}

/** Every print space of the products with its saved document, or an empty one made by `empty`. */
export function initialDocuments(
  campaign: Pick<Campaign, 'designs'>,
  products: readonly Product[],
  empty: (ps: PrintSpace) => DesignDocument,
): Documents {
  const docs: Record<string, DesignDocument> = {};
  for (const product of products) {
    for (const ps of orderedPrintSpaces(product)) {
      const saved = campaign.designs.find((d) => d.product_id === product.id && d.print_space === ps.name);
      docs[designKey(product.id, ps.name)] = saved ? saved.design_json : empty(ps);
    }
  }
  return docs;
}

/** The designs a save sends: the print spaces holding at least one object, in product and print-space order. */
function designsToSave(products: readonly Product[], docs: Documents): CampaignUpdate['designs'] {
  return products.flatMap((product) =>
    orderedPrintSpaces(product).flatMap((ps) => {
      const doc = docs[designKey(product.id, ps.name)];
      return doc && doc.objects.length > 0 ? [{ product_id: product.id, print_space: ps.name, design_json: doc }] : [];
    }),
  );
}

/** The object count per print space, the unsaved state calc-extra-print-cost-products prices. */
export function objectCounts(products: readonly Product[], docs: Documents): PrintSpaceObjects[] {
  return products.flatMap((product) =>
    orderedPrintSpaces(product).map((ps) => ({
      product_id: product.id,
      print_space: ps.name,
      objects: docs[designKey(product.id, ps.name)]?.objects.length ?? 0,
    })),
  );
}

/**
 * The personalized match rule: among products that are not handmade, every product's personalized
 * equals the first one's, and the campaign's when it is given.
 */
export function personalizedMatches(campaign: boolean | null, products: readonly { personalized: boolean; full_printed: number }[]): boolean {
  const counted = products.filter((p) => p.full_printed !== FULL_PRINTED_HANDMADE);
  const first = counted[0];
  if (!first) return true;
  if (counted.some((p) => p.personalized !== first.personalized)) return false;
  return campaign === null || campaign === first.personalized;
}

/** What the editor holds of the campaign besides the documents. */
export interface CampaignDraft {
  name: string;
  personalized: boolean | null;
  /** The personalized flag of each product, by campaign product id. */
  productPersonalized: Readonly<Record<number, boolean>>;
}

/** The body of the save (PUT /campaigns/{id}). */
export function saveBody(products: readonly Product[], draft: CampaignDraft, docs: Documents): CampaignUpdate {
  return {
    name: draft.name.trim(),
    personalized: draft.personalized,
    products: products.map((p) => ({ id: p.id, personalized: draft.productPersonalized[p.id] ?? p.personalized })),
    designs: designsToSave(products, docs),
  };
}

/**
 * The rules a save must pass before it is sent, with the bff's field paths: a name, a design with an
 * object on every product, the personalized match rule and every document's own rules.
 */
export function checkBeforeSave(products: readonly Product[], body: CampaignUpdate): FieldError[] {
  const errors: FieldError[] = [];
  if (body.name === '') errors.push({ field: 'name', message: 'The name field is required.' });
  products.forEach((product, i) => {
    if (!body.designs.some((d) => d.product_id === product.id)) {
      errors.push({ field: `products[${i}]`, message: MESSAGES.designPerProduct });
    }
  });
  const flags = products.map((p, i) => ({ full_printed: p.full_printed, personalized: body.products[i]?.personalized ?? p.personalized }));
  if (!personalizedMatches(body.personalized, flags)) errors.push({ field: 'personalized', message: MESSAGES.personalizedMismatch });
  body.designs.forEach((design, i) => {
    for (const problem of validateDocument(design.design_json)) {
      const field = `designs[${i}].design_json${problem.field ? `.${problem.field}` : ''}`;
      errors.push({ field, message: problem.message });
    }
  });
  return errors;
}

/** Field errors of a save sorted to where the editor shows them. */
export interface PlacedErrors {
  name?: string;
  personalized?: string;
  /** By campaign product id. */
  products: Record<number, string[]>;
  /** By designKey; each message names the object it is about when the field does. */
  designs: Record<string, string[]>;
  /** Errors that belong nowhere more precise: shown as a toast. */
  general: string[];
}

const PRODUCT_FIELD = /^products\[(\d+)\]/;
const DESIGN_FIELD = /^designs\[(\d+)\](?:\.design_json(?:\.objects\[(\d+)\])?(?:\.(.+))?)?/;

function push(map: Record<string | number, string[]>, key: string | number, message: string) {
  (map[key] ??= []).push(message);
}

/**
 * Sorts field errors (the bff's 422 or checkBeforeSave's) onto the name, the products and the designs
 * of `body`, the request they answer. An object's error is prefixed with its name or id and its field.
 */
export function placeErrors(errors: readonly FieldError[], products: readonly Product[], body: CampaignUpdate): PlacedErrors {
  const placed: PlacedErrors = { products: {}, designs: {}, general: [] };
  for (const error of errors) {
    const field = error.field ?? '';
    const product = PRODUCT_FIELD.exec(field);
    const design = DESIGN_FIELD.exec(field);
    if (field === 'name') placed.name ??= error.message;
    else if (field === 'personalized') placed.personalized ??= error.message;
    else if (product && products[Number(product[1])]) push(placed.products, products[Number(product[1])]!.id, error.message);
    else if (design && body.designs[Number(design[1])]) {
      const target = body.designs[Number(design[1])]!;
      const object = design[2] !== undefined ? target.design_json.objects[Number(design[2])] : undefined;
      const about = object ? `${object.name || object.id}${design[3] ? ` (${design[3]})` : ''}: ` : '';
      push(placed.designs, designKey(target.product_id, target.print_space), `${about}${error.message}`);
    } else placed.general.push(error.message);
  }
  return placed;
}

/** How far the print files of a save are. */
export interface ExportProgress {
  total: number;
  done: number;
  failed: number;
  /** Every export is done, failed or was never asked for ('none'): polling stops. */
  settled: boolean;
}

/** The progress of the exports the editor waits for (designs of `revisions` at least at those revisions). */
export function exportProgress(exports: readonly DesignExport[], revisions: Readonly<Record<number, number>>): ExportProgress {
  const waited = exports.filter((e) => revisions[e.design_id] !== undefined);
  const current = waited.filter((e) => e.revision >= (revisions[e.design_id] ?? 0));
  const done = current.filter((e) => e.status === 'done').length;
  const failed = current.filter((e) => e.status === 'failed').length;
  const idle = current.filter((e) => e.status === 'none').length;
  return { total: waited.length, done, failed, settled: current.length === waited.length && done + failed + idle === waited.length };
}

/** How often the export list is polled while a save's print files are being made. */
export const EXPORT_POLL_MS = 1000;

/** The export list's refetch interval: EXPORT_POLL_MS until the waited exports settle, then none. */
export function exportPollInterval(exports: readonly DesignExport[] | undefined, revisions: Readonly<Record<number, number>>): number | false {
  if (Object.keys(revisions).length === 0) return false;
  if (!exports) return EXPORT_POLL_MS;
  return exportProgress(exports, revisions).settled ? false : EXPORT_POLL_MS;
}

/** The revision of each design of a saved campaign, by design id: what the editor waits for after a save. */
export function savedRevisions(campaign: Pick<Campaign, 'designs'>): Record<number, number> {
  return Object.fromEntries(campaign.designs.map((d) => [d.id, d.revision]));
}

/** A byte count for people: "812 KB", "14.2 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
