import { describe, expect, it } from 'vitest';
import table from '../../../schema/testdata/twins/personalize.json';
import type { DesignDocument, TextObject } from '../editor/document';
import { drawnDocument, readAnswers, showMessages, type FieldEl, type PreviewData } from './form';

// The product page's fields as storefront/shop's template writes them, for the twin table's main document.
const doc = (table.documents as unknown as Record<string, DesignDocument>).main!;

function page(): { fields: FieldEl[]; root: HTMLElement } {
  const root = document.createElement('fieldset');
  root.innerHTML = `
    <div class="pz-field" data-pz-space="front" data-pz-object="name" data-pz-kind="text">
      <input type="text" value="Sam"><p data-pz-error hidden></p></div>
    <div class="pz-field" data-pz-space="front" data-pz-object="year" data-pz-kind="dropdown">
      <select><option value="0">2025</option><option value="1" selected>2026</option></select><p data-pz-error hidden></p></div>
    <div class="pz-field" data-pz-space="front" data-pz-object="photo" data-pz-kind="image">
      <input type="file"><p data-pz-warning hidden></p><p data-pz-error hidden></p></div>
    <div class="pz-field" data-pz-space="front" data-pz-object="symbol" data-pz-kind="dropdown">
      <input type="radio" name="s" value="0"><input type="radio" name="s" value="1" checked><p data-pz-error hidden></p></div>`;
  const fields = [...root.querySelectorAll<HTMLElement>('.pz-field')].map((el) => ({
    el, space: el.dataset.pzSpace!, objectId: el.dataset.pzObject!, kind: el.dataset.pzKind!,
  }));
  return { fields, root };
}

const textOf = (d: DesignDocument, id: string) => (d.objects.find((o) => o.id === id) as TextObject | undefined)?.text;

describe('the preview reads the product page’s fields', () => {
  it('reads texts, selects, checked pictures and picked photos', () => {
    const { fields } = page();
    const answers = readAnswers(fields, new Map([['front\nphoto', { url: 'blob:x', width: 1600, height: 900 }]]));
    expect(answers.get('front')).toEqual({
      name: { text: 'Sam' },
      year: { choice: 1 },
      photo: { photo: { key: 'blob:x', width: 1600, height: 900 } },
      symbol: { choice: 1 },
    });
  });

  it('draws what the buyer typed, the choices and the photo in its box', () => {
    const { fields } = page();
    const drawn = drawnDocument(doc, 'front', readAnswers(fields, new Map([['front\nphoto', { url: 'blob:x', width: 1600, height: 900 }]])).get('front')!);
    expect(textOf(drawn, 'name')).toBe('Sam');
    expect(textOf(drawn, 'year')).toBe('2026');
    expect(drawn.objects.find((o) => o.id === 'symbol')).toMatchObject({ src: 'u/1/star.png' });
    expect(drawn.objects.find((o) => o.id === 'photo')).toMatchObject({ src: 'blob:x', width: 400, height: 225 });
  });

  it('draws a cleared required name as nothing, and a refused one as typed so far is not drawn', () => {
    const { fields } = page();
    (fields[0]!.el.querySelector('input') as HTMLInputElement).value = '';
    expect(textOf(drawnDocument(doc, 'front', readAnswers(fields, new Map()).get('front')!), 'name')).toBeUndefined();
    (fields[0]!.el.querySelector('input') as HTMLInputElement).value = 'Anna 2';
    // Digits are refused in a letters-only name: the preview keeps the seller's sample rather than draw them.
    expect(textOf(drawnDocument(doc, 'front', readAnswers(fields, new Map()).get('front')!), 'name')).toBe('ANNA');
  });

  it('says what is wrong under a field the buyer touched, and warns of a small photo', () => {
    const { fields } = page();
    (fields[0]!.el.querySelector('input') as HTMLInputElement).value = 'Anna 2';
    const photos = new Map([['front\nphoto', { url: 'blob:x', width: 100, height: 75 }]]);
    const data = { product_id: 1, asset: '', designs: [{ print_space: 'front', doc }], mockup: null } satisfies PreviewData;
    showMessages(fields, data, readAnswers(fields, photos), photos, new Set());
    const error = fields[0]!.el.querySelector<HTMLElement>('[data-pz-error]')!;
    expect(error.hidden).toBe(true);
    showMessages(fields, data, readAnswers(fields, photos), photos, new Set([fields[0]!.el]));
    expect(error.hidden).toBe(false);
    expect(error.textContent).toBe('Use letters and spaces only.');
    const warning = fields[2]!.el.querySelector<HTMLElement>('[data-pz-warning]')!;
    expect(warning.hidden).toBe(false);
    expect(warning.textContent).toContain('here it would print at 75 DPI');
  });
});
