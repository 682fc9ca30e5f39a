// The campaign editor's state, free of React: the campaign as the bff last answered it, the documents of every print
// space with their undo history, the unsaved campaign fields (the draft), what is selected and shown, and the editing
// modes. The actions (actions.ts) and the reducer (reducer.ts) turn one state into the next; nothing mutates one.

import type { Campaign, PrintSpace, Product } from '../../api/campaigns';
import {
  designKey,
  designableProducts,
  initialDocuments,
  orderedPrintSpaces,
  savedRevisions,
  type CampaignDraft,
  type Documents,
  type PlacedErrors,
} from '../../campaigns/editorState';
import type { DesignDocument, DesignObject } from '../document';
import { historyOf, record, type History } from './history';
import { emptyDocument, isCustomObject, syncDesigns, type DesignSlot, type Size } from './index';

/**
 * A refusal and the place that says it: 'texts' beside "Add text", 'text' under the selected text's words,
 * 'artwork' under the selected artwork's width.
 */
export type Refusal = Readonly<{ at: 'texts' | 'text' | 'artwork'; message: string }>;

export const NO_ERRORS: PlacedErrors = { products: {}, designs: {}, general: [] };

export type EditorState = Readonly<{
  /** The campaign as the bff last answered it (load, product change or save). */
  campaign: Campaign;
  /** The products the editor designs (designableProducts of the campaign's). */
  products: readonly Product[];
  combo: boolean;
  /** The documents by designKey; `history.present` is what the canvas shows. */
  history: History<Documents>;
  draft: CampaignDraft;
  /** What the last save sent (or what was loaded): the editor is dirty when it holds anything else. */
  saved: Readonly<{ docs: Documents; draft: CampaignDraft }>;
  productId: number;
  /** The print space shown; '' (or an unknown name) shows the product's first. */
  spaceName: string;
  selectedId: string | null;
  restricted: boolean;
  lockEdit: boolean;
  /** Why the last change was refused or cut, and where to say it, until the next change of selection or print space. */
  refusal: Refusal | null;
  /** The last save's errors, sorted to where they show. */
  errors: PlacedErrors;
  /** Natural sizes of artworks by src: from the export reports and the artworks placed since. */
  naturals: Readonly<Record<string, Size>>;
  /** The revision of each saved design: the exports the editor waits for. */
  revisions: Readonly<Record<number, number>>;
}>;

/** The natural sizes the export reports know, by src: a saved design's artwork is sized before it is picked again. */
function naturalsFromCampaign(campaign: Campaign): Record<string, Size> {
  const sizes: Record<string, Size> = {};
  for (const design of campaign.designs) {
    for (const o of design.export.report?.dpi.objects ?? []) {
      const image = design.design_json.objects.find((d) => d.id === o.id && d.type === 'image');
      if (image?.type === 'image') sizes[image.src] = { width: o.source_width, height: o.source_height };
    }
  }
  return sizes;
}

/** The state of a freshly loaded campaign: its first product's first print space, restricted mode on. */
export function initialState(campaign: Campaign): EditorState {
  const products = designableProducts(campaign.products);
  const docs = initialDocuments(campaign, products, emptyDocument);
  const draft: CampaignDraft = {
    name: campaign.name,
    personalized: campaign.personalized,
    productPersonalized: Object.fromEntries(campaign.products.map((p) => [p.id, p.personalized])),
  };
  const first = products[0];
  return {
    campaign,
    products,
    combo: campaign.kind === 'combo',
    history: historyOf(docs),
    draft,
    saved: { docs, draft },
    productId: first?.id ?? 0,
    spaceName: first ? (orderedPrintSpaces(first)[0]?.name ?? '') : '',
    selectedId: null,
    restricted: true,
    lockEdit: false,
    refusal: null,
    errors: NO_ERRORS,
    naturals: naturalsFromCampaign(campaign),
    revisions: savedRevisions(campaign),
  };
}

/** The documents the editor holds now. */
export const documentsOf = (state: EditorState): Documents => state.history.present;

