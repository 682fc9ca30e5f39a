import { describe, expect, it } from 'vitest';
import type { Campaign, Product } from '../../api/campaigns';
import { ACTIONS, actionForKey, perform, type ActionName, type ActionValues, type KeyLike, type Performance } from './actions';
import type { TextObject } from '../document';
import { addImage, addText, emptyDocument, setCustom } from './index';
import { documentsOf, focusOf, initialState, selectedOf, type EditorState } from './state';
import { FRONT, summerDrop, tshirt } from '../../test/campaigns';

const front = FRONT;
const back = { ...front, name: 'back', isMain: false };
const product: Product = tshirt([front, back]);
const withArt = addImage(emptyDocument(front), { id: 'art-1', src: 'u/1/artworks/a.png', width: 3000, height: 3000 }, { restricted: true });
// The buyer's photo, so that setInput has something to set.
const withPhoto = setCustom(addImage(withArt, { id: 'photo-1', src: 'u/1/artworks/p.png', width: 500, height: 500 }, { restricted: true }), 'photo-1', true);
const added = addText(withPhoto, { id: 'text-1' });
if ('error' in added) throw new Error(added.error);
const campaign: Campaign = summerDrop(product, added.doc);

/** The loaded campaign with restricted mode off (so every sample moves freely) and `selectedId` selected. */
function stateWith(selectedId: string | null): EditorState {
  return { ...initialState(campaign), restricted: false, selectedId };
}

/** Per action: a value, what is selected when it is performed, and whether it changes the documents. */
type Sample<N extends ActionName> = { value: ActionValues[N]; selected: string | null; changesDocument: boolean };

// Typed by ActionName: a new action does not compile until it has a sample here, so the walk below covers it.
const SAMPLES: { [N in ActionName]: Sample<N> } = {
  undo: { value: undefined, selected: null, changesDocument: false },
  redo: { value: undefined, selected: null, changesDocument: false },
  addText: { value: undefined, selected: null, changesDocument: true },
  remove: { value: undefined, selected: 'art-1', changesDocument: true },
  nudge: { value: { dx: 1, dy: -1, big: true }, selected: 'text-1', changesDocument: true },
  select: { value: 'text-1', selected: null, changesDocument: false },
  transform: { value: { id: 'art-1', box: { x: 10, y: 20, width: 300, height: 300, rotation: 0 } }, selected: 'art-1', changesDocument: true },
  pickUpload: { value: { src: 'u/1/artworks/b.png', width: 2000, height: 1000 }, selected: null, changesDocument: true },
  resize: { value: { width: 1000 }, selected: 'art-1', changesDocument: true },
  setCustomImage: { value: true, selected: 'art-1', changesDocument: true },
  moveLayer: { value: 'up', selected: 'art-1', changesDocument: true },
  setInput: { value: { kind: 'dropdown', label: 'Symbol', options: [{ label: 'Star', src: 'u/1/s.png', width: 10, height: 10 }] }, selected: 'photo-1', changesDocument: true },
  updateText: { value: { text: 'Bye' }, selected: 'text-1', changesDocument: true },
  setRestricted: { value: true, selected: null, changesDocument: false },
  setLockEdit: { value: true, selected: null, changesDocument: false },
  switchProduct: { value: 7, selected: 'art-1', changesDocument: false },
  switchSpace: { value: 'back', selected: 'art-1', changesDocument: false },
  editDraft: { value: { name: 'Winter drop' }, selected: null, changesDocument: false },
  restoreDraft: {
    value: {
      docs: { [`${product.id}:front`]: emptyDocument(front) },
      draft: { name: 'Kept name', personalized: null, productPersonalized: { [product.id]: true } },
    },
    selected: 'art-1',
    changesDocument: true,
  },
};

