import { describe, expect, it, vi } from 'vitest';
import type { DesignExport, PrintSpace, Product } from '../api/campaigns';
import { addImage, addText, emptyDocument, isCustomObject, setCustom, setInput } from '../editor/model';
import {
  EXPORT_POLL_MS,
  MESSAGES,
  checkBeforeSave,
  designKey,
  designableProducts,
  exportPollInterval,
  exportProgress,
  initialDocuments,
  orderedPrintSpaces,
  personalizedMatches,
  placeErrors,
  saveBody,
  type CampaignDraft,
} from './editorState';

const space = (name: string, isMain: boolean): PrintSpace => ({
  name,
  width: 4500,
  height: 5400,
  displayWidth: 500,
  printType: 0,
  isMain,
  viewWidth: 500,
  viewHeight: 600,
  DPI: 300,
  minDPI: 150,
});

function product(id: number, spaces: PrintSpace[], extra: Partial<Product> = {}): Product {
  return {
    id,
    template_id: id,
    name: `Product ${id}`,
    product_type: 'tshirt',
    print_spaces: JSON.stringify(spaces),
    full_printed: 0,
    options: '{"colors":[]}',
    default_option: '',
    mockup_type: '',
    base_cost: 10,
    extra_print_cost: 2,
    personalized: false,
    ...extra,
  };
}

const tshirt = product(1, [space('back', true), space('sleeve', false), space('front', true)]);
const hoodie = product(2, [space('back', false), space('front', true)]);
const draft = (extra: Partial<CampaignDraft> = {}): CampaignDraft => ({
  name: 'Summer',
  personalized: null,
  productPersonalized: {},
  ...extra,
});

function withArt(ps: PrintSpace) {
  return addImage(emptyDocument(ps), { id: 'art-1', src: 'u/1/art.png', width: 4500, height: 5400 }, { restricted: true });
}

describe('print spaces', () => {
  it('lists the main ones first, otherwise in template order', () => {
    expect(orderedPrintSpaces(tshirt).map((ps) => ps.name)).toEqual(['back', 'front', 'sleeve']);
  });

  it('skips a product without a main print space and logs "No main print space"', () => {
    const log = vi.fn();
    const mug = product(3, [space('wrap', false)]);
    expect(designableProducts([tshirt, mug], log)).toEqual([tshirt]);
    expect(log).toHaveBeenCalledWith('No main print space: Product 3 (product 3)');
  });

  it('opens saved designs and empty documents for the others', () => {
    const saved = withArt(space('front', true));
    const docs = initialDocuments(
      { designs: [{ id: 9, product_id: 1, print_space: 'front', design_json: saved, option: 'print', revision: 1, export: {} as never }] },
      [tshirt],
      emptyDocument,
    );
    expect(Object.keys(docs).sort()).toEqual(['1:back', '1:front', '1:sleeve']);
    expect(docs['1:front']).toBe(saved);
    expect(docs['1:back']?.objects).toEqual([]);
  });
});

describe('setCustom and setInput', () => {
  it('marks the image the buyer’s and back, the input going with the mark, leaving the input document alone', () => {
    const doc = withArt(space('front', true));
    const custom = setCustom(doc, 'art-1', true);
    expect(custom.objects[0]).toMatchObject({ id: 'art-1', isCustom: true });
    expect(isCustomObject(custom.objects[0]!)).toBe(true);
    expect(doc.objects[0]).not.toHaveProperty('isCustom');
    const picked = setInput(custom, 'art-1', { kind: 'dropdown', label: 'Symbol', options: [{ label: 'Star', src: 'u/1/s.png', width: 10, height: 10 }] });
    expect(picked.objects[0]).toMatchObject({ input: { kind: 'dropdown', label: 'Symbol' } });
    expect(setInput(picked, 'art-1', undefined).objects[0]).not.toHaveProperty('input');
    const plain = setCustom(picked, 'art-1', false).objects[0];
    expect(plain).not.toHaveProperty('isCustom');
    expect(plain).not.toHaveProperty('input');
  });

  it('gives no input to an object that is not the buyer’s', () => {
    const doc = withArt(space('front', true));
    expect(setInput(doc, 'art-1', { kind: 'image' })).toEqual(doc);
  });
});

