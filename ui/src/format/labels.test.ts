import { expect, test } from 'vitest';
import { label } from './labels';

test('a known code reads as its table says', () => {
  expect(label({ pending_payment: 'Awaiting payment' }, 'pending_payment')).toBe('Awaiting payment');
});

test('an unknown code is made words, whether snake or UPPER_SNAKE', () => {
  expect(label({}, 'partially_refunded')).toBe('Partially refunded');
  expect(label({}, 'ARTWORK_NOT_FOUND')).toBe('Artwork not found');
  expect(label({}, 'manual')).toBe('Manual');
});

test('a message already in words is kept as it is', () => {
  expect(label({}, 'Design url is invalid')).toBe('Design url is invalid');
  expect(label({}, 'HTTP 404 from the artwork URL')).toBe('HTTP 404 from the artwork URL');
});
