// The editing model of the design canvas: pure functions that take a design document and return a new one, never
// mutating their input. DesignCanvas draws what these return; the editor's state (state.ts) keeps the documents,
// their history and the sync between print spaces, and its actions (actions.ts) are the only way to change them.

import {
  DEFAULT_FONT_FAMILY,
  LIMITS,
  fontSizeBounds,
  isCustomObject,
  type DesignDocument,
  type DesignObject,
  type ImageObject,
  type Input,
  type PrintSpaceSpec,
  type TextObject,
} from '../document';
import type { Measure } from '../textLayout';

/** The editor's constants. */
export const EDITOR = {
  textMaxLength: LIMITS.maxTextLength,
  textsPerPrintArea: LIMITS.maxTexts,
  defaultText: 'Hello',
  defaultFont: DEFAULT_FONT_FAMILY,
  /** The size of a new text when it cannot be measured (defaultFontSize). */
  defaultFontSize: 100,
  /** A new text is this share of the print area wide. */
  textWidthRatio: 0.8,
  /** The centre snapping guide acts within this many print pixels. */
  snapDistance: 100,
  /** Replace keeps the placement when the aspect ratios differ by at most this. */
  aspectTolerance: 0.005,
  /** Canvas display width of product previews. */
  displayWidth: 500,
  /** Undo steps kept by default. */
  historyLimit: 100,
  defaultFill: '#000000',
} as const;

/** A product print space as the catalogue stores it (the fields the editor needs of the API's PrintSpace). */
export type ProductPrintSpace = {
  name: string;
  width: number;
  height: number;
  printType: number;
  DPI: number;
  minDPI: number;
  isMain?: boolean;
};

/** Natural (source) pixel size of an image. */
export type Size = { width: number; height: number };

/** A placement of an object as the canvas Transformer reports it, in print pixels. */
export type Box = { x: number; y: number; width: number; height?: number; rotation?: number; fontSize?: number };

/** Editing modes of the canvas. */
export type EditMode = { restricted: boolean; lockEdit?: boolean };

/** The document's print space spec for a product print space. */
export function printSpaceSpec(ps: ProductPrintSpace): PrintSpaceSpec {
  return {
    name: ps.name,
    width: ps.width,
    height: ps.height,
    dpi: ps.DPI,
    minDpi: ps.minDPI,
    printType: ps.printType,
  };
}

/** A document with no objects for a product print space. */
export function emptyDocument(ps: ProductPrintSpace): DesignDocument {
  return { version: 1, printSpace: printSpaceSpec(ps), objects: [] };
}

export { isCustomObject };

/**
 * Marks an object as the buyer's (docs/personalization.md) or unmarks it; an object that is no longer the buyer's
 * loses its input.
 */
export function setCustom(doc: DesignDocument, id: string, custom: boolean): DesignDocument {
  return mapObject(doc, id, (o) => {
    if (custom) return { ...o, isCustom: true };
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the mark and the input are dropped
    const { input, isCustom, ...rest } = o;
    return rest;
  });
}

/** Sets how the buyer fills a custom object (undefined: the default of its type), or does nothing to another. */
export function setInput(doc: DesignDocument, id: string, input: Input | undefined): DesignDocument {
  return mapObject(doc, id, (o) => {
    if (!isCustomObject(o)) return o;
    if (input) return { ...o, input };
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- dropped
    const { input: dropped, ...rest } = o;
    return rest;
  });
}

/** The first id of the form `${prefix}-N` not used in the document. */
export function nextId(doc: DesignDocument, prefix: string): string {
  const used = new Set(doc.objects.map((o) => o.id));
  for (let n = 1; ; n++) {
    if (!used.has(`${prefix}-${n}`)) return `${prefix}-${n}`;
  }
}

/** How far an image may be enlarged over its natural size: DPI / minDPI (2 for 300 and 150). */
export function scaleCap(ps: PrintSpaceSpec): number {
  return ps.dpi > 0 && ps.minDpi > 0 ? ps.dpi / ps.minDpi : Infinity;
}

/** The largest size of the given aspect that fits in w x h. */
function fitInside(natural: Size, w: number, h: number): Size {
  const s = Math.min(w / natural.width, h / natural.height);
  return { width: natural.width * s, height: natural.height * s };
}

/**
 * Adds an image fitted to the print area and centred; in restricted mode it is not enlarged beyond
 * DPI/minDPI times its natural size.
 */
