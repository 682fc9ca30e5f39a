// The design document of DESIGN.md (schema/design.schema.json): what the editor edits and the Go renderer
// (renderer/design.Parse) reads. validateDocument mirrors the Go parser's rules and field paths, so the editor
// refuses exactly what the bff would.

import { checkTyped } from './buyerText';

/** Limits of the document, the same numbers as renderer/design and the schema. */
export const LIMITS = {
  version: 1,
  maxPrintSize: 20000,
  maxDpi: 2400,
  maxObjects: 50,
  maxTexts: 2,
  maxTextLength: 16,
  maxCoordinate: 200000,
  maxRotation: 360,
  minFontSize: 1,
  maxFontSize: 10000,
  maxPrintType: 3,
  maxIdLength: 100,
  maxSourceLength: 2048,
  maxChoices: 30,
  maxChoicePixels: 100000,
} as const;

/**
 * The font sizes a text may have in a print space: from LIMITS.minFontSize to the print space's height (a line
 * taller than the print area is drawn outside it) and never beyond LIMITS.maxFontSize. validateDocument and the
 * renderer refuse anything else; the editor's inputs and handles stay inside.
 */
export function fontSizeBounds(ps: Readonly<{ height: number }>): { min: number; max: number } {
  return { min: LIMITS.minFontSize, max: Math.max(LIMITS.minFontSize, Math.min(LIMITS.maxFontSize, ps.height)) };
}

/** The print type of full 3D (all-over) products. */
export const PRINT_TYPE_FULL_3D = 2;

/** The font every text falls back to; it ships with the renderer. */
export const DEFAULT_FONT_FAMILY = 'Roboto';

/** The print space a document is designed for. */
export type PrintSpaceSpec = Readonly<{
  name?: string;
  width: number;
  height: number;
  dpi: number;
  minDpi: number;
  printType?: number;
}>;

/** Placed artwork: (x, y) is the top-left corner of the unrotated box and the rotation pivot (Konva offset 0). */
export type ImageObject = Readonly<{
  type: 'image';
  id: string;
  name?: string;
  src: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Clockwise degrees. */
  rotation?: number;
  /** The buyer's image: a photo they upload or a picture they choose, placed inside this box (personalize.ts). */
  isCustom?: boolean;
  /** How the buyer fills a custom image; none: an uploaded photo. */
  input?: Input;
}>;

/** Input kinds: a text takes text or dropdown, an image image or dropdown. */
export type InputKind = 'text' | 'dropdown' | 'image';
/** What a buyer may type into a text input: '' is any printable character. */
export type Charset = '' | 'letters' | 'alphanumeric' | 'digits';

/** One option of a dropdown: a text's value, or an image's src with its natural size. */
export type Choice = Readonly<{ label: string; value?: string; src?: string; width?: number; height?: number }>;

/** How a buyer fills one customer object (docs/personalization.md); the twin of renderer/design.Input. */
export type Input = Readonly<{
  kind: InputKind;
  label?: string;
  required?: boolean;
  charset?: Charset;
  options?: readonly Choice[];
}>;

export type TextWidthMode = 'limited' | 'fixed' | 'flexible';
export type TextAlign = 'left' | 'center' | 'right';
export type ConvertText = '' | 'capitalize' | 'uppercase' | 'lowercase';
export type DisplayStyle = 'color' | 'transparent' | 'image_background';

/** A line (or a few lines) of text, usually customer-editable. */
export type TextObject = Readonly<{
  type: 'text';
  id: string;
  name?: string;
  text: string;
  fontFamily?: string;
  fontUrl?: string;
  fontSize: number;
  /** '#rgb', '#rrggbb' or '#rrggbbaa'; required when displayStyle is color. */
  fill?: string;
  x: number;
  y: number;
  width: number;
  rotation?: number;
  textWidth: TextWidthMode;
  textAlign?: TextAlign;
  maxLength?: number;
  convertText?: ConvertText;
  displayStyle: DisplayStyle;
  backgroundUrl?: string;
  isCustom?: boolean;
  /** How the buyer fills a custom text; none: typed text. */
  input?: Input;
}>;

