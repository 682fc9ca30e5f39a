// The undo/redo history of immutable values: a present value between the steps before it and the steps undone.
// Every function returns a new history and never mutates its input, so a history can live in React state.

import { EDITOR } from './index';

/** A bounded undo/redo history. */
export type History<T> = Readonly<{
  past: readonly T[];
  present: T;
  future: readonly T[];
}>;

/** A history with nothing to undo or redo. */
export function historyOf<T>(present: T): History<T> {
  return { past: [], present, future: [] };
}

/**
 * Records a new present value: the redo steps are dropped and the oldest step beyond `limit` is forgotten.
 * The same value again is no step.
 */
export function record<T>(h: History<T>, value: T, limit: number = EDITOR.historyLimit): History<T> {
  if (value === h.present) return h;
  return { past: [...h.past, h.present].slice(-limit), present: value, future: [] };
}

/** Steps back; the history is returned as it is when there is nothing to undo. */
export function undo<T>(h: History<T>): History<T> {
  const prev = h.past.at(-1);
  if (h.past.length === 0) return h;
  return { past: h.past.slice(0, -1), present: prev as T, future: [...h.future, h.present] };
}

/** Steps forward again after an undo. */
export function redo<T>(h: History<T>): History<T> {
  const next = h.future.at(-1);
  if (h.future.length === 0) return h;
  return { past: [...h.past, h.present], present: next as T, future: h.future.slice(0, -1) };
}

export const canUndo = (h: History<unknown>): boolean => h.past.length > 0;
export const canRedo = (h: History<unknown>): boolean => h.future.length > 0;