export function addImage(
  doc: DesignDocument,
  image: { id: string; src: string; width: number; height: number; name?: string },
  opts: { restricted: boolean },
): DesignDocument {
  const { width: W, height: H } = doc.printSpace;
  let size = fitInside(image, W, H);
  if (opts.restricted) {
    const cap = scaleCap(doc.printSpace);
    if (size.width > image.width * cap) size = { width: image.width * cap, height: image.height * cap };
  }
  const obj: ImageObject = {
    type: 'image',
    id: image.id,
    ...(image.name ? { name: image.name } : {}),
    src: image.src,
    x: (W - size.width) / 2,
    y: (H - size.height) / 2,
    width: size.width,
    height: size.height,
    rotation: 0,
  };
  return { ...doc, objects: [...doc.objects, obj] };
}

/**
 * Swaps an image's source. When the new image's aspect ratio matches the placed box within
 * EDITOR.aspectTolerance the placement is kept; otherwise the new image is fitted inside the old box,
 * centred on it, with the same rotation. An image or a box without a size keeps the placement (there is no
 * ratio to compare). A bulk replace places artwork by the same rule (schema/testdata/twins/replace-placement.json).
 */
export function replaceImage(doc: DesignDocument, objectId: string, image: { src: string } & Size): DesignDocument {
  return mapObject(doc, objectId, (o) => {
    if (o.type !== 'image') return o;
    if (!(image.width > 0 && image.height > 0 && o.width > 0 && o.height > 0)) return { ...o, src: image.src };
    const oldAspect = o.width / o.height;
    const newAspect = image.width / image.height;
    if (Math.abs(oldAspect - newAspect) <= EDITOR.aspectTolerance) return { ...o, src: image.src };
    const size = fitInside(image, o.width, o.height);
    // The old box's centre, found in the rotated frame, stays where it is.
    const [cx, cy] = rotate(o.width / 2, o.height / 2, o.rotation ?? 0);
    const [dx, dy] = rotate(size.width / 2, size.height / 2, o.rotation ?? 0);
    return { ...o, src: image.src, width: size.width, height: size.height, x: o.x + cx - dx, y: o.y + cy - dy };
  });
}

/** The text objects of a document. */
export function texts(doc: DesignDocument): TextObject[] {
  return doc.objects.filter((o): o is TextObject => o.type === 'text');
}

/** Message of addText when the print area already holds its texts. */
export const TOO_MANY_TEXTS = 'A print area holds at most 2 texts.';

/**
 * The size at which the default text ('Hello' in Roboto) spans EDITOR.textWidthRatio of the print area's width,
 * within fontSizeBounds: a new text reads well on any print area. measure gives the text's width in ems;
 * without one (or when it measures nothing) the size is EDITOR.defaultFontSize.
 */
export function defaultFontSize(ps: PrintSpaceSpec, measure?: Measure): number {
  const em = measure?.(EDITOR.defaultText) ?? 0;
  const { min, max } = fontSizeBounds(ps);
  const size = em > 0 ? Math.floor((ps.width * EDITOR.textWidthRatio) / em) : EDITOR.defaultFontSize;
  return Math.min(max, Math.max(min, size));
}

/**
 * Adds a text with the defaults ('Hello', Roboto, 80% of the print area wide, centred, at the size given, else
 * EDITOR.defaultFontSize), or refuses a third text of the print area.
 */
export function addText(
  doc: DesignDocument,
  opts: Partial<Omit<TextObject, 'type'>> = {},
): { doc: DesignDocument } | { error: string } {
  if (texts(doc).length >= EDITOR.textsPerPrintArea) return { error: TOO_MANY_TEXTS };
  const { width: W, height: H } = doc.printSpace;
  const width = W * EDITOR.textWidthRatio;
  const fontSize = opts.fontSize ?? EDITOR.defaultFontSize;
  const base: TextObject = {
    type: 'text',
    id: opts.id ?? nextId(doc, 'text'),
    text: EDITOR.defaultText,
    fontFamily: EDITOR.defaultFont,
    fontSize,
    fill: EDITOR.defaultFill,
    x: (W - width) / 2,
    y: (H - fontSize) / 2,
    width,
    rotation: 0,
    textWidth: 'limited',
    textAlign: 'center',
    maxLength: EDITOR.textMaxLength,
    convertText: '',
    displayStyle: 'color',
    isCustom: false,
    ...opts,
  };
  const text: TextObject = { ...base, text: cleanText(base.text, base.maxLength ?? EDITOR.textMaxLength) };
  return { doc: { ...doc, objects: [...doc.objects, text] } };
}