export type DesignObject = ImageObject | TextObject;

/** Whether an object is the buyer's to fill (docs/personalization.md). */
export function isCustomObject(o: DesignObject): boolean {
  return o.isCustom === true;
}

/** One product print space's design. Coordinates are print-file pixels; objects paint in order. */
export type DesignDocument = Readonly<{
  version: 1;
  printSpace: PrintSpaceSpec;
  objects: readonly DesignObject[];
}>;

/** One thing wrong with a document: field is a path such as "objects[1].textWidth", '' for the whole. */
export type Problem = { field: string; message: string };

/** Where a src, fontUrl or backgroundUrl points; the rule of renderer/design.SourceKindOf. */
export type SourceKind = 'invalid' | 'url' | 'blob key' | 'relative path';

const keyRune = /^[A-Za-z0-9._\-=@+~]$/;

/** Classifies a source the way renderer/design.SourceKindOf does (purely syntactic). */
export function sourceKindOf(s: string): SourceKind {
  const runes = [...s];
  if (s === '' || runes.length > LIMITS.maxSourceLength) return 'invalid';
  if (runes.some((r) => r < ' ' || r === '\u007f')) return 'invalid';
  for (const scheme of ['http://', 'https://']) {
    if (s.startsWith(scheme)) {
      const rest = s.slice(scheme.length);
      if (rest === '' || rest.startsWith('/') || s.includes(' ') || s.includes('\\')) return 'invalid';
      return 'url';
    }
  }
  if (s.startsWith('./') || s.startsWith('../')) {
    if (s.includes('\\') || s.endsWith('/') || s.includes('//')) return 'invalid';
    return 'relative path';
  }
  for (const seg of s.split('/')) {
    if (seg === '' || seg === '.' || seg === '..') return 'invalid';
    if (![...seg].every((r) => keyRune.test(r))) return 'invalid';
  }
  return 'blob key';
}

const fillPattern = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/** The number of Unicode code points of s, which is how maxLength counts. */
export function codePoints(s: string): number {
  return [...s].length;
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'object':
      return 'object';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return 'number';
  }
  return 'nothing';
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function num(v: number): string {
  return String(v);
}

/** One JSON object being read; every key read is marked so the rest can be reported as unknown. */
class Fields {
  private readonly used = new Set<string>();

  constructor(
    readonly problems: Problem[],
    readonly path: string,
    readonly vals: Record<string, unknown>,
  ) {}

  add(key: string, message: string) {
    this.problems.push({ field: join(this.path, key), message });
  }

  has(key: string): boolean {
    return Object.hasOwn(this.vals, key);
  }

  get(key: string, required: boolean): { present: boolean; value: unknown } {
    this.used.add(key);
    if (!this.has(key)) {
      if (required) this.add(key, 'required');
      return { present: false, value: undefined };
    }
    return { present: true, value: this.vals[key] };
  }

  str(key: string, required: boolean): string | undefined {
    const { present, value } = this.get(key, required);
    if (!present) return undefined;
    if (typeof value !== 'string') {
      this.add(key, `want string, got ${kindOf(value)}`);
      return undefined;
    }
    return value;
  }

  number(key: string, required: boolean): number | undefined {
    const { present, value } = this.get(key, required);
    if (!present) return undefined;
    if (typeof value !== 'number') {
      this.add(key, `want number, got ${kindOf(value)}`);
      return undefined;
    }
    if (!Number.isFinite(value)) {
      this.add(key, 'number out of range');
      return undefined;
    }
    return value;
  }

  integer(key: string, required: boolean): number | undefined {
    if (this.has(key) && typeof this.vals[key] !== 'number') {
      this.get(key, required);
      this.add(key, `want integer, got ${kindOf(this.vals[key])}`);
      return undefined;
    }
    const v = this.number(key, required);
    if (v === undefined) return undefined;
    if (!Number.isInteger(v)) {
      this.add(key, `want integer, got ${num(v)}`);
      return undefined;
    }
    return v;
  }

