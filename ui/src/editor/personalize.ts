// The buyer's personalization (docs/personalization.md): what a document asks a buyer for, how their answers are
// checked, how the values go into the document and where a picture goes inside its box. It is the twin of
// renderer/design (Fields, Collect, Apply, Fit), pinned by schema/testdata/twins/personalize.json: the store's
// preview draws what the renderer prints.

import { isCustomObject, type Charset, type Choice, type DesignDocument, type DesignObject, type ImageObject, type Input } from './document';
import { MESSAGES, checkTyped } from './buyerText';
import { effectiveDpi, qualityOf } from './model';

export { MESSAGES, checkTyped, isCustomObject };

/** One thing a buyer is asked for: a custom object of a document with its input resolved. */
export type Field = Readonly<{
  objectId: string;
  kind: Input['kind'];
  label: string;
  required: boolean;
  charset: Charset;
  /** Bounds typed text (0 for images). */
  maxLength: number;
  convertText: string;
  options: readonly Choice[];
  /** The seller's text or image source. */
  sample: string;
  image: boolean;
}>;

export type TextValue = Readonly<{ print_space: string; object_id: string; label: string; value: string }>;
export type ImageValue = Readonly<{
  print_space: string;
  object_id: string;
  label: string;
  key: string;
  choice?: string;
  width: number;
  height: number;
}>;

/** What a buyer gave, as the cart, the order and the review keep it. */
export type Personalization = Readonly<{ texts: readonly TextValue[]; images: readonly ImageValue[] }>;

/** A buyer's raw answer: typed text, a dropdown's option index (-1: none), or an uploaded photo. */
export type Answer = Readonly<{ text?: string; choice?: number; photo?: Readonly<{ key: string; width: number; height: number }> }>;

export type FieldProblem = Readonly<{ printSpace: string; objectId: string; message: string }>;

export const DEFAULT_LABELS = { text: 'Your text', photo: 'Your photo', pick: 'Your choice' } as const;

/** The document's custom objects in paint order, as the buyer fills them. */
export function fieldsOf(doc: DesignDocument): Field[] {
  const out: Field[] = [];
  for (const o of doc.objects) {
    if (!isCustomObject(o)) continue;
    const image = o.type === 'image';
    const input = o.input;
    const fallback = input?.kind === 'dropdown' ? DEFAULT_LABELS.pick : image ? DEFAULT_LABELS.photo : DEFAULT_LABELS.text;
    out.push({
      objectId: o.id,
      kind: input?.kind ?? (image ? 'image' : 'text'),
      label: input?.label || fallback,
      required: input?.required ?? false,
      charset: input?.charset ?? '',
      maxLength: o.type === 'text' ? (o.maxLength ?? 16) : 0,
      convertText: o.type === 'text' ? (o.convertText ?? '') : '',
      options: input?.options ?? [],
      sample: o.type === 'text' ? o.text : o.src,
      image,
    });
  }
  return out;
}

/**
 * Checks a buyer's answers (by object id) for the document of print space space and returns the personalization they
 * make and every problem. An optional field left unanswered gives no value (the object prints as designed); an optional
 * text answered empty gives an empty value, which leaves the object out.
 */
export function collect(
  doc: DesignDocument,
  space: string,
  answers: Readonly<Record<string, Answer>>,
): { personalization: Personalization; problems: FieldProblem[] } {
  const texts: TextValue[] = [];
  const images: ImageValue[] = [];
  const problems: FieldProblem[] = [];
  const refuse = (f: Field, message: string) => problems.push({ printSpace: space, objectId: f.objectId, message });
  for (const f of fieldsOf(doc)) {
    const answered = Object.hasOwn(answers, f.objectId);
    const a = answers[f.objectId] ?? {};
    if (f.kind === 'dropdown') {
      const i = a.choice ?? -1;
      const c = i >= 0 && i < f.options.length ? f.options[i] : undefined;
      if (!c) {
        refuse(f, MESSAGES.choose);
        continue;
      }
      if (f.image) {
        images.push({ print_space: space, object_id: f.objectId, label: f.label, key: c.src ?? '', choice: c.label, width: c.width ?? 0, height: c.height ?? 0 });
      } else {
        texts.push({ print_space: space, object_id: f.objectId, label: f.label, value: c.value ?? '' });
      }
    } else if (f.image) {
      const p = a.photo;
      if (!p || p.key === '' || p.width <= 0 || p.height <= 0) {
        if (f.required) refuse(f, MESSAGES.photoRequired);
        continue;
      }
      images.push({ print_space: space, object_id: f.objectId, label: f.label, key: p.key, width: p.width, height: p.height });
    } else {
      if (!answered && !f.required) continue;
      const text = a.text ?? '';
      const msg = checkTyped(text, f.charset, f.maxLength, f.required);
      if (msg !== '') {
        refuse(f, msg);
        continue;
      }
      texts.push({ print_space: space, object_id: f.objectId, label: f.label, value: text });
    }
  }
  return { personalization: { texts, images }, problems };
}

