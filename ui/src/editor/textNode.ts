// The Konva Text attributes of a text object: layout (textLayout.ts), font and display style, shared by the
// editor canvas and the fidelity render page.

import type Konva from 'konva';
import type { TextObject } from './document';
import { canvasMeasure, fontFamilyFor } from './fonts';
import { layoutText } from './textLayout';

/** Images by source (src or backgroundUrl); missing ones are not drawn yet. */
export type LoadedImages = Record<string, CanvasImageSource & { width: number; height: number }>;

/** The Konva Text attributes of a text object (layout, font, display style), shared by every drawing. */
export function textNodeConfig(
  o: TextObject,
  images: LoadedImages,
  fontFamilies: Record<string, string | null>,
): Konva.TextConfig {
  const family = fontFamilyFor(o, fontFamilies);
  const lay = layoutText(o, canvasMeasure(family));
  // Konva drops what does not fit its width even with wrap "none", and measures at the drawn size where the
  // layout measured at another: the node is one em wider than the box, shifted so alignment is unchanged.
  const slack = lay.size;
  const config: Konva.TextConfig = {
    x: lay.boxX - slack * { left: 0, center: 0.5, right: 1 }[o.textAlign ?? 'left'],
    y: lay.top,
    width: lay.boxW + slack,
    text: lay.lines.join('\n'),
    fontSize: lay.size,
    fontFamily: family,
    lineHeight: 1,
    wrap: 'none',
    align: o.textAlign ?? 'left',
    padding: 0,
  };
  switch (o.displayStyle) {
    case 'transparent':
      // Knocks the glyphs out of everything painted before, so the product shows through.
      return { ...config, fill: '#000000', globalCompositeOperation: 'destination-out' };
    case 'image_background': {
      const bg = o.backgroundUrl ? images[o.backgroundUrl] : undefined;
      if (!bg) return { ...config, fill: 'rgba(0,0,0,0)' };
      // Cover the text box, centred, in the text's own (rotating) frame.
      const c = Math.max(lay.boxW / bg.width, lay.boxH / bg.height);
      return {
        ...config,
        fillPriority: 'pattern',
        fillPatternImage: bg as HTMLImageElement,
        fillPatternRepeat: 'no-repeat',
        fillPatternScaleX: c,
        fillPatternScaleY: c,
        fillPatternX: lay.boxX + (lay.boxW - bg.width * c) / 2 - (config.x ?? 0),
        fillPatternY: (lay.boxH - bg.height * c) / 2 - lay.top,
      };
    }
  }
  return { ...config, fill: o.fill || '#000000' };
}