/** The code points of s a text keeps: control characters other than line feeds are dropped. */
export function printable(s: string): string[] {
  return [...s].filter((r) => !((r < ' ' && r !== '\n') || r === '\u007f'));
}

/** Removes control characters other than line feeds and cuts the text at maxLength code points. */
export function cleanText(s: string, maxLength: number): string {
  return printable(s).slice(0, Math.min(maxLength, LIMITS.maxTextLength)).join('');
}

/** The most characters a text object holds: its maxLength, 16 at most. */
export function textLimit(o: Pick<TextObject, 'maxLength'>): number {
  return Math.min(o.maxLength ?? EDITOR.textMaxLength, EDITOR.textMaxLength);
}

/** What a text that was cut to its limit says. */
export function textCutMessage(limit: number, dropped: number): string {
  return `This text holds at most ${limit} characters: the last ${dropped === 1 ? 'character was' : `${dropped} characters were`} left out.`;
}

/**
 * Changes a text object; the text is cut at the object's maxLength (16 at most) and the font size kept within
 * fontSizeBounds.
 */
export function updateText(
  doc: DesignDocument,
  id: string,
  patch: Partial<Omit<TextObject, 'type' | 'id'>>,
): DesignDocument {
  const { min, max } = fontSizeBounds(doc.printSpace);
  return mapObject(doc, id, (o) => {
    if (o.type !== 'text') return o;
    const patched: TextObject = { ...o, ...patch };
    // A text that is no longer the buyer's loses its input (the document allows none).
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- dropped
    const { input, ...plain } = patched;
    const next: TextObject = patched.isCustom === true ? patched : plain;
    return { ...next, text: cleanText(next.text, textLimit(next)), fontSize: clamp(next.fontSize, min, max) };
  });
}

/**
 * Why restricted mode, or the document's bounds, refuse an object at `size` (print pixels; a text's height is one
 * font size per line): null when the size is allowed. Images in restricted mode stay within the print area and
 * within DPI/minDPI times their natural size (when it is known); a text's lines stay within fontSizeBounds, and in
 * restricted mode within the print area.
 */
export function sizeRefusal(
  ps: PrintSpaceSpec,
  o: DesignObject,
  size: { width: number; height: number },
  mode: { restricted: boolean; natural?: Size },
): string | null {
  const slack = 0.5;
  const { width: W, height: H } = ps;
  if (o.type === 'text') {
    const lines = o.text.split('\n').length;
    const max = fontSizeBounds(ps).max;
    if (size.height / lines > max + slack) {
      return `A text's size is at most ${max} px, the print area's height: a taller line would print outside it.`;
    }
  }
  if (!mode.restricted) return null;
  if (size.width > W + slack || size.height > H + slack) {
    return `Restricted mode keeps objects within the print area (${W} × ${H} px): this one cannot grow larger. Turn restricted mode off to go beyond it.`;
  }
  if (o.type === 'image' && mode.natural) {
    const maxWidth = Math.floor(mode.natural.width * scaleCap(ps));
    if (size.width > maxWidth + slack) {
      return (
        `This artwork is ${mode.natural.width} × ${mode.natural.height} px: wider than ${maxWidth} px it would print below ` +
        `${ps.minDpi} DPI, which restricted mode does not allow. Upload a larger file, or turn restricted mode off.`
      );
    }
  }
  return null;
}

/** Rotates (x, y) clockwise by deg degrees (the screen's y axis points down). */
function rotate(x: number, y: number, deg: number): [number, number] {
  const r = (deg * Math.PI) / 180;
  const c = Math.cos(r);
  const s = Math.sin(r);
  return [x * c - y * s, x * s + y * c];
}

/** Whether a rotation is a whole number of turns (the object is not rotated). */
export function isUnrotated(rotation: number | undefined): boolean {
  return Math.abs((rotation ?? 0) % 360) < 1e-9;
}

/** The unrotated height of an object: a text is one fontSize per line. */
export function objectHeight(o: DesignObject): number {
  return o.type === 'image' ? o.height : o.fontSize * o.text.split('\n').length;
}

/**
 * Applies a placement from the canvas. Lock-edit mode moves only the customer object (isCustomObject);
 * restricted mode keeps an unrotated object inside the print area, never larger than it, an image no larger
 * than DPI/minDPI times its natural size (when natural is given) and artwork rotation fixed.
 */
