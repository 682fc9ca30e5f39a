// The product around a print area: the outline of the product a print space sits on, in the print space's own
// pixels (the print area is 0..width x 0..height; the product reaches past it, so most points are outside). The
// seller's design canvas draws it when zoomed out to the product (docs/editor.md); it is never printed.
//
// The shapes are the silhouettes the demo catalogue's mockups are drawn from (renderer/mockup/demo/products.go):
// each product is drawn on a 1000 x 1000 unit photo, its print area the rectangle `area` of that photo.

import type { AreaRect } from './guides';

/** One closed shape of a product outline: x, y pairs in print pixels. */
export type OutlineShape = readonly number[];

/** A product's outline around a print space, and the box holding it and the print area. */
export type ProductOutline = Readonly<{ shapes: readonly OutlineShape[]; bounds: AreaRect }>;

type Pt = readonly [number, number];

/** A left half outline (top centre to bottom centre) completed with its mirror image about x = 500. */
function mirror(left: readonly Pt[]): Pt[] {
  return [...left, ...[...left].reverse().map(([x, y]) => [1000 - x, y] as Pt)];
}

/** An ellipse about (cx, cy) as a polygon of n points. */
function ellipse(cx: number, cy: number, rx: number, ry: number, n = 32): Pt[] {
  return Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n;
    return [cx + rx * Math.cos(a), cy + ry * Math.sin(a)] as Pt;
  });
}

const SHIRT = mirror([[430, 150], [300, 185], [165, 345], [238, 405], [312, 345], [318, 880]]);
const HOODIE = mirror([[420, 185], [290, 215], [200, 420], [150, 800], [230, 815], [300, 470], [302, 890]]);

/** A product as the mockups draw it: its shapes in photo units and each print space's area on the photo. */
type Silhouette = { shapes: readonly (readonly Pt[])[]; areas: Readonly<Record<string, AreaRect>> };

const box = (x0: number, y0: number, x1: number, y1: number): AreaRect => ({ x: x0, y: y0, width: x1 - x0, height: y1 - y0 });
const rect = (x0: number, y0: number, x1: number, y1: number): Pt[] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];

/** The demo catalogue's products by product type. */
const SILHOUETTES: Readonly<Record<string, Silhouette>> = {
  tshirt: { shapes: [SHIRT, ellipse(500, 150, 72, 48)], areas: { front: box(350, 260, 650, 620), back: box(350, 225, 650, 585) } },
  hoodie: {
    shapes: [HOODIE, ellipse(500, 165, 120, 95), ellipse(500, 190, 70, 60)],
    areas: { front: box(360, 300, 640, 636), back: box(360, 300, 640, 636) },
  },
  aop_shirt: { shapes: [SHIRT, ellipse(500, 150, 72, 48)], areas: { front: box(160, 140, 840, 890), back: box(160, 140, 840, 890) } },
  // A poster in its frame: the print is the whole sheet, the frame a band around it.
  poster: { shapes: [rect(270, 110, 730, 890)], areas: { front: box(300, 140, 700, 860) } },
};

/**
 * The outline of the product of type productType around its print space ps, in ps's print pixels; null for a
 * product or print space without one.
 */
export function productOutline(productType: string, ps: Readonly<{ name: string; width: number; height: number }>): ProductOutline | null {
  const silhouette = SILHOUETTES[productType];
  const area = silhouette?.areas[ps.name];
  if (!silhouette || !area) return null;
  const sx = ps.width / area.width;
  const sy = ps.height / area.height;
  let [minX, minY, maxX, maxY] = [0, 0, ps.width, ps.height];
  const shapes = silhouette.shapes.map((shape) =>
    shape.flatMap(([x, y]) => {
      const px = Math.round((x - area.x) * sx);
      const py = Math.round((y - area.y) * sy);
      minX = Math.min(minX, px);
      minY = Math.min(minY, py);
      maxX = Math.max(maxX, px);
      maxY = Math.max(maxY, py);
      return [px, py];
    }),
  );
  return { shapes, bounds: { x: minX, y: minY, width: maxX - minX, height: maxY - minY } };
}
