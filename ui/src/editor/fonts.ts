// Fonts of the design canvas. Roboto, the renderer's own font, comes from GET /api/fonts; a text's fontUrl (a
// platform font's or an uploaded font's key, see fontFileUrl) is loaded under a family name of its own. Every load failure is swallowed: the font is treated as
// missing and the text falls back to Roboto, as renderer/raster does. Texts measure with the same canvas
// font string Konva draws with.

import { DEFAULT_FONT_FAMILY, type TextObject } from './document';
import type { Measure } from './textLayout';

/**
 * A font the bff serves: GET /api/fonts answers a list of these (plain or in the API envelope). font_url is
 * empty for the default font, which texts use without a fontUrl; the others are loaded by their fontUrl.
 */
export type ServedFont = { family: string; url: string; font_url?: string };

/** The start of a font file's key (bff/fonts, renderer/fonts): platform fonts and the sellers' uploads. */
const FONT_KEY_PREFIX = 'fonts/';

/**
 * Where the browser loads a fontUrl: a font key from GET /api/{key}, the file the renderer reads under the same
 * key; any other source as fileUrl answers it.
 */
export function fontFileUrl(src: string, fileUrl: (src: string) => string): string {
  return src.startsWith(FONT_KEY_PREFIX) ? `/api/${src}` : fileUrl(src);
}

let defaultFonts: Promise<void> | null = null;

/** Loads the default font GET /api/fonts lists (once per page); never rejects. */
export function loadServedFonts(): Promise<void> {
  defaultFonts ??= (async () => {
    try {
      const res = await fetch('/api/fonts');
      if (!res.ok) return;
      const body: unknown = await res.json();
      const list = (Array.isArray(body) ? body : (body as { data?: unknown }).data) as ServedFont[] | undefined;
      await Promise.all((list ?? []).filter((f) => !f.font_url).map((f) => loadFace(f.family, f.url)));
    } catch {
      // Font load failures are swallowed: the font is treated as missing.
    }
  })();
  return defaultFonts;
}

async function loadFace(family: string, url: string): Promise<boolean> {
  try {
    const face = new FontFace(family, `url(${JSON.stringify(url)})`);
    await face.load();
    document.fonts.add(face);
    return true;
  } catch {
    return false;
  }
}

const urlFamilies = new Map<string, Promise<string | null>>();

/**
 * Loads a text's fontUrl (resolved to a fetchable href) under a family of its own; resolves to that family,
 * or null when it cannot load (the text then uses Roboto). Never rejects.
 */
export function loadFontUrl(fontUrl: string, href: string): Promise<string | null> {
  let p = urlFamilies.get(fontUrl);
  if (!p) {
    const family = `pressroom-font-${urlFamilies.size + 1}`;
    p = loadFace(family, href).then((ok) => (ok ? family : null));
    urlFamilies.set(fontUrl, p);
  }
  return p;
}

/**
 * The CSS font-family list a text draws with: its loaded fontUrl family with Roboto behind it (characters the
 * font lacks come from Roboto), else Roboto. A fontFamily other than Roboto without a fontUrl is Roboto too.
 */
export function fontFamilyFor(o: TextObject, loaded: Record<string, string | null>): string {
  const family = o.fontUrl ? loaded[o.fontUrl] : null;
  return family ? `"${family}", ${DEFAULT_FONT_FAMILY}` : DEFAULT_FONT_FAMILY;
}

const measureSize = 1000;
let measureCtx: CanvasRenderingContext2D | null = null;

/** A Measure (ems) for a font-family list, using the canvas text metrics Konva draws with. */
export function canvasMeasure(family: string): Measure {
  measureCtx ??= document.createElement('canvas').getContext('2d');
  const ctx = measureCtx;
  const cache = new Map<string, number>();
  return (line) => {
    let w = cache.get(line);
    if (w === undefined) {
      if (!ctx) return 0;
      ctx.font = `${measureSize}px ${family}`;
      w = ctx.measureText(line).width / measureSize;
      cache.set(line, w);
    }
    return w;
  };
}
