// The editor's actions: every command a shortcut, a button, a form field or the canvas performs, in one registry.
// An action's perform returns the next state (never mutating the one it gets); predicate says whether it applies
// now (a disabled button, an ignored key); keyTest says which key performs it. See docs/editor-actions.md.

import type { CampaignDraft, Documents } from '../../campaigns/editorState';
import type { Input, TextObject } from '../document';
import type { Measure } from '../textLayout';
import { canRedo, canUndo, record, redo, undo } from './history';
import {
  EDITOR,
  addImage,
  addText,
  defaultFontSize,
  isCustomObject,
  moveLayer,
  nextId,
  objectHeight,
  printable,
  removeObject,
  replaceImage,
  setCustom,
  setInput,
  sizeRefusal,
  textCutMessage,
  textLimit,
  texts,
  transformObject,
  updateText,
  type Box,
  type LayerMove,
  type Size,
} from './index';
import { edit, focusOf, isMovable, selectedOf, type EditorState } from './state';

/** What a key test reads of a key press (a KeyboardEvent has it all). */
export type KeyLike = Readonly<Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>>;

/**
 * Where an action's key is heard: 'page' anywhere on the page except in form fields; 'canvas' only while the design
 * canvas has the focus.
 */
export type KeyScope = 'page' | 'canvas';

/** The nudge of the selected object by one screen pixel (ten with big) along x and y. */
export type Nudge = Readonly<{ dx: -1 | 0 | 1; dy: -1 | 0 | 1; big: boolean }>;

/** The value each action is performed with. */
export interface ActionValues {
  undo: undefined;
  redo: undefined;
  /** Measures the default text in ems, to size it to the print area (EDITOR.defaultFontSize without one). */
  addText: Measure | undefined;
  remove: undefined;
  nudge: Nudge;
  select: string | null;
  /** A placement from the canvas, with the natural size of the image when it is known. */
  transform: Readonly<{ id: string; box: Box; natural?: Size }>;
  /** An upload to place: it replaces the selected image, or is added. */
  pickUpload: Readonly<{ src: string } & Size>;
  /** The new width of the selected image, the height following its aspect. */
  resize: Readonly<{ width: number; natural?: Size }>;
  setCustomImage: boolean;
  /** How the buyer fills the selected custom object; undefined: the default of its type. */
  setInput: Input | undefined;
  moveLayer: LayerMove;
  updateText: Readonly<Partial<Omit<TextObject, 'type' | 'id'>>>;
  setRestricted: boolean;
  setLockEdit: boolean;
  switchProduct: number;
  switchSpace: string;
  editDraft: Readonly<Partial<CampaignDraft>>;
  /** Work kept in the browser (campaigns/localDraft.ts) to take back: its documents and campaign fields. */
  restoreDraft: Readonly<{ docs: Documents; draft: CampaignDraft }>;
}

export type ActionName = keyof ActionValues;

export interface Action<V> {
  readonly name: ActionName;
  /** What a button or a menu item says, and its tooltip. */
  readonly label: string;
  /** The keys of keyTest in words, for tooltips. */
  readonly shortcut?: string;
  readonly perform: (state: EditorState, value: V) => EditorState;
  readonly predicate?: (state: EditorState) => boolean;
  readonly keyScope?: KeyScope;
  readonly keyTest?: (event: KeyLike, state: EditorState) => boolean;
  /** The value a key press performs the action with (actions without a value need none). */
  readonly keyValue?: (event: KeyLike) => V;
}

const mod = (e: KeyLike) => e.ctrlKey || e.metaKey;
const key = (e: KeyLike, k: string) => e.key.toLowerCase() === k;

/** Whether the selected object may be moved by keys: one is selected and lock-edit mode leaves it free. */
function movableSelection(state: EditorState): boolean {
  const o = selectedOf(state);
  return !!o && isMovable(state, o);
}