export function transformObject(
  doc: DesignDocument,
  id: string,
  box: Box,
  mode: EditMode & { natural?: Size },
): DesignDocument {
  const { width: W, height: H } = doc.printSpace;
  return mapObject(doc, id, (o) => {
    if (mode.lockEdit && !isCustomObject(o)) return o;
    if (o.type === 'image') {
      let width = box.width;
      let height = box.height ?? (o.height * box.width) / o.width;
      let rotation = box.rotation ?? o.rotation ?? 0;
      let { x, y } = box;
      if (mode.restricted) {
        rotation = o.rotation ?? 0;
        let shrink = Math.min(1, W / width, H / height);
        if (mode.natural) shrink = Math.min(shrink, (mode.natural.width * scaleCap(doc.printSpace)) / width);
        if (shrink < 1) {
          // Keep the box's centre when it must shrink, as a Transformer dragged past the limit would.
          x += (width - width * shrink) / 2;
          y += (height - height * shrink) / 2;
          width *= shrink;
          height *= shrink;
        }
        if (isUnrotated(rotation)) {
          x = clamp(x, 0, W - width);
          y = clamp(y, 0, H - height);
        }
      }
      return { ...o, x, y, width, height, rotation };
    }
    let width = box.width;
    const bounds = fontSizeBounds(doc.printSpace);
    let fontSize = clamp(box.fontSize ?? o.fontSize, bounds.min, bounds.max);
    const rotation = box.rotation ?? o.rotation ?? 0;
    let { x, y } = box;
    if (mode.restricted) {
      const lines = o.text.split('\n').length;
      width = Math.min(width, W);
      fontSize = Math.min(fontSize, H / lines);
      if (isUnrotated(rotation)) {
        x = clamp(x, 0, W - width);
        y = clamp(y, 0, H - fontSize * lines);
      }
    }
    return { ...o, x, y, width, fontSize, rotation };
  });
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(Math.max(v, lo), Math.max(lo, hi));
}

/** Removes an object. */
export function removeObject(doc: DesignDocument, id: string): DesignDocument {
  return { ...doc, objects: doc.objects.filter((o) => o.id !== id) };
}

/** Layer moves: one step up or down in paint order, or to the top or the bottom. */
export type LayerMove = 'up' | 'down' | 'top' | 'bottom';

/** Moves an object in paint order (later objects cover earlier ones). */
export function moveLayer(doc: DesignDocument, id: string, move: LayerMove): DesignDocument {
  const i = doc.objects.findIndex((o) => o.id === id);
  if (i < 0) return doc;
  const objects = [...doc.objects];
  const [obj] = objects.splice(i, 1) as [DesignObject];
  const last = objects.length;
  const to = { up: Math.min(i + 1, last), down: Math.max(i - 1, 0), top: last, bottom: 0 }[move];
  objects.splice(to, 0, obj);
  return { ...doc, objects };
}

/** Replaces one object through f; the document is returned as is when the id is unknown. */
function mapObject(doc: DesignDocument, id: string, f: (o: DesignObject) => DesignObject): DesignDocument {
  let changed = false;
  const objects = doc.objects.map((o) => {
    if (o.id !== id) return o;
    const next = f(o);
    changed ||= next !== o;
    return next;
  });
  return changed ? { ...doc, objects } : doc;
}

/** Resolution verdict of a design, as renderer/dpi computes it (schema/testdata/twins/dpi.json holds both to it). */
export type Quality = 'good' | 'normal' | 'low';

/** Effective DPI of a placed image: DPI times natural pixels per placed pixel, on the axis that gives less. */
export function effectiveDpi(natural: Size, placed: Size, dpi: number): number {
  let eff = Infinity;
  if (natural.width > 0 && placed.width > 0) eff = Math.min(eff, (dpi * natural.width) / placed.width);
  if (natural.height > 0 && placed.height > 0) eff = Math.min(eff, (dpi * natural.height) / placed.height);
  return Number.isFinite(eff) ? eff : 0;
}

const tolerance = 1e-9;

/** Rates an effective DPI: good from the midpoint of DPI and minDPI, low below minDPI, normal between. */
export function qualityOf(effective: number, dpi: number, minDpi: number): Quality {
  const mid = (dpi + minDpi) / 2;
  if (effective >= mid - tolerance * Math.abs(mid)) return 'good';
  if (effective < minDpi - tolerance * Math.abs(minDpi)) return 'low';
  return 'normal';
}

/**
 * The resolution badge: the lowest effective DPI over the images whose natural size is known and its
 * quality; null when there is no such image.
 */