const NAMES = Object.keys(ACTIONS) as ActionName[];
const sampleOf = (name: ActionName) => ({ name, ...(SAMPLES[name] as Sample<ActionName>) });
const UNDO: Performance = { name: 'undo', value: undefined };
const REDO: Performance = { name: 'redo', value: undefined };

describe('the action registry', () => {
  it('names every action by its key', () => {
    for (const name of NAMES) expect(ACTIONS[name].name).toBe(name);
  });

  it.each(NAMES.filter((n) => n !== 'undo' && n !== 'redo').map(sampleOf))(
    '$name: a document change is one undo step, undone and redone exactly; anything else leaves the history alone',
    ({ name, value, selected, changesDocument }) => {
      const before = stateWith(selected);
      const after = perform(before, { name, value } as Performance);
      if (!changesDocument) {
        expect(after.history).toBe(before.history);
        expect(after).not.toEqual(before);
        return;
      }
      expect(documentsOf(after)).not.toEqual(documentsOf(before));
      const undone = perform(after, UNDO);
      expect(documentsOf(undone)).toBe(documentsOf(before));
      const redone = perform(undone, REDO);
      expect(documentsOf(redone)).toBe(documentsOf(after));
      expect(perform(redone, REDO)).toBe(redone);
    },
  );

  it('keeps a key on the page or on the canvas, and gives each key to one action at most', () => {
    const presses: KeyLike[] = [];
    for (const key of ['z', 'Z', 'y', 'Delete', 'Backspace', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'a']) {
      for (const ctrlKey of [false, true]) {
        for (const shiftKey of [false, true]) presses.push({ key, ctrlKey, metaKey: false, shiftKey, altKey: false });
      }
    }
    const state = stateWith('art-1');
    for (const press of presses) {
      const takers = NAMES.filter((n) => ACTIONS[n].keyTest?.(press, state));
      expect(takers.length, JSON.stringify(press)).toBeLessThanOrEqual(1);
    }
    for (const name of NAMES) {
      const action = ACTIONS[name];
      expect(action.keyTest === undefined, name).toBe(action.keyScope === undefined);
    }
  });
});

const press = (key: string, mods: Partial<KeyLike> = {}): KeyLike => ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });

describe('keys', () => {
  it('undoes with Ctrl+Z (or Cmd+Z) and redoes with Ctrl+Shift+Z or Ctrl+Y, on the page', () => {
    const state = stateWith(null);
    expect(actionForKey(press('z', { ctrlKey: true }), state, 'page')?.name).toBe('undo');
    expect(actionForKey(press('z', { metaKey: true }), state, 'page')?.name).toBe('undo');
    expect(actionForKey(press('Z', { ctrlKey: true, shiftKey: true }), state, 'page')?.name).toBe('redo');
    expect(actionForKey(press('y', { ctrlKey: true }), state, 'page')?.name).toBe('redo');
    expect(actionForKey(press('z'), state, 'page')).toBeNull();
    expect(actionForKey(press('z', { ctrlKey: true }), state, 'canvas')).toBeNull();
  });

  it('deletes and nudges the selected object on the canvas, unless lock-edit mode holds it', () => {
    const state = stateWith('text-1');
    expect(actionForKey(press('Delete'), state, 'canvas')?.name).toBe('remove');
    expect(actionForKey(press('ArrowLeft', { shiftKey: true }), state, 'canvas')).toEqual({
      name: 'nudge',
      value: { dx: -1, dy: 0, big: true },
    });
    expect(actionForKey(press('Delete'), state, 'page')).toBeNull();
    expect(actionForKey(press('Delete'), { ...state, lockEdit: true }, 'canvas')).toBeNull();
    expect(actionForKey(press('Delete'), stateWith(null), 'canvas')).toBeNull();
  });

  it('nudges by one screen pixel, ten with Shift', () => {
    const state = stateWith('text-1');
    const x = selectedOf(state)!.x;
    const pixel = front.width / 500;
    expect(selectedOf(perform(state, { name: 'nudge', value: { dx: 1, dy: 0, big: false } }))!.x).toBeCloseTo(x + pixel);
    expect(selectedOf(perform(state, { name: 'nudge', value: { dx: -1, dy: 0, big: true } }))!.x).toBeCloseTo(x - 10 * pixel);
  });
});

