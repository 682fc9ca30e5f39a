import { expect, test } from 'vitest';
import { productOutline } from './outlines';

const FRONT = { name: 'front', width: 4500, height: 5400 };

test('a T-shirt’s outline reaches past its front print area on every side', () => {
  const outline = productOutline('tshirt', FRONT);
  expect(outline).not.toBeNull();
  const b = outline!.bounds;
  expect(b.x).toBeLessThan(0);
  expect(b.y).toBeLessThan(0);
  expect(b.x + b.width).toBeGreaterThan(FRONT.width);
  expect(b.y + b.height).toBeGreaterThan(FRONT.height);
  // The shirt is symmetric about the print area's centre line.
  expect(b.x + b.width / 2).toBeCloseTo(FRONT.width / 2, 0);
  // The body, then the collar; every shape closed over x, y pairs.
  expect(outline!.shapes).toHaveLength(2);
  for (const shape of outline!.shapes) expect(shape.length % 2).toBe(0);
});

test('the outline follows the print space’s size: twice the pixels, twice the outline', () => {
  const one = productOutline('hoodie', FRONT)!;
  const two = productOutline('hoodie', { ...FRONT, width: 9000, height: 10800 })!;
  expect(Math.abs(two.bounds.width - 2 * one.bounds.width)).toBeLessThanOrEqual(2);
  expect(Math.abs(two.bounds.height - 2 * one.bounds.height)).toBeLessThanOrEqual(2);
});

test('a product or print space without a known shape has no outline', () => {
  expect(productOutline('mug', { name: 'wrap', width: 2700, height: 1050 })).toBeNull();
  expect(productOutline('tshirt', { name: 'sleeve', width: 1000, height: 1000 })).toBeNull();
  expect(productOutline('poster', { name: 'front', width: 5400, height: 7200 })?.bounds.x).toBeLessThan(0);
});
