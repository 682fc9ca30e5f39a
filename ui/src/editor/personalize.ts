// The buyer's personalization (docs/personalization.md): what a document asks a buyer for, how their answers are
// checked, how the values go into the document and where a picture goes inside its box. It is the twin of
// renderer/design (Fields, Collect, Apply, Fit), pinned by schema/testdata/twins/personalize.json: the store's
// preview draws what the renderer prints.

import type { Charset, Choice, DesignDocument, DesignObject, ImageObject, Input } from './document';

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

/** What a buyer reads next to a field they filled wrongly; renderer/design's messages. */
export const MESSAGES = {
  required: 'This field is required.',
  tooLong: (n: number) => `Use at most ${n} characters.`,
  oneLine: 'Use a single line of text.',
  letters: 'Use letters and spaces only.',
  alphanumeric: 'Use letters, digits and spaces only.',
  digits: 'Use digits only.',
  choose: 'Choose one of the options.',
  photoRequired: 'Upload a photo.',
} as const;

export const DEFAULT_LABELS = { text: 'Your text', photo: 'Your photo', pick: 'Your choice' } as const;

const LETTER = /[\p{L}\p{Mn}]/u;
const DIGIT = /\p{Nd}/u;

/** Whether charset lets a buyer type ch (one code point). */
export function allowedChar(charset: Charset | undefined, ch: string): boolean {
  switch (charset) {
    case 'letters':
      return ch === ' ' || LETTER.test(ch);
    case 'alphanumeric':
      return ch === ' ' || LETTER.test(ch) || DIGIT.test(ch);
    case 'digits':
      return ch >= '0' && ch <= '9';
    default:
      return true;
  }
}

/** The message for a typed text, or '' when it is fine; an empty text is refused only when required. */
export function checkTyped(s: string, charset: Charset | undefined, maxLength: number, required: boolean): string {
  if (s === '') return required ? MESSAGES.required : '';
  const chars = [...s];
  if (chars.some((c) => c < ' ' || c === '\u007f')) return MESSAGES.oneLine;
  if (chars.length > maxLength) return MESSAGES.tooLong(maxLength);
  if (chars.some((c) => !allowedChar(charset, c))) {
    return charset === 'letters' ? MESSAGES.letters : charset === 'alphanumeric' ? MESSAGES.alphanumeric : MESSAGES.digits;
  }
  return '';
}

/** Whether an object is the buyer's to fill. */
export function isCustomObject(o: DesignObject): boolean {
  return o.isCustom === true;
}

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
 * Checks a buyer's answers (by object id) for the document of print space space and returns the
 * personalization they make and every problem; optional texts and photos left empty are left out.
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
      const text = a.text ?? '';
      const msg = checkTyped(text, f.charset, f.maxLength, f.required);
      if (msg !== '') {
        refuse(f, msg);
        continue;
      }
      if (text !== '') texts.push({ print_space: space, object_id: f.objectId, label: f.label, value: text });
    }
  }
  return { personalization: { texts, images }, problems };
}

/** A personalization that no longer fits its document: the seller changed the design. */
export class StaleError extends Error {}

/**
 * The document of print space space with the buyer's values in place: a text gets its value, an image its
 * picture fitted inside its box, and a custom object left unanswered is left out. Throws StaleError when a
 * value no longer fits the document.
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
        continue;
      }
      used++;
      if (f.kind === 'dropdown') {
        if (!f.options.some((c) => c.value === v.value)) throw new StaleError(`${v.value} is not an option of ${o.id}`);
      } else if (checkTyped(v.value, f.charset, f.maxLength, true) !== '') {
        throw new StaleError(`${o.id}: ${checkTyped(v.value, f.charset, f.maxLength, true)}`);
      }
      objects.push({ ...o, text: v.value });
    } else {
      const v = images.get(o.id);
      if (!v) {
        if (f.kind === 'dropdown' || f.required) throw new StaleError(`${o.id} has no picture`);
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
