import { describe, expect, it } from 'vitest';
import type { Campaign, Product } from '../../api/campaigns';
import { ACTIONS, actionForKey, perform, type ActionName, type ActionValues, type KeyLike, type Performance } from './actions';
import { addImage, addText, emptyDocument } from './index';
import { documentsOf, focusOf, initialState, selectedOf, type EditorState } from './state';
import { FRONT, summerDrop, tshirt } from '../../test/campaigns';

const front = FRONT;
const back = { ...front, name: 'back', isMain: false };
const product: Product = tshirt([front, back]);
const withArt = addImage(emptyDocument(front), { id: 'art-1', src: 'u/1/artworks/a.png', width: 3000, height: 3000 }, { restricted: true });
const added = addText(withArt, { id: 'text-1' });
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
  updateText: { value: { text: 'Bye' }, selected: 'text-1', changesDocument: true },
  setRestricted: { value: true, selected: null, changesDocument: false },
  setLockEdit: { value: true, selected: null, changesDocument: false },
  switchProduct: { value: 7, selected: 'art-1', changesDocument: false },
  switchSpace: { value: 'back', selected: 'art-1', changesDocument: false },
  editDraft: { value: { name: 'Winter drop' }, selected: null, changesDocument: false },
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
    expect(refused.refusal).toBe('A print area holds at most 2 texts.');
    expect(refused.history).toBe(two.history);
    const selected = perform(refused, { name: 'select', value: 'text-1' });
    const removed = perform(selected, actionForKey(press('Delete'), selected, 'canvas')!);
    expect(removed.refusal).toBeNull();
    expect(focusOf(removed)!.doc.objects.map((o) => o.id)).toEqual(['art-1', 'text-2']);
  });

  it('performs nothing its predicate refuses', () => {
    const state = stateWith(null);
    for (const name of ['undo', 'redo', 'remove', 'resize', 'updateText', 'moveLayer'] as const) {
      expect(perform(state, sampleOf(name) as Performance), name).toBe(state);
    }
  });
});