describe('checkBeforeSave', () => {
  it('wants a design with an object on every product', () => {
    const docs = { [designKey(1, 'front')]: withArt(space('front', true)) };
    const body = saveBody([tshirt, hoodie], draft(), docs);
    expect(body.designs.map((d) => `${d.product_id}:${d.print_space}`)).toEqual(['1:front']);
    expect(checkBeforeSave([tshirt, hoodie], body)).toEqual([{ field: 'products[1]', message: MESSAGES.designPerProduct }]);
  });

  it('applies the personalized match rule, leaving handmade products out', () => {
    const handmade = { personalized: true, full_printed: 1 };
    expect(personalizedMatches(null, [{ personalized: false, full_printed: 0 }, handmade])).toBe(true);
    expect(personalizedMatches(true, [{ personalized: false, full_printed: 0 }])).toBe(false);
    expect(personalizedMatches(null, [{ personalized: true, full_printed: 0 }, { personalized: false, full_printed: 2 }])).toBe(false);

    const docs = { '1:front': withArt(space('front', true)), '2:front': withArt(space('front', true)) };
    const body = saveBody([tshirt, hoodie], draft({ productPersonalized: { 2: true } }), docs);
    expect(checkBeforeSave([tshirt, hoodie], body)).toEqual([{ field: 'personalized', message: MESSAGES.personalizedMismatch }]);
  });

  it('reports a document problem at the path the bff uses', () => {
    const doc = withArt(space('front', true));
    const broken = { ...doc, objects: [{ ...doc.objects[0]!, width: -5 }] };
    const body = saveBody([tshirt], draft(), { '1:front': broken });
    const errors = checkBeforeSave([tshirt], body);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.field).toBe('designs[0].design_json.objects[0].width');
  });

  it('needs a name', () => {
    const body = saveBody([tshirt], draft({ name: '   ' }), { '1:front': withArt(space('front', true)) });
    expect(checkBeforeSave([tshirt], body)).toEqual([{ field: 'name', message: 'The name field is required.' }]);
  });
});

describe('placeErrors', () => {
  const UNEXPECTED = 'An error occurred, please try again.';
  const front = withArt(space('front', true));
  const added = addText(front);
  if ('error' in added) throw new Error(added.error);
  const docs = { '1:front': front, '2:front': added.doc };
  const body = saveBody([tshirt, hoodie], draft(), docs);

  it('puts each field error where the editor shows it', () => {
    const placed = placeErrors(
      [
        { field: 'name', message: 'The name has already been taken.' },
        { field: 'products[1]', message: MESSAGES.designPerProduct },
        { field: 'designs[1].design_json.objects[1].text', message: 'text is longer than maxLength 16' },
        { field: 'designs[0]', message: 'print space front does not match the product' },
        { message: UNEXPECTED },
        { field: 'designs[7].design_json', message: 'out of range' },
      ],
      [tshirt, hoodie],
      body,
    );
    expect(placed.name).toBe('The name has already been taken.');
    expect(placed.products).toEqual({ 2: [MESSAGES.designPerProduct] });
    expect(placed.designs).toEqual({
      '2:front': ['text-1 (text): text is longer than maxLength 16'],
      '1:front': ['print space front does not match the product'],
    });
    expect(placed.general).toEqual([UNEXPECTED, 'out of range']);
  });
});

function exported(design_id: number, revision: number, status: DesignExport['status']): DesignExport {
  return {
    design_id,
    product_id: 1,
    print_space: 'front',
    revision,
    status,
    file_url: '',
    download_url: '',
    file_name: '',
    width: 0,
    height: 0,
    dpi: 0,
    file_size: 0,
    report: null,
    error: '',
  };
}

describe('export polling', () => {
  const revisions = { 10: 2, 11: 1 };

  it('polls while a saved revision is pending or rendering', () => {
    const list = [exported(10, 2, 'rendering'), exported(11, 1, 'done')];
    expect(exportProgress(list, revisions)).toEqual({ total: 2, done: 1, failed: 0, settled: false });
    expect(exportPollInterval(list, revisions)).toBe(EXPORT_POLL_MS);
  });

  it('keeps polling while the list still shows the revision before the save', () => {
    const list = [exported(10, 1, 'done'), exported(11, 1, 'done')];
    expect(exportProgress(list, revisions).settled).toBe(false);
    expect(exportPollInterval(list, revisions)).toBe(EXPORT_POLL_MS);
  });

  it('stops once every export is done or failed', () => {
    const list = [exported(10, 2, 'failed'), exported(11, 1, 'done'), exported(12, 4, 'pending')];
    expect(exportProgress(list, revisions)).toEqual({ total: 2, done: 1, failed: 1, settled: true });
    expect(exportPollInterval(list, revisions)).toBe(false);
  });

  it('polls before the first answer and not at all without a save to wait for', () => {
    expect(exportPollInterval(undefined, revisions)).toBe(EXPORT_POLL_MS);
    expect(exportPollInterval(undefined, {})).toBe(false);
  });
});
