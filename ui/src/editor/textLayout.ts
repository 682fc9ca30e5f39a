// Text layout of a design's text objects, the TypeScript twin of renderer/raster/text.go (layoutText,
// wrapLine, convertText): the same lines, font size and box, so that Konva draws what the print file shows.
// Widths are measured in ems by the caller's measure function (the canvas's measureText in the browser).

import type { TextAlign, TextObject } from './document';

/** Applies convertText: Unicode upper/lower case, or capitalize (first letter of every space-separated word). */
export function convertText(s: string, mode: TextObject['convertText']): string {
  switch (mode) {
    case 'uppercase':
      return s.toUpperCase();
    case 'lowercase':
      return s.toLowerCase();
    case 'capitalize': {
      const rs = [...s];
      return rs.map((r, i) => (i === 0 || /\s/.test(rs[i - 1] ?? '') ? r.toUpperCase() : r)).join('');
    }
  }
  return s;
}

/** Measures a line of text in ems (width at font size 1) in the text's font. */
export type Measure = (line: string) => number;

/** A text object laid out in its local frame: origin at (x, y), unrotated, print pixels. */
export type TextLayout = {
  /** The lines to draw, top to bottom. */
  lines: string[];
  /** The font size actually used (limited text may shrink). */
  size: number;
  /** Top of the first line: non-zero only for shrunken limited text, centred in the nominal box. */
  top: number;
  /** The text box that image backgrounds cover: boxX..boxX+boxW, 0..boxH. */
  boxX: number;
  boxW: number;
  boxH: number;
  shrunk: boolean;
};

/** Where something w wide goes inside a box boxW wide. */
export function alignOffset(align: TextAlign | undefined, boxW: number, w: number): number {
  if (align === 'center') return (boxW - w) / 2;
  if (align === 'right') return boxW - w;
  return 0;
}

const isSpace = (r: string | undefined) => r !== undefined && /\s/.test(r);

function trimRight(rs: string[]): string[] {
  let n = rs.length;
  while (n > 0 && isSpace(rs[n - 1])) n--;
  return rs.slice(0, n);
}

function trimLeft(rs: string[]): string[] {
  let i = 0;
  while (i < rs.length && isSpace(rs[i])) i++;
  return rs.slice(i);
}

/**
 * Breaks a paragraph into lines no wider than maxW ems at spaces and hyphens where it can; a word wider than
 * the line breaks between characters (renderer/raster wrapLine).
 */
export function wrapLine(measure: Measure, paragraph: string, maxW: number): string[] {
  let rs = [...paragraph];
  const out: string[] = [];
  while (rs.length > 0) {
    if (measure(rs.join('')) <= maxW) {
      out.push(trimRight(rs).join(''));
      break;
    }
    let n = 1;
    while (n < rs.length && measure(rs.slice(0, n + 1).join('')) <= maxW) n++;
    let cut = n;
    if (n < rs.length && rs[n] !== ' ' && rs[n] !== '-') {
      for (let i = n - 1; i > 0; i--) {
        if (rs[i] === ' ' || rs[i] === '-') {
          cut = i + 1;
          break;
        }
      }
    }
    out.push(trimRight(rs.slice(0, cut)).join(''));
    rs = trimLeft(rs.slice(cut));
  }
  if (out.length === 0) out.push('');
  return out;
}

/** Lays out a text object by its textWidth rule (see renderer/raster/doc.go "Text"). */
export function layoutText(o: TextObject, measure: Measure): TextLayout {
  const paragraphs = convertText(o.text, o.convertText).split('\n');
  const lines =
    o.textWidth === 'fixed'
      ? paragraphs.flatMap((p) => wrapLine(measure, p, o.width / o.fontSize))
      : paragraphs;
  const widest = Math.max(0, ...lines.map(measure));
  const nominalH = lines.length * o.fontSize;
  let size = o.fontSize;
  let shrunk = false;
  if (o.textWidth === 'limited' && widest * size > o.width) {
    size = o.width / widest;
    shrunk = true;
  }
  let boxX = 0;
  let boxW = o.width;
  if (o.textWidth === 'flexible') {
    boxW = widest * size;
    boxX = alignOffset(o.textAlign, o.width, boxW);
  }
  return { lines, size, top: (nominalH - lines.length * size) / 2, boxX, boxW, boxH: nominalH, shrunk };
}