/** A personalization that no longer fits its document: the seller changed the design. */
export class StaleError extends Error {}

/**
 * The document of print space space with the buyer's values in place: a text gets its value (an empty one leaves the
 * object out), an image its picture fitted inside its box, and a custom object without a value stays as designed.
 * Throws StaleError when a value no longer fits the document.
 */
export function applyPersonalization(doc: DesignDocument, space: string, p: Personalization): DesignDocument {
  const texts = new Map(p.texts.filter((v) => v.print_space === space).map((v) => [v.object_id, v]));
  const images = new Map(p.images.filter((v) => v.print_space === space).map((v) => [v.object_id, v]));
  const fields = new Map(fieldsOf(doc).map((f) => [f.objectId, f]));
  const objects: DesignObject[] = [];
  let used = 0;
  for (const o of doc.objects) {
    const f = fields.get(o.id);
    if (!f) {
      objects.push(o);
      continue;
    }
    if (o.type === 'text') {
      const v = texts.get(o.id);
      if (!v) {
        if (f.kind === 'dropdown' || f.required) throw new StaleError(`${o.id} has no value`);
        objects.push(o);
        continue;
      }
      used++;
      if (f.kind === 'dropdown') {
        if (!f.options.some((c) => c.value === v.value)) throw new StaleError(`${v.value} is not an option of ${o.id}`);
      } else {
        const msg = checkTyped(v.value, f.charset, f.maxLength, f.required);
        if (msg !== '') throw new StaleError(`${o.id}: ${msg}`);
      }
      if (v.value !== '') objects.push({ ...o, text: v.value });
    } else {
      const v = images.get(o.id);
      if (!v) {
        if (f.kind === 'dropdown' || f.required) throw new StaleError(`${o.id} has no picture`);
        objects.push(o);
        continue;
      }
      used++;
      if (f.kind === 'dropdown' && !f.options.some((c) => c.src === v.key && c.width === v.width && c.height === v.height)) {
        throw new StaleError(`${v.key} is not an option of ${o.id}`);
      }
      if (v.key === '' || v.width <= 0 || v.height <= 0) throw new StaleError(`bad picture for ${o.id}`);
      objects.push({ ...o, src: v.key, ...fitPicture(o, v.width, v.height) });
    }
  }
  if (used !== texts.size + images.size) throw new StaleError('values for objects the design no longer has');
  return { ...doc, objects };
}

/**
 * Places a w x h picture inside an image's box: as large as fits keeping its aspect, centred, turned with the
 * box (which turns about its top-left corner).
 */
export function fitPicture(box: ImageObject, w: number, h: number): { x: number; y: number; width: number; height: number } {
  const s = Math.min(box.width / w, box.height / h);
  const width = w * s;
  const height = h * s;
  const dx = (box.width - width) / 2;
  const dy = (box.height - height) / 2;
  const r = ((box.rotation ?? 0) * Math.PI) / 180;
  const sin = Math.sin(r);
  const cos = Math.cos(r);
  return { x: box.x + dx * cos - dy * sin, y: box.y + dx * sin + dy * cos, width, height };
}

/**
 * What a buyer reads when their photo would print blurred: its effective DPI inside the object's box is below the
 * print space's minimum ('' when it is not, or the object is not a custom image).
 */
export function photoWarning(doc: DesignDocument, objectId: string, w: number, h: number): string {
  const box = doc.objects.find((o): o is ImageObject => o.type === 'image' && o.id === objectId && isCustomObject(o));
  if (!box || w <= 0 || h <= 0) return '';
  const placed = fitPicture(box, w, h);
  const ps = doc.printSpace;
  const eff = effectiveDpi({ width: w, height: h }, placed, ps.dpi);
  if (qualityOf(eff, ps.dpi, ps.minDpi) !== 'low') return '';
  return lowPhotoMessage(w, h, eff, ps.minDpi);
}

/** The message of photoWarning. */
export function lowPhotoMessage(w: number, h: number, effective: number, minDpi: number): string {
  return `This photo is ${w} × ${h} px: here it would print at ${Math.floor(effective)} DPI, below the ${minDpi} DPI a sharp print needs. Choose a larger photo.`;
}

/** A personalization as orders and reviews keep it: rows made before personalization inputs carry less. */
export type KeptPersonalization = Readonly<{
  texts?: readonly Readonly<{ label: string; value: string }>[];
  images?: readonly Readonly<{ label: string; key: string; choice?: string; width?: number; height?: number }>[];
}>;

/** What a buyer gave, in words, as the store, the order and the review list it ("Symbol: Star"). */
export function describeValues(p: KeptPersonalization): { label: string; value: string }[] {
  return [
    ...(p.texts ?? []).map((t) => ({ label: t.label, value: t.value === '' ? 'left empty' : t.value })),
    ...(p.images ?? []).map((i) => ({
      label: i.label,
      value: i.choice ? i.choice : i.width && i.height ? `photo, ${i.width} × ${i.height} px` : 'photo',
    })),
  ];
}
