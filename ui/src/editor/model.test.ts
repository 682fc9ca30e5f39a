import type { DesignDocument, ImageObject, TextObject } from './document';
import { validateDocument } from './document';
import {
  addImage,
  addText,
  defaultFontSize,
  EDITOR,
  setCustom,
  emptyDocument,
  moveLayer,
  qualityOf,
  removeObject,
  replaceImage,
  resolution,
  sizeRefusal,
  snapToCentre,
  syncDesigns,
  TOO_MANY_TEXTS,
  transformObject,
  updateText,
  type DesignSlot,
  type ProductPrintSpace,
} from './model';

const front: ProductPrintSpace = { name: 'front', width: 4500, height: 5400, printType: 0, DPI: 300, minDPI: 150, isMain: true };
const back: ProductPrintSpace = { ...front, name: 'back' };
const mug: ProductPrintSpace = { name: 'wrap', width: 2700, height: 1050, printType: 0, DPI: 300, minDPI: 150, isMain: true };

const art = { id: 'art', src: 'u/1/art.png', width: 3000, height: 3000 };
const only = <T,>(doc: DesignDocument, i = 0) => doc.objects[i] as T;

function withText(doc: DesignDocument, opts: Partial<TextObject> = {}): DesignDocument {
  const r = addText(doc, opts);
  if ('error' in r) throw new Error(r.error);
  return r.doc;
}

describe('emptyDocument', () => {
  it('is a valid document of the print space', () => {
    const doc = emptyDocument(front);
    expect(doc.printSpace).toEqual({ name: 'front', width: 4500, height: 5400, dpi: 300, minDpi: 150, printType: 0 });
    expect(validateDocument(doc)).toEqual([]);
  });
});

describe('addImage', () => {
  it('fits the image to the print area and centres it', () => {
    const doc = addImage(emptyDocument(front), art, { restricted: false });
    expect(only<ImageObject>(doc)).toMatchObject({ x: 0, y: 450, width: 4500, height: 4500, src: 'u/1/art.png' });
    expect(validateDocument(doc)).toEqual([]);
  });

  it('caps the enlargement at DPI/minDPI in restricted mode', () => {
    const small = { ...art, width: 1000, height: 500 };
    expect(only<ImageObject>(addImage(emptyDocument(front), small, { restricted: true }))).toMatchObject({
      width: 2000,
      height: 1000,
      x: 1250,
      y: 2200,
    });
    expect(only<ImageObject>(addImage(emptyDocument(front), small, { restricted: false })).width).toBe(4500);
  });

  it('never mutates its input', () => {
    const doc = emptyDocument(front);
    addImage(doc, art, { restricted: false });
    expect(doc.objects).toEqual([]);
  });
});

describe('replaceImage', () => {
  const placed = transformObject(addImage(emptyDocument(front), art, { restricted: false }), 'art',
    { x: 100, y: 200, width: 1000, height: 1000, rotation: 30 }, { restricted: false });

  it('keeps the placement when the aspect ratios match within 0.005', () => {
    const doc = replaceImage(placed, 'art', { src: 'u/1/new.png', width: 2004, height: 2000 });
    expect(only<ImageObject>(doc)).toMatchObject({ src: 'u/1/new.png', x: 100, y: 200, width: 1000, height: 1000, rotation: 30 });
  });

  it('fits a different aspect into the old box, centred on it', () => {
    const doc = replaceImage(placed, 'art', { src: 'u/1/wide.png', width: 2000, height: 1000 });
    const o = only<ImageObject>(doc);
    expect(o.width).toBeCloseTo(1000);
    expect(o.height).toBeCloseTo(500);
    expect(o.rotation).toBe(30);
    // The centre of the box stays where it was (rotated frame).
    const centre = (b: ImageObject) => {
      const r = ((b.rotation ?? 0) * Math.PI) / 180;
      return [b.x + (b.width / 2) * Math.cos(r) - (b.height / 2) * Math.sin(r), b.y + (b.width / 2) * Math.sin(r) + (b.height / 2) * Math.cos(r)];
    };
    const [ax, ay] = centre(only<ImageObject>(placed));
    const [bx, by] = centre(o);
    expect(bx).toBeCloseTo(ax ?? 0);
    expect(by).toBeCloseTo(ay ?? 0);
  });
});