  boolean(key: string): boolean | undefined {
    const { present, value } = this.get(key, false);
    if (!present) return undefined;
    if (typeof value !== 'boolean') {
      this.add(key, `want boolean, got ${kindOf(value)}`);
      return undefined;
    }
    return value;
  }

  inRange(key: string, v: number, lo: number, hi: number): boolean {
    if (v < lo || v > hi) {
      this.add(key, `must be between ${num(lo)} and ${num(hi)}, got ${num(v)}`);
      return false;
    }
    return true;
  }

  positive(key: string, v: number, hi: number): boolean {
    if (v <= 0 || v > hi) {
      this.add(key, `must be greater than 0 and at most ${num(hi)}, got ${num(v)}`);
      return false;
    }
    return true;
  }

  oneOf(key: string, v: string, ...allowed: string[]): boolean {
    if (allowed.includes(v)) return true;
    const named = allowed.filter((a) => a !== '');
    const want = named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} or ${named[named.length - 1]}`;
    this.add(key, `unknown value ${JSON.stringify(v)} (want ${want})`);
    return false;
  }

  shortString(key: string, required: boolean): string {
    const s = this.str(key, required);
    if (s === undefined) return '';
    if (required && s === '') this.add(key, 'must not be empty');
    const n = codePoints(s);
    if (n > LIMITS.maxIdLength) this.add(key, `${n} characters, longer than ${LIMITS.maxIdLength}`);
    return s;
  }

  source(key: string, required: boolean): string {
    const s = this.str(key, required);
    if (s === undefined) return '';
    if (s === '') {
      if (required) this.add(key, 'must not be empty');
      return '';
    }
    if (sourceKindOf(s) === 'invalid') {
      this.add(key, 'not a blob key, an http(s) URL or a path starting with ./ or ../');
    }
    return s;
  }

  unknown() {
    for (const k of Object.keys(this.vals)) {
      if (!this.used.has(k)) this.add(k, 'unknown field');
    }
  }
}

function readObject(problems: Problem[], path: string, raw: unknown): Fields | undefined {
  const k = kindOf(raw);
  if (k !== 'object') {
    problems.push({ field: path, message: `want object, got ${k}` });
    return undefined;
  }
  return new Fields(problems, path, raw as Record<string, unknown>);
}

/** Checks the print space; returns its height when valid (0 otherwise), which bounds the texts' font size. */
function checkPrintSpace(problems: Problem[], raw: unknown): number {
  const f = readObject(problems, 'printSpace', raw);
  if (!f) return 0;
  f.shortString('name', false);
  const w = f.integer('width', true);
  if (w !== undefined) f.inRange('width', w, 1, LIMITS.maxPrintSize);
  const h = f.integer('height', true);
  const height = h !== undefined && f.inRange('height', h, 1, LIMITS.maxPrintSize) ? h : 0;
  const dpi = f.number('dpi', true);
  const dpiOK = dpi !== undefined && f.inRange('dpi', dpi, 1, LIMITS.maxDpi);
  const minDpi = f.number('minDpi', true);
  if (minDpi !== undefined && f.inRange('minDpi', minDpi, 1, LIMITS.maxDpi) && dpiOK && minDpi > dpi) {
    f.add('minDpi', `must not exceed dpi (${num(dpi)}), got ${num(minDpi)}`);
  }
  const pt = f.integer('printType', false);
  if (pt !== undefined) f.inRange('printType', pt, 0, LIMITS.maxPrintType);
  f.unknown();
  return height;
}

function checkPlacement(f: Fields) {
  const x = f.number('x', true);
  if (x !== undefined) f.inRange('x', x, -LIMITS.maxCoordinate, LIMITS.maxCoordinate);
  const y = f.number('y', true);
  if (y !== undefined) f.inRange('y', y, -LIMITS.maxCoordinate, LIMITS.maxCoordinate);
  const r = f.number('rotation', false);
  if (r !== undefined) f.inRange('rotation', r, -LIMITS.maxRotation, LIMITS.maxRotation);
}

function checkImage(f: Fields) {
  f.shortString('id', true);
  f.shortString('name', false);
  f.source('src', true);
  checkPlacement(f);
  const w = f.number('width', true);
  if (w !== undefined) f.positive('width', w, LIMITS.maxCoordinate);
  const h = f.number('height', true);
  if (h !== undefined) f.positive('height', h, LIMITS.maxCoordinate);
  checkInput(f, f.boolean('isCustom') === true, true, 0);
}

/**
 * Checks an object's "input": only a custom object has one; an image takes the kinds image and dropdown, a
 * text text and dropdown; maxLength bounds a text's choices.
 */
function checkInput(f: Fields, custom: boolean, image: boolean, maxLength: number) {
  const { present, value } = f.get('input', false);
  if (!present) return;
  if (!custom) {
    f.add('input', 'only an object with isCustom true has an input');
    return;
  }
  const g = readObject(f.problems, join(f.path, 'input'), value);
  if (!g) return;
  const kinds = image ? ['image', 'dropdown'] : ['text', 'dropdown'];
  const kindRaw = g.str('kind', true);
  const kind = kindRaw !== undefined && g.oneOf('kind', kindRaw, ...kinds) ? kindRaw : '';
  g.shortString('label', false);
  g.boolean('required');
  const charset = g.str('charset', false);
  if (charset !== undefined) {
    if (image || kind !== 'text') g.add('charset', 'only typed text has a charset');
    else g.oneOf('charset', charset, '', 'letters', 'alphanumeric', 'digits');
  }
  const opts = g.get('options', kind === 'dropdown');
  if (opts.present && kind !== 'dropdown') g.add('options', 'only a dropdown has options');
  else if (opts.present) checkChoices(g, opts.value, image, maxLength);
  g.unknown();
}

function checkChoices(f: Fields, raw: unknown, image: boolean, maxLength: number) {
  const path = join(f.path, 'options');
  if (!Array.isArray(raw)) {
    f.add('options', `want array, got ${kindOf(raw)}`);
    return;
  }
  if (raw.length === 0 || raw.length > LIMITS.maxChoices) {
    f.add('options', `${raw.length} options, want 1 to ${LIMITS.maxChoices}`);
    return;
  }
  raw.forEach((item, i) => {
    const g = readObject(f.problems, `${path}[${i}]`, item);
    if (!g) return;
    g.shortString('label', true);
    if (image) {
      g.source('src', true);
      const w = g.integer('width', true);
      if (w !== undefined) g.positive('width', w, LIMITS.maxChoicePixels);
      const h = g.integer('height', true);
      if (h !== undefined) g.positive('height', h, LIMITS.maxChoicePixels);
    } else {
      const v = g.str('value', true);
      if (v === '') g.add('value', 'must not be empty');
      else if (v !== undefined) {
        const msg = checkTyped(v, '', maxLength, false);
        if (msg !== '') g.add('value', msg);
      }
    }
    g.unknown();
  });
}

function checkText(f: Fields, printHeight: number) {
  f.shortString('id', true);
  f.shortString('name', false);
  let text = f.str('text', true);
  if (text !== undefined) {
    for (const r of text) {
      if ((r < ' ' && r !== '\n') || r === '\u007f') {
        const code = r.codePointAt(0) ?? 0;
        const hex = code.toString(16).toUpperCase().padStart(4, '0');
        f.add('text', `control character U+${hex} not allowed (only line feeds)`);
        text = undefined;
        break;
      }
    }
  }
  f.shortString('fontFamily', false);
  f.source('fontUrl', false);
  const size = f.number('fontSize', true);
  if (size !== undefined && f.inRange('fontSize', size, LIMITS.minFontSize, LIMITS.maxFontSize) && printHeight > 0) {
    if (size > printHeight) f.add('fontSize', `must be at most the print space's height (${num(printHeight)}), got ${num(size)}`);
  }
  checkPlacement(f);
  const w = f.number('width', true);
  if (w !== undefined) f.positive('width', w, LIMITS.maxCoordinate);
  const tw = f.str('textWidth', true);
  if (tw !== undefined) f.oneOf('textWidth', tw, 'limited', 'fixed', 'flexible');
  const align = f.str('textAlign', false);
  if (align !== undefined) f.oneOf('textAlign', align, 'left', 'center', 'right');
  let maxLength: number = LIMITS.maxTextLength;
  let maxLenOK = true;
  const ml = f.integer('maxLength', false);
  if (ml !== undefined) {
    maxLenOK = f.inRange('maxLength', ml, 1, LIMITS.maxTextLength);
    if (maxLenOK) maxLength = ml;
  }
  if (text !== undefined && maxLenOK) {
    const n = codePoints(text);
    if (n > maxLength) f.add('text', `${n} characters, longer than maxLength ${maxLength}`);
  }
  const conv = f.str('convertText', false);
  if (conv !== undefined) f.oneOf('convertText', conv, '', 'capitalize', 'uppercase', 'lowercase');
  const styleRaw = f.str('displayStyle', true);
  const style =
    styleRaw !== undefined && f.oneOf('displayStyle', styleRaw, 'color', 'transparent', 'image_background')
      ? styleRaw
      : '';
  const fill = f.str('fill', style === 'color');
  if (fill !== undefined) {
    if (fill === '' && style === 'color') f.add('fill', 'required when displayStyle is color');
    else if (fill !== '' && !fillPattern.test(fill)) {
      f.add('fill', `${JSON.stringify(fill)} is not a colour (want #rgb, #rrggbb or #rrggbbaa)`);
    }
  }
  const bg = f.source('backgroundUrl', false);
  const bgIsText = !f.has('backgroundUrl') || typeof f.vals.backgroundUrl === 'string';
  if (style === 'image_background' && bg === '' && bgIsText) {
    f.add('backgroundUrl', 'required when displayStyle is image_background');
  }
  checkInput(f, f.boolean('isCustom') === true, false, maxLenOK ? maxLength : LIMITS.maxTextLength);
}

