import { describe, expect, it } from 'vitest';
import { canRedo, canUndo, historyOf, record, redo, undo, type History } from './history';

describe('history', () => {
  it('undoes and redoes, dropping the redo list on a new step', () => {
    let h: History<string> = record(record(historyOf('a'), 'b'), 'c');
    h = undo(h);
    expect(h.present).toBe('b');
    expect(canRedo(h)).toBe(true);
    h = redo(h);
    expect(h.present).toBe('c');
    h = record(undo(h), 'd');
    expect(canRedo(h)).toBe(false);
    h = undo(h);
    expect(h.present).toBe('b');
    h = undo(h);
    expect(h.present).toBe('a');
    expect(canUndo(h)).toBe(false);
    expect(undo(h)).toBe(h);
  });

  it('is bounded', () => {
    let h = historyOf(0);
    for (let i = 1; i <= 10; i++) h = record(h, i, 3);
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      h = undo(h);
      seen.push(h.present);
    }
    expect(seen).toEqual([9, 8, 7, 7]);
  });

  it('never mutates its input', () => {
    const h = record(historyOf('a'), 'b');
    const frozen = JSON.stringify(h);
    record(h, 'c');
    undo(h);
    redo(undo(h));
    expect(JSON.stringify(h)).toBe(frozen);
  });
});