describe('texts', () => {
  it('adds the default text: Hello, Roboto, 100, 80% of the width, centred', () => {
    const doc = withText(emptyDocument(front));
    expect(only<TextObject>(doc)).toMatchObject({
      id: 'text-1', text: 'Hello', fontFamily: 'Roboto', fontSize: 100, width: 3600, x: 450, y: 2650, maxLength: 16,
    });
    expect(validateDocument(doc)).toEqual([]);
  });

  it('refuses a third text of the print area', () => {
    const two = withText(withText(emptyDocument(front)));
    expect(two.objects.map((o) => o.id)).toEqual(['text-1', 'text-2']);
    expect(addText(two)).toEqual({ error: TOO_MANY_TEXTS });
    expect(TOO_MANY_TEXTS).toBe('A print area holds at most 2 texts.');
  });

  it('cuts the text at 16 characters (code points) and at a smaller maxLength', () => {
    const doc = withText(emptyDocument(front));
    const long = updateText(doc, 'text-1', { text: '12345678901234567' });
    expect(only<TextObject>(long).text).toBe('1234567890123456');
    const emoji = updateText(doc, 'text-1', { text: '😀'.repeat(20) });
    expect([...only<TextObject>(emoji).text]).toHaveLength(16);
    const short = updateText(doc, 'text-1', { text: 'abcdef', maxLength: 3 });
    expect(only<TextObject>(short).text).toBe('abc');
    expect(validateDocument(long)).toEqual([]);
  });

  it('drops control characters but keeps line feeds', () => {
    const doc = updateText(withText(emptyDocument(front)), 'text-1', { text: 'a\tb\nc\u0007' });
    expect(only<TextObject>(doc).text).toBe('ab\nc');
  });

  it('sizes the default text to span 80% of the print area, within the font size bounds', () => {
    const hello = (line: string) => (line === 'Hello' ? 2.25 : 1);
    expect(defaultFontSize(emptyDocument(front).printSpace, hello)).toBe(1600);
    // The mug's wrap is 1050 tall: 0.8 x 2700 / 2.25 = 960 fits; a narrow measure would not pass its height.
    expect(defaultFontSize(emptyDocument(mug).printSpace, hello)).toBe(960);
    expect(defaultFontSize(emptyDocument(mug).printSpace, () => 0.5)).toBe(1050);
    // Nothing to measure with: the old default.
    expect(defaultFontSize(emptyDocument(front).printSpace)).toBe(EDITOR.defaultFontSize);
    expect(defaultFontSize(emptyDocument(front).printSpace, () => 0)).toBe(EDITOR.defaultFontSize);
  });

  it('keeps the font size between 1 and the print area height', () => {
    const doc = withText(emptyDocument(front));
    expect(only<TextObject>(updateText(doc, 'text-1', { fontSize: 99999 })).fontSize).toBe(5400);
    expect(only<TextObject>(updateText(doc, 'text-1', { fontSize: -5 })).fontSize).toBe(1);
    expect(only<TextObject>(transformObject(doc, 'text-1', { x: 0, y: 0, width: 100, fontSize: 8000 }, { restricted: false })).fontSize).toBe(5400);
    expect(validateDocument(updateText(doc, 'text-1', { fontSize: 99999 }))).toEqual([]);
    expect(validateDocument({ ...doc, objects: [{ ...only<TextObject>(doc), fontSize: 5401 }] })).toEqual([
      { field: 'objects[0].fontSize', message: "must be at most the print space's height (5400), got 5401" },
    ]);
  });

  it('changes style fields', () => {
    const doc = updateText(withText(emptyDocument(front)), 'text-1', { convertText: 'uppercase', textAlign: 'right' });
    expect(only<TextObject>(doc)).toMatchObject({ convertText: 'uppercase', textAlign: 'right' });
  });
});

