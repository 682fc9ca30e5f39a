// The product page's personalization fields as the preview reads them (docs/personalization.md): the buyer's answers
// from the form, the messages under the fields, and the document drawn.

import type { DesignDocument } from '../editor/document';
import { applyPersonalization, collect, photoWarning, type Answer } from '../editor/personalize';
import type { Point } from './quad';

/** What the page embeds in #pz-data (storefront/shop previewData). */
export type PreviewData = {
  product_id: number;
  /** The URL prefix of the product's fonts and pictures, followed by the URL-escaped key. */
  asset: string;
  designs: { print_space: string; doc: DesignDocument }[];
  mockup: { id: number; print_space: string; base: string; quad: [Point, Point, Point, Point] } | null;
};

/** A field of the form: its print space, object and kind, read from its data attributes. */
export type FieldEl = { el: HTMLElement; space: string; objectId: string; kind: string };

/** The canvas is drawn this many pixels wide (times the device's pixel ratio), then warped onto the mockup. */
export const CANVAS_WIDTH = 600;

/** A photo the buyer picked: a local URL and its size. */
export type Photo = { url: string; width: number; height: number };

/** The buyer's answers as the form holds them, re-read on every input. */
export function readAnswers(fields: FieldEl[], photos: ReadonlyMap<string, Photo>): Map<string, Record<string, Answer>> {
  const out = new Map<string, Record<string, Answer>>();
  for (const f of fields) {
    const answers = out.get(f.space) ?? {};
    out.set(f.space, answers);
    if (f.kind === 'dropdown') {
      const picked = f.el.querySelector<HTMLInputElement | HTMLSelectElement>('select, input[type=radio]:checked');
      if (picked) answers[f.objectId] = { choice: Number(picked.value) };
    } else if (f.kind === 'image') {
      const p = photos.get(`${f.space}\n${f.objectId}`);
      if (p) answers[f.objectId] = { photo: { key: p.url, width: p.width, height: p.height } };
    } else {
      const input = f.el.querySelector<HTMLInputElement>('input[type=text]');
      if (input) answers[f.objectId] = { text: input.value };
    }
  }
  return out;
}

/** The document drawn: the buyer's values in place (an optional field left empty leaves its object out). */
export function drawnDocument(doc: DesignDocument, space: string, answers: Record<string, Answer>): DesignDocument {
  // Drawing shows what the buyer has typed so far: every field counts as optional, and what the rules refuse is
  // said next to its field rather than drawn.
  const lenient: DesignDocument = {
    ...doc,
    objects: doc.objects.map((o) => (o.input ? { ...o, input: { ...o.input, required: false } } : o)),
  };
  const { personalization } = collect(lenient, space, answers);
  try {
    return applyPersonalization(lenient, space, personalization);
  } catch {
    return lenient;
  }
}

/** Shows each field's problem and photo warning under it, once the buyer has touched it. */
export function showMessages(fields: FieldEl[], data: PreviewData, answers: Map<string, Record<string, Answer>>, photos: ReadonlyMap<string, Photo>, touched: ReadonlySet<HTMLElement>) {
  for (const d of data.designs) {
    const { problems } = collect(d.doc, d.print_space, answers.get(d.print_space) ?? {});
    for (const f of fields.filter((x) => x.space === d.print_space)) {
      const error = f.el.querySelector<HTMLElement>('[data-pz-error]');
      const problem = problems.find((p) => p.objectId === f.objectId);
      if (error && touched.has(f.el) && f.kind === 'text') {
        error.textContent = problem?.message ?? '';
        error.hidden = !problem;
      }
      const warning = f.el.querySelector<HTMLElement>('[data-pz-warning]');
      const photo = photos.get(`${f.space}\n${f.objectId}`);
      if (warning && photo) {
        warning.textContent = photoWarning(d.doc, f.objectId, photo.width, photo.height);
        warning.hidden = warning.textContent === '';
      }
    }
  }
}


/** A store of the drawn documents that the preview subscribes to. */
export function createDocs(initial: DesignDocument) {
  let doc = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => doc,
    set: (next: DesignDocument) => {
      doc = next;
      listeners.forEach((l) => l());
    },
    subscribe: (l: () => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}

/** The drawn documents, as the preview reads them. */
export type DocStore = ReturnType<typeof createDocs>;