describe('refusals', () => {
  it('refuses a third text, and a removal (by key or button) clears the refusal', () => {
    const two = perform(stateWith(null), { name: 'addText', value: undefined });
    expect(two.refusal).toBeNull();
    const refused = perform(two, { name: 'addText', value: undefined });
    expect(refused.refusal).toEqual({ at: 'texts', message: 'A print area holds at most 2 texts.' });
    expect(refused.history).toBe(two.history);
    const selected = perform(refused, { name: 'select', value: 'text-1' });
    const removed = perform(selected, actionForKey(press('Delete'), selected, 'canvas')!);
    expect(removed.refusal).toBeNull();
    expect(focusOf(removed)!.doc.objects.map((o) => o.id)).toEqual(['art-1', 'photo-1', 'text-2']);
  });

  it('says so under the field when a paste is longer than the text holds', () => {
    const state = stateWith('text-1');
    const pasted = perform(state, { name: 'updateText', value: { text: 'Twenty characters!!!' } });
    expect((selectedOf(pasted) as TextObject).text).toBe('Twenty character');
    expect(pasted.refusal).toEqual({ at: 'text', message: 'This text holds at most 16 characters: the last 4 characters were left out.' });
    // A smaller maxLength is the limit; the next edit that fits clears the message.
    const short = perform(perform(state, { name: 'updateText', value: { maxLength: 5 } }), { name: 'updateText', value: { text: 'Hello!' } });
    expect(short.refusal?.message).toBe('This text holds at most 5 characters: the last character was left out.');
    expect(perform(short, { name: 'updateText', value: { text: 'Hi' } }).refusal).toBeNull();
  });

  it('says why restricted mode holds back the width of a low-resolution artwork', () => {
    // art-1 is 3000 px wide at its natural 500: restricted mode allows 2 x 500 = 1000 px.
    const state = { ...stateWith('art-1'), restricted: true };
    const natural = { width: 500, height: 500 };
    const held = perform(state, { name: 'resize', value: { width: 1200, natural } });
    expect(selectedOf(held)!.width).toBe(1000);
    expect(held.refusal).toEqual({
      at: 'artwork',
      message:
        'This artwork is 500 × 500 px: wider than 1000 px it would print below 150 DPI, which restricted mode does not allow. ' +
        'Upload a larger file, or turn restricted mode off.',
    });
    expect(perform(held, { name: 'resize', value: { width: 800, natural } }).refusal).toBeNull();
    expect(perform(held, { name: 'select', value: 'text-1' }).refusal).toBeNull();
  });

  it('sizes a new text to span 80% of the print area when it can measure it', () => {
    const state = { ...initialState(summerDrop(product, emptyDocument(front))), restricted: false };
    // "Hello" measuring 2.25 ems: 0.8 x 4500 / 2.25 = 1600.
    const added = perform(state, { name: 'addText', value: (line: string) => (line === 'Hello' ? 2.25 : 0) });
    const text = selectedOf(added) as TextObject;
    expect(text.fontSize).toBe(1600);
    expect(text.width).toBe(3600);
    expect(text.y).toBe((5400 - 1600) / 2);
    // The second starts below the first, within the print area.
    const second = selectedOf(perform(added, { name: 'addText', value: () => 2.25 })) as TextObject;
    expect(second.y).toBe(5400 - 1600);
  });

  it('performs nothing its predicate refuses', () => {
    const state = stateWith(null);
    for (const name of ['undo', 'redo', 'remove', 'resize', 'updateText', 'moveLayer'] as const) {
      expect(perform(state, sampleOf(name) as Performance), name).toBe(state);
    }
  });
});