describe('transformObject', () => {
  const doc = addImage(emptyDocument(front), { ...art, width: 1000, height: 1000 }, { restricted: false });
  const restricted = { restricted: true, natural: { width: 1000, height: 1000 } };

  it('applies the box as it is outside restricted mode', () => {
    const next = transformObject(doc, 'art', { x: -500, y: 6000, width: 9000, height: 9000, rotation: 45 }, { restricted: false });
    expect(only<ImageObject>(next)).toMatchObject({ x: -500, y: 6000, width: 9000, height: 9000, rotation: 45 });
  });

  it('keeps an unrotated object inside the print area in restricted mode', () => {
    const next = transformObject(doc, 'art', { x: -500, y: 6000, width: 1000, height: 1000 }, restricted);
    expect(only<ImageObject>(next)).toMatchObject({ x: 0, y: 4400, width: 1000, height: 1000 });
  });

  it('lets a rotated object leave the print area in restricted mode', () => {
    const rotated = transformObject(doc, 'art', { x: 0, y: 0, width: 1000, height: 1000, rotation: 30 }, { restricted: false });
    const next = transformObject(rotated, 'art', { x: -300, y: 5300, width: 1000, height: 1000 }, restricted);
    expect(only<ImageObject>(next)).toMatchObject({ x: -300, y: 5300, rotation: 30 });
  });

  it('locks artwork rotation in restricted mode', () => {
    const next = transformObject(doc, 'art', { x: 100, y: 100, width: 1000, height: 1000, rotation: 45 }, restricted);
    expect(only<ImageObject>(next).rotation).toBe(0);
  });

  it('never scales an image past the print area or past DPI/minDPI in restricted mode', () => {
    const big = transformObject(doc, 'art', { x: 0, y: 0, width: 6000, height: 6000 }, { restricted: true });
    expect(only<ImageObject>(big)).toMatchObject({ width: 4500, height: 4500 });
    const capped = transformObject(doc, 'art', { x: 0, y: 0, width: 3000, height: 3000 }, restricted);
    expect(only<ImageObject>(capped)).toMatchObject({ width: 2000, height: 2000 });
  });

  it('keeps a text within the print area in restricted mode', () => {
    const t = withText(emptyDocument(front));
    const next = transformObject(t, 'text-1', { x: 4000, y: -50, width: 6000, fontSize: 8000 }, { restricted: true });
    expect(only<TextObject>(next)).toMatchObject({ x: 0, y: 0, width: 4500, fontSize: 5400 });
  });

  it('moves only the customer object in lock-edit mode', () => {
    const both = addImage(doc, { id: 'cust', src: 'u/1/c.png', width: 100, height: 100 }, { restricted: false });
    const marked = setCustom(both, 'cust', true);
    const locked = transformObject(marked, 'art', { x: 1, y: 1, width: 10, height: 10 }, { restricted: false, lockEdit: true });
    expect(locked).toBe(marked);
    const moved = transformObject(marked, 'cust', { x: 1, y: 1, width: 10, height: 10 }, { restricted: false, lockEdit: true });
    expect(only<ImageObject>(moved, 1)).toMatchObject({ x: 1, y: 1 });
  });
});

describe('sizeRefusal', () => {
  const ps = emptyDocument(front).printSpace;
  const image = only<ImageObject>(addImage(emptyDocument(front), art, { restricted: false }));
  const text = only<TextObject>(withText(emptyDocument(front)));

  it('says why restricted mode holds an image back: the print area, then the resolution', () => {
    expect(sizeRefusal(ps, image, { width: 4600, height: 4600 }, { restricted: true })).toBe(
      'Restricted mode keeps objects within the print area (4500 × 5400 px): this one cannot grow larger. Turn restricted mode off to go beyond it.',
    );
    const natural = { width: 1000, height: 800 };
    expect(sizeRefusal(ps, image, { width: 2000, height: 1600 }, { restricted: true, natural })).toBeNull();
    expect(sizeRefusal(ps, image, { width: 2100, height: 1680 }, { restricted: true, natural })).toMatch(
      /^This artwork is 1000 × 800 px: wider than 2000 px it would print below 150 DPI/,
    );
    expect(sizeRefusal(ps, image, { width: 9000, height: 9000 }, { restricted: false, natural })).toBeNull();
  });

  it('holds a text to its font size bounds in every mode', () => {
    expect(sizeRefusal(ps, text, { width: 100, height: 5400 }, { restricted: false })).toBeNull();
    expect(sizeRefusal(ps, text, { width: 100, height: 6000 }, { restricted: false })).toBe(
      "A text's size is at most 5400 px, the print area's height: a taller line would print outside it.",
    );
  });
});

describe('removeObject and moveLayer', () => {
  const doc = withText(withText(addImage(emptyDocument(front), art, { restricted: false })));
  const ids = (d: DesignDocument) => d.objects.map((o) => o.id);

  it('removes by id', () => {
    expect(ids(removeObject(doc, 'text-1'))).toEqual(['art', 'text-2']);
  });

  it('moves one step, to the top and to the bottom, staying in range', () => {
    expect(ids(moveLayer(doc, 'art', 'up'))).toEqual(['text-1', 'art', 'text-2']);
    expect(ids(moveLayer(doc, 'art', 'down'))).toEqual(['art', 'text-1', 'text-2']);
    expect(ids(moveLayer(doc, 'art', 'top'))).toEqual(['text-1', 'text-2', 'art']);
    expect(ids(moveLayer(doc, 'text-2', 'bottom'))).toEqual(['text-2', 'art', 'text-1']);
    expect(ids(moveLayer(doc, 'text-2', 'up'))).toEqual(['art', 'text-1', 'text-2']);
  });
});