const ARROWS: Readonly<Record<string, readonly [-1 | 0 | 1, -1 | 0 | 1]>> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/** Every action of the editor, by name. */
export const ACTIONS: { readonly [N in ActionName]: Action<ActionValues[N]> } = {
  undo: {
    name: 'undo',
    label: 'Undo',
    shortcut: 'Ctrl+Z',
    predicate: (s) => canUndo(s.history),
    keyScope: 'page',
    keyTest: (e) => mod(e) && !e.shiftKey && !e.altKey && key(e, 'z'),
    perform: (s) => ({ ...s, history: undo(s.history) }),
  },
  redo: {
    name: 'redo',
    label: 'Redo',
    shortcut: 'Ctrl+Shift+Z or Ctrl+Y',
    predicate: (s) => canRedo(s.history),
    keyScope: 'page',
    keyTest: (e) => mod(e) && !e.altKey && ((e.shiftKey && key(e, 'z')) || (!e.shiftKey && key(e, 'y'))),
    perform: (s) => ({ ...s, history: redo(s.history) }),
  },
  addText: {
    name: 'addText',
    label: 'Add text',
    perform: (s, measure) => {
      const doc = focusOf(s)?.doc;
      if (!doc) return s;
      // Each further text starts one and a half lines below the last, so a new text never hides the one before.
      const size = defaultFontSize(doc.printSpace, measure);
      const below = (doc.printSpace.height - size) / 2 + texts(doc).length * size * 1.5;
      const added = addText(doc, { fontSize: size, y: Math.max(0, Math.min(below, doc.printSpace.height - size)) });
      if ('error' in added) return { ...s, refusal: { at: 'texts', message: added.error } };
      const next = edit({ ...s, refusal: null }, added.doc);
      return { ...next, selectedId: added.doc.objects.at(-1)?.id ?? null };
    },
  },
  remove: {
    name: 'remove',
    label: 'Remove',
    shortcut: 'Delete or Backspace on the canvas',
    predicate: (s) => selectedOf(s) !== null,
    keyScope: 'canvas',
    keyTest: (e, s) => (e.key === 'Delete' || e.key === 'Backspace') && movableSelection(s),
    perform: (s) => {
      const doc = focusOf(s)?.doc;
      const o = selectedOf(s);
      if (!doc || !o) return s;
      return { ...edit(s, removeObject(doc, o.id)), selectedId: null, refusal: null };
    },
  },
  nudge: {
    name: 'nudge',
    label: 'Move by a screen pixel',
    shortcut: 'arrow keys on the canvas, with Shift ten pixels',
    predicate: movableSelection,
    keyScope: 'canvas',
    keyTest: (e, s) => e.key in ARROWS && movableSelection(s),
    keyValue: (e) => {
      const [dx, dy] = ARROWS[e.key] ?? [0, 0];
      return { dx, dy, big: e.shiftKey };
    },
    perform: (s, { dx, dy, big }) => {
      const doc = focusOf(s)?.doc;
      const o = selectedOf(s);
      if (!doc || !o) return s;
      const step = ((big ? 10 : 1) * doc.printSpace.width) / EDITOR.displayWidth; // one (or ten) screen pixels
      const box = { x: o.x + dx * step, y: o.y + dy * step, width: o.width, height: objectHeight(o) };
      return edit(s, transformObject(doc, o.id, box, { restricted: s.restricted, lockEdit: s.lockEdit }));
    },
  },
  select: {
    name: 'select',
    label: 'Select',
    perform: (s, id) => (id === s.selectedId ? s : { ...s, selectedId: id, refusal: null }),
  },
  transform: {
    name: 'transform',
    label: 'Move, resize or rotate',
    perform: (s, { id, box, natural }) => {
      const doc = focusOf(s)?.doc;
      if (!doc) return s;
      return edit(s, transformObject(doc, id, box, { restricted: s.restricted, lockEdit: s.lockEdit, natural }));
    },
  },
  pickUpload: {
    name: 'pickUpload',
    label: 'Add or replace artwork',
    perform: (s, { src, width, height }) => {
      const doc = focusOf(s)?.doc;
      if (!doc) return s;
      const known = { ...s, naturals: { ...s.naturals, [src]: { width, height } } };
      const o = selectedOf(s);
      if (o?.type === 'image') return edit(known, replaceImage(doc, o.id, { src, width, height }));
      const id = nextId(doc, 'art');
      return { ...edit(known, addImage(doc, { id, src, width, height }, { restricted: s.restricted })), selectedId: id };
    },
  },
  resize: {
    name: 'resize',
    label: 'Width',
    predicate: (s) => selectedOf(s)?.type === 'image',
    perform: (s, { width, natural }) => {
      const doc = focusOf(s)?.doc;
      const o = selectedOf(s);
      if (!doc || o?.type !== 'image') return s;
      const height = (o.height * width) / o.width;
      const box = { x: o.x + (o.width - width) / 2, y: o.y + (o.height - height) / 2, width, height, rotation: o.rotation };
      const why = s.lockEdit ? null : sizeRefusal(doc.printSpace, o, box, { restricted: s.restricted, natural });
      const next = edit(s, transformObject(doc, o.id, box, { restricted: s.restricted, lockEdit: s.lockEdit, natural }));
      return { ...next, refusal: why ? { at: 'artwork', message: why } : null };
    },
  },
  setCustomImage: {
    name: 'setCustomImage',
    label: 'Customer image',
    predicate: (s) => selectedOf(s)?.type === 'image',
    perform: (s, custom) => {
      const doc = focusOf(s)?.doc;
      const o = selectedOf(s);
      return doc && o?.type === 'image' ? edit(s, setCustom(doc, o.id, custom)) : s;
    },
  },
  setInput: {
    name: 'setInput',
    label: 'Buyer input',
    predicate: (s) => {
      const o = selectedOf(s);
      return !!o && isCustomObject(o);
    },
    perform: (s, input) => {
      const doc = focusOf(s)?.doc;
      const o = selectedOf(s);
      return doc && o && isCustomObject(o) ? edit(s, setInput(doc, o.id, input)) : s;
    },
  },
  moveLayer: {
    name: 'moveLayer',
    label: 'Forward or backward',
    predicate: (s) => selectedOf(s) !== null,
    perform: (s, move) => {
      const doc = focusOf(s)?.doc;
      const o = selectedOf(s);
      return doc && o ? edit(s, moveLayer(doc, o.id, move)) : s;
    },
  },
  updateText: {
    name: 'updateText',
    label: 'Edit text',
    predicate: (s) => selectedOf(s)?.type === 'text',
    perform: (s, patch) => {
      const doc = focusOf(s)?.doc;
      const o = selectedOf(s);
      if (!doc || o?.type !== 'text') return s;
      // Words past the text's limit are cut, and the seller is told so under the field.
      const limit = textLimit({ ...o, ...patch });
      const dropped = patch.text === undefined ? 0 : printable(patch.text).length - limit;
      const next = edit(s, updateText(doc, o.id, patch));
      return { ...next, refusal: dropped > 0 ? { at: 'text', message: textCutMessage(limit, dropped) } : null };
    },
  },
  setRestricted: {
    name: 'setRestricted',
    label: 'Restricted mode',
    perform: (s, restricted) => ({ ...s, restricted }),
  },
  setLockEdit: {
    name: 'setLockEdit',
    label: 'Lock edit',
    perform: (s, lockEdit) => ({ ...s, lockEdit }),
  },
  switchProduct: {
    name: 'switchProduct',
    label: 'Product',
    perform: (s, productId) => ({ ...s, productId, spaceName: '', selectedId: null, refusal: null }),
  },
  switchSpace: {
    name: 'switchSpace',
    label: 'Print space',
    perform: (s, spaceName) => ({ ...s, spaceName, selectedId: null, refusal: null }),
  },
  editDraft: {
    name: 'editDraft',
    label: 'Campaign settings',
    perform: (s, patch) => ({ ...s, draft: { ...s.draft, ...patch } }),
  },
  restoreDraft: {
    name: 'restoreDraft',
    label: 'Restore the unsaved changes',
    perform: (s, { docs, draft }) => {
      // Only documents of this campaign's print spaces, at their size, come back; one undo step takes them away.
      const current = s.history.present;
      const restored: Documents = Object.fromEntries(
        Object.entries(current).map(([key, doc]) => {
          const kept = docs[key];
          const fits = kept && kept.printSpace.width === doc.printSpace.width && kept.printSpace.height === doc.printSpace.height;
          return [key, fits ? kept : doc];
        }),
      );
      const productPersonalized = Object.fromEntries(
        Object.entries(s.draft.productPersonalized).map(([id, v]) => [id, draft.productPersonalized[Number(id)] ?? v]),
      );
      return {
        ...s,
        history: record(s.history, restored),
        draft: { ...s.draft, name: draft.name, personalized: draft.personalized, productPersonalized },
        selectedId: null,
        refusal: null,
      };
    },
  },
};