/** Whether anything differs from what was loaded or last saved. */
export const isDirty = (state: EditorState): boolean =>
  state.history.present !== state.saved.docs || state.draft !== state.saved.draft;

/** What the editor shows: the product, its print spaces, the print space and its document. */
export type Focus = Readonly<{
  product: Product;
  spaces: readonly PrintSpace[];
  space: PrintSpace;
  key: string;
  doc: DesignDocument;
}>;

/** The product and print space shown, with its document; null when the campaign has nothing to design. */
export function focusOf(state: EditorState): Focus | null {
  const product = state.products.find((p) => p.id === state.productId) ?? state.products[0];
  if (!product) return null;
  const spaces = orderedPrintSpaces(product);
  const space = spaces.find((ps) => ps.name === state.spaceName) ?? spaces[0];
  if (!space) return null;
  const key = designKey(product.id, space.name);
  return { product, spaces, space, key, doc: documentsOf(state)[key] ?? emptyDocument(space) };
}

/** The selected object of the shown document. */
export function selectedOf(state: EditorState): DesignObject | null {
  return focusOf(state)?.doc.objects.find((o) => o.id === state.selectedId) ?? null;
}

/** Whether the canvas may move, resize or delete an object: lock-edit mode leaves only the customer object free. */
export function isMovable(state: EditorState, o: DesignObject): boolean {
  return !state.lockEdit || isCustomObject(o);
}

function slotsOf(products: readonly Product[], docs: Documents): DesignSlot[] {
  return products.flatMap((product) =>
    orderedPrintSpaces(product).map((ps) => ({
      productId: product.id,
      printSpace: ps,
      doc: docs[designKey(product.id, ps.name)] ?? emptyDocument(ps),
    })),
  );
}

/**
 * Records `next` as the shown print space's document, one undo step, and propagates it to the designs that follow
 * it (model.syncDesigns). The state is returned as it is when nothing changed.
 */
export function edit(state: EditorState, next: DesignDocument): EditorState {
  const focus = focusOf(state);
  const docs = documentsOf(state);
  if (!focus || next === docs[focus.key]) return state;
  const slots = slotsOf(state.products, { ...docs, [focus.key]: next });
  const synced = syncDesigns(slots, { productId: focus.product.id, printSpace: focus.space.name }, { combo: state.combo });
  const nextDocs: Documents = Object.fromEntries(synced.map((s) => [designKey(s.productId, s.printSpace.name), s.doc]));
  return { ...state, history: record(state.history, nextDocs) };
}

/**
 * The campaign after a product was added or removed: the documents of the products that stay keep their unsaved
 * work, the history starts again (old steps would name missing designs), and an added product is shown.
 */
export function adoptProducts(state: EditorState, next: Campaign, op: { add: number } | { remove: number }): EditorState {
  const products = designableProducts(next.products);
  const docs = documentsOf(state);
  const fresh = initialDocuments(next, products, emptyDocument);
  const merged: Documents = Object.fromEntries(Object.entries(fresh).map(([k, d]) => [k, docs[k] ?? d]));
  let productId = state.productId;
  if ('add' in op) {
    const added = next.products.find((p) => !state.campaign.products.some((old) => old.id === p.id));
    if (added) productId = added.id;
  } else if (op.remove === state.productId) productId = next.products[0]?.id ?? 0;
  return {
    ...state,
    campaign: next,
    products,
    history: historyOf(merged),
    productId,
    draft: {
      ...state.draft,
      productPersonalized: Object.fromEntries(
        next.products.map((p) => [p.id, state.draft.productPersonalized[p.id] ?? p.personalized]),
      ),
    },
  };
}

/** The state after a save of `sent` succeeded with the campaign `next`. */
export function markSaved(state: EditorState, next: Campaign, sent: EditorState['saved']): EditorState {
  return {
    ...state,
    campaign: next,
    products: designableProducts(next.products),
    saved: sent,
    errors: NO_ERRORS,
    revisions: savedRevisions(next),
  };
}
