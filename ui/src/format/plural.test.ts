import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('plural', () => {
  it('agrees with its count', () => {
    expect(plural(1, 'record')).toBe('1 record');
    expect(plural(0, 'record')).toBe('0 records');
    expect(plural(2, 'record')).toBe('2 records');
    expect(plural(3, 'artwork file')).toBe('3 artwork files');
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(5, 'entry', 'entries')).toBe('5 entries');
  });
});
