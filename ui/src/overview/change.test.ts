import { describe, expect, it } from 'vitest';
import { changeText, changeTone } from './change';

describe('changeText', () => {
  it.each([
    [112.5, 100, 'sales', '+12.5%'],
    [97, 100, 'sales', '\u22123.0%'],
    [100, 100, 'sales', 'no change'],
    [5, 0, 'sales', 'no previous sales'],
    [0, 0, 'visits', 'no previous visits'],
    [0, 4, 'orders', '\u2212100.0%'],
    [-50, -100, 'earnings', '+50.0%'],
  ])('%d against %d', (value, previous, what, want) => {
    expect(changeText(value, previous, what)).toBe(want);
  });

  it('tones a rise up, a fall down, nothing to compare with none', () => {
    expect([changeTone(2, 1), changeTone(1, 2), changeTone(1, 0), changeTone(3, 3)]).toEqual(['up', 'down', 'none', 'none']);
  });
});
