import { describe, expect, it } from 'vitest';
import { queueCommand, step } from './queue';

const press = (key: string, extra: Partial<{ ctrlKey: boolean; target: EventTarget | null }> = {}) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target: null,
  ...extra,
});

describe('queueCommand', () => {
  it.each([
    ['j', 'next'],
    ['J', 'next'],
    ['ArrowDown', 'next'],
    ['k', 'previous'],
    ['ArrowUp', 'previous'],
    ['a', 'approve'],
    ['r', 'reject'],
    ['x', null],
  ])('reads %s as %s', (key, command) => {
    expect(queueCommand(press(key))).toBe(command);
  });

  it('leaves modified keys and text fields alone', () => {
    expect(queueCommand(press('r', { ctrlKey: true }))).toBeNull();
    expect(queueCommand(press('a', { target: document.createElement('textarea') }))).toBeNull();
    expect(queueCommand(press('j', { target: document.createElement('input') }))).toBeNull();
    expect(queueCommand(press('j', { target: document.createElement('div') }))).toBe('next');
  });
});

describe('step', () => {
  it('moves within the queue and stops at its ends', () => {
    expect(step([4, 7, 9], 7, 1)).toBe(9);
    expect(step([4, 7, 9], 9, 1)).toBe(9);
    expect(step([4, 7, 9], 4, -1)).toBe(4);
    expect(step([4, 7, 9], 7, -1)).toBe(4);
  });

  it('starts at the head when the current item left the queue', () => {
    expect(step([4, 7, 9], 5, 1)).toBe(4);
    expect(step([4, 7, 9], null, 1)).toBe(4);
    expect(step([], 4, 1)).toBeNull();
  });
});