describe('resolution', () => {
  it('rates the boundaries as renderer/dpi does: 225 good, 224.99 normal, 150 normal, 149.99 low', () => {
    expect(qualityOf(225, 300, 150)).toBe('good');
    expect(qualityOf(224.99, 300, 150)).toBe('normal');
    expect(qualityOf(150, 300, 150)).toBe('normal');
    expect(qualityOf(149.99, 300, 150)).toBe('low');
  });

  it('uses the lowest effective DPI = DPI x natural / placed, on the worse axis', () => {
    const doc = addImage(emptyDocument(front), art, { restricted: false }); // 3000 px placed 4500 wide
    expect(resolution(doc, { [art.src]: { width: 3000, height: 3000 } })).toEqual({ quality: 'normal', minDpi: 200 });
    const enlarged = transformObject(doc, 'art', { x: 0, y: 0, width: 6100, height: 6100 }, { restricted: false });
    expect(resolution(enlarged, { [art.src]: { width: 3000, height: 3000 } })?.quality).toBe('low');
    const shrunk = transformObject(doc, 'art', { x: 0, y: 0, width: 3000, height: 3000 }, { restricted: false });
    expect(resolution(shrunk, { [art.src]: { width: 3000, height: 3000 } })).toEqual({ quality: 'good', minDpi: 300 });
  });

  it('is null without a known image', () => {
    expect(resolution(withText(emptyDocument(front)), {})).toBeNull();
    expect(resolution(addImage(emptyDocument(front), art, { restricted: false }), {})).toBeNull();
  });
});

describe('snapToCentre', () => {
  const ps = emptyDocument(front).printSpace;

  it('snaps the box centre to the print area centre within 100 units', () => {
    expect(snapToCentre(ps, { x: 1290, y: 1000, width: 2000, height: 1000 })).toEqual({ x: 1250, y: 1000, snapX: true, snapY: false });
    expect(snapToCentre(ps, { x: 1149, y: 2250, width: 2000, height: 1000 })).toEqual({ x: 1149, y: 2200, snapX: false, snapY: true });
  });

  it('finds the centre of a rotated box', () => {
    const r = snapToCentre(ps, { x: 2250, y: 2700 - 50, width: 100, height: 100, rotation: 90 });
    // Rotated 90° clockwise, the box's centre is at (x - 50, y + 50).
    expect(r.snapX && r.snapY).toBe(true);
    expect(r.x).toBeCloseTo(2300);
    expect(r.y).toBeCloseTo(2650);
  });
});

describe('syncDesigns', () => {
  const hoodieFront: ProductPrintSpace = { ...front };
  const hoodieBack: ProductPrintSpace = { ...back, isMain: false };
  const designed = withText(addImage(emptyDocument(front), art, { restricted: false }), { isCustom: true, text: 'Name' });
  const slots = (): DesignSlot[] => [
    { productId: 1, printSpace: front, doc: designed },
    { productId: 1, printSpace: back, doc: emptyDocument(back) },
    { productId: 2, printSpace: hoodieFront, doc: emptyDocument(hoodieFront) },
    { productId: 2, printSpace: hoodieBack, doc: withText(emptyDocument(hoodieBack), { id: 'own' }) },
    { productId: 3, printSpace: mug, doc: emptyDocument(mug) },
  ];

  it('mirrors designs with the same key, fits main print spaces and copies customer objects to the same area', () => {
    const out = syncDesigns(slots(), { productId: 1, printSpace: 'front' }, { combo: false });
    expect(out[2]?.doc.objects).toEqual(designed.objects); // hoodie front: same key, mirrored
    const mugObjs = out[4]?.doc.objects ?? [];
    expect(mugObjs).toHaveLength(2); // main print space: fitted
    // 4500x5400 fits 2700x1050 at 1050/5400: the 4500 px square artwork becomes 875 px, centred.
    expect((mugObjs[0] as ImageObject).height).toBeCloseTo(875);
    expect((mugObjs[0] as ImageObject).x).toBeCloseTo((2700 - 875) / 2);
    expect(out[4]?.doc.printSpace.width).toBe(2700);
    expect(validateDocument(out[4]?.doc)).toEqual([]);
    // back of the T-shirt is main too: fitted (same size, so the same objects)
    expect(out[1]?.doc.objects).toEqual(designed.objects);
    // hoodie back (not main, same area): keeps its own text and gets the customer text
    expect(out[3]?.doc.objects.map((o) => o.id)).toEqual(['own', 'text-1']);
  });

  it('changes nothing else in a combo campaign', () => {
    const input = slots();
    expect(syncDesigns(input, { productId: 1, printSpace: 'front' }, { combo: true })).toBe(input);
  });

  it('respects the texts per print area when copying customer texts', () => {
    const input = slots();
    const full = withText(withText(emptyDocument(hoodieBack), { id: 'a' }), { id: 'b' });
    input[3] = { productId: 2, printSpace: hoodieBack, doc: full };
    const out = syncDesigns(input, { productId: 1, printSpace: 'front' }, { combo: false });
    expect(out[3]?.doc.objects.map((o) => o.id)).toEqual(['a', 'b']);
  });
});
