import { describe, expect, it } from 'vitest';
import { productColor } from './productColor';

describe('productColor', () => {
  const options = JSON.stringify({ colors: [{ name: 'White', hex: '#ffffff' }, { name: 'Navy', hex: '#1f2a44' }] });
  it.each([
    ['the default option', { options, default_option: 'Navy' }, '#1f2a44'],
    ['the first colour when the default names none', { options, default_option: 'Red' }, '#ffffff'],
    ['nothing without colours', { options: '{}', default_option: '' }, undefined],
    ['nothing for options that are not JSON', { options: 'white', default_option: '' }, undefined],
  ])('%s', (_, product, want) => {
    expect(productColor(product)).toBe(want);
  });
});