/** An action with the value to perform it with. */
export type Performance = { [N in ActionName]: Readonly<{ name: N; value: ActionValues[N] }> }[ActionName];

/** The actions the design canvas performs: selecting with a click, and moving, resizing or rotating with the mouse. */
export const CANVAS_ACTIONS = ['select', 'transform'] as const satisfies readonly ActionName[];

/** An action of CANVAS_ACTIONS with its value: all the canvas can perform. */
export type CanvasPerformance = Extract<Performance, { name: (typeof CANVAS_ACTIONS)[number] }>;

/** Performs an action when its predicate allows it; otherwise the state is returned as it is. */
export function perform(state: EditorState, { name, value }: Performance): EditorState {
  const action = ACTIONS[name] as Action<typeof value>;
  if (action.predicate && !action.predicate(state)) return state;
  return action.perform(state, value);
}

/** What a tooltip says of an action: its label and its keys. */
export function tooltipOf(name: ActionName): string {
  const { label, shortcut } = ACTIONS[name];
  return shortcut ? `${label} (${shortcut})` : label;
}

/** Whether an action applies now (a button bound to it is enabled). */
export function applies(state: EditorState, name: ActionName): boolean {
  return ACTIONS[name].predicate?.(state) ?? true;
}

/** The action a key press performs in a scope, with its value; null when no action takes the key. */
export function actionForKey(event: KeyLike, state: EditorState, scope: KeyScope): Performance | null {
  for (const action of Object.values(ACTIONS) as Action<unknown>[]) {
    if (action.keyScope !== scope || !action.keyTest?.(event, state)) continue;
    return { name: action.name, value: action.keyValue?.(event) } as Performance;
  }
  return null;
}
