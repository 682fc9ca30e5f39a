// The guides drawn over a print area wherever one is shown: the print area's edge and the safe area inside it. One
// definition for the designer's deep-zoom viewer (review/DeepZoomViewer) and the seller's design canvas
// (editor/DesignCanvas), so both show the same lines in the same colours (docs/editor.md).

/** How each guide is drawn: its colour, its width in screen pixels and, for a dashed line, its dash pattern. */
export const GUIDES = {
  printArea: { color: '#228be6', width: 1.5, dash: null },
  safeArea: { color: '#f76707', width: 1.5, dash: [6, 4] },
  product: { color: '#868e96', width: 1.5, dash: null },
} as const;

/** What the guides mean, in the words under every view that draws them. */
export const GUIDES_LEGEND = 'Blue: print area · dashed orange: safe area';

/** The legend's words for the product outline, where a view draws one. */
export const OUTLINE_LEGEND = 'grey: the product';

/**
 * The safe area's inset in print pixels: an eighth of an inch at the print space's DPI, the margin
 * print shops keep text and faces out of, since cutting and sewing may take it.
 */
export function safeInset(dpi: number): number {
  return Math.round(dpi / 8);
}

/** A rectangle in print pixels. */
export type AreaRect = Readonly<{ x: number; y: number; width: number; height: number }>;

/**
 * The product around a print area, as the bff serves it with a campaign's products (renderer/outlines): closed shapes,
 * body first, as x, y pairs in the print space's own pixels (most points lie outside the print area), and the box
 * holding them and the print area. Drawn on the canvas only, never printed.
 */
export type ProductOutline = Readonly<{ shapes: readonly (readonly number[])[]; bounds: AreaRect }>;

/** The print area and its safe area, in print pixels, for a print space of width x height at dpi. */
export function guideRects(ps: Readonly<{ width: number; height: number; dpi: number }>): { printArea: AreaRect; safeArea: AreaRect } {
  const inset = Math.min(safeInset(ps.dpi), ps.width / 2, ps.height / 2);
  return {
    printArea: { x: 0, y: 0, width: ps.width, height: ps.height },
    safeArea: { x: inset, y: inset, width: ps.width - 2 * inset, height: ps.height - 2 * inset },
  };
}

/** The CSS border of a guide (the deep-zoom viewer draws them as bordered boxes). */
export function guideBorder(guide: (typeof GUIDES)[keyof typeof GUIDES]): string {
  return `${guide.width}px ${guide.dash ? 'dashed' : 'solid'} ${guide.color}`;
}