export function resolution(
  doc: DesignDocument,
  naturals: Record<string, Size>,
): { quality: Quality; minDpi: number } | null {
  let min: number | null = null;
  for (const o of doc.objects) {
    const natural = o.type === 'image' ? naturals[o.src] : undefined;
    if (o.type !== 'image' || !natural) continue;
    const eff = effectiveDpi(natural, o, doc.printSpace.dpi);
    min = min === null ? eff : Math.min(min, eff);
  }
  if (min === null) return null;
  return { quality: qualityOf(min, doc.printSpace.dpi, doc.printSpace.minDpi), minDpi: min };
}

/**
 * Where an object's box centre would snap: within EDITOR.snapDistance of the print area's centre on an axis,
 * the box moves so its centre is on it. Works for rotated boxes (the centre is found in the rotated frame).
 */
export function snapToCentre(
  ps: PrintSpaceSpec,
  box: { x: number; y: number; width: number; height: number; rotation?: number },
  distance: number = EDITOR.snapDistance,
): { x: number; y: number; snapX: boolean; snapY: boolean } {
  const [hx, hy] = rotate(box.width / 2, box.height / 2, box.rotation ?? 0);
  const cx = box.x + hx;
  const cy = box.y + hy;
  const snapX = Math.abs(cx - ps.width / 2) <= distance;
  const snapY = Math.abs(cy - ps.height / 2) <= distance;
  return {
    x: snapX ? ps.width / 2 - hx : box.x,
    y: snapY ? ps.height / 2 - hy : box.y,
    snapX,
    snapY,
  };
}

/** One design of a campaign being edited: a product's print space and its document. */
export type DesignSlot = { productId: number; printSpace: ProductPrintSpace; doc: DesignDocument };

/** The key under which designs mirror each other outside combo campaigns: print space name and size. */
function mirrorKey(ps: ProductPrintSpace): string {
  return `${ps.name}:${ps.width}x${ps.height}`;
}

function sameArea(a: ProductPrintSpace, b: ProductPrintSpace): boolean {
  return a.width === b.width && a.height === b.height;
}

/** The objects of a document scaled to fit another print space, centred (for main print space sync). */
export function fitObjects(objects: readonly DesignObject[], from: PrintSpaceSpec, to: PrintSpaceSpec): DesignObject[] {
  const s = Math.min(to.width / from.width, to.height / from.height);
  const dx = (to.width - from.width * s) / 2;
  const dy = (to.height - from.height * s) / 2;
  return objects.map((o) =>
    o.type === 'image'
      ? { ...o, x: o.x * s + dx, y: o.y * s + dy, width: o.width * s, height: o.height * s }
      : { ...o, x: o.x * s + dx, y: o.y * s + dy, width: o.width * s, fontSize: Math.max(1, o.fontSize * s) },
  );
}

/**
 * Propagates the change of one design: in a combo campaign designs are unique per print space and
 * nothing else changes. Elsewhere, designs with the same key (mirrorKey) mirror it exactly; when it is a main
 * print space, the other main print spaces get its objects fitted to their size; and the other print spaces
 * of the same print area (same size) get its customer objects (isCustomObject), replacing theirs, within the
 * limit of texts per print area. Returns new slots; unaffected slots are returned as they were.
 */
export function syncDesigns(
  slots: DesignSlot[],
  changed: { productId: number; printSpace: string },
  opts: { combo: boolean },
): DesignSlot[] {
  const source = slots.find((s) => s.productId === changed.productId && s.printSpace.name === changed.printSpace);
  if (!source || opts.combo) return slots;
  const key = mirrorKey(source.printSpace);
  const customs = source.doc.objects.filter(isCustomObject);
  return slots.map((slot) => {
    if (slot === source) return slot;
    const target = slot.doc.printSpace;
    if (mirrorKey(slot.printSpace) === key) {
      return { ...slot, doc: { ...source.doc, printSpace: target, objects: [...source.doc.objects] } };
    }
    if (source.printSpace.isMain && slot.printSpace.isMain) {
      return { ...slot, doc: { ...slot.doc, objects: fitObjects(source.doc.objects, source.doc.printSpace, target) } };
    }
    if (sameArea(slot.printSpace, source.printSpace)) {
      const own = slot.doc.objects.filter((o) => !isCustomObject(o));
      let room = EDITOR.textsPerPrintArea - own.filter((o) => o.type === 'text').length;
      const copied = customs.filter((o) => o.type !== 'text' || room-- > 0);
      return { ...slot, doc: { ...slot.doc, objects: [...own, ...copied] } };
    }
    return slot;
  });
}