function checkObjects(problems: Problem[], raw: unknown, printHeight: number) {
  if (!Array.isArray(raw)) {
    problems.push({ field: 'objects', message: `want array, got ${kindOf(raw)}` });
    return;
  }
  if (raw.length > LIMITS.maxObjects) {
    problems.push({ field: 'objects', message: `${raw.length} objects, more than ${LIMITS.maxObjects}` });
  }
  let texts = 0;
  raw.forEach((item, i) => {
    const f = readObject(problems, `objects[${i}]`, item);
    if (!f) return;
    const type = f.str('type', true);
    if (type === undefined) return;
    if (type === 'image') checkImage(f);
    else if (type === 'text') {
      texts++;
      checkText(f, printHeight);
    } else {
      f.oneOf('type', type, 'image', 'text');
      return; // the other fields mean nothing without a type
    }
    f.unknown();
  });
  if (texts > LIMITS.maxTexts) {
    problems.push({ field: 'objects', message: `${texts} text objects, more than ${LIMITS.maxTexts} per print space` });
  }
}

/**
 * Checks a parsed JSON value against the rules of renderer/design.Parse and returns every problem, in
 * document order, with the parser's field paths; an empty list means the renderer accepts it. JSON-text rules
 * (duplicate keys, trailing data) are beyond a parsed value and belong to JSON.parse.
 */
export function validateDocument(doc: unknown): Problem[] {
  const problems: Problem[] = [];
  const root = readObject(problems, '', doc);
  if (!root) return problems;
  const version = root.integer('version', true);
  if (version !== undefined && version !== LIMITS.version) {
    root.add('version', `unsupported version ${num(version)} (want ${LIMITS.version})`);
  }
  const ps = root.get('printSpace', true);
  const printHeight = ps.present ? checkPrintSpace(problems, ps.value) : 0;
  const objs = root.get('objects', true);
  if (objs.present) checkObjects(problems, objs.value, printHeight);
  root.unknown();
  return problems;
}
