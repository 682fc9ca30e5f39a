import { describe, expect, it } from 'vitest';
import { loginVariant, otherVariantSearch } from './loginVariant';

describe('loginVariant', () => {
  it.each([
    ['seller.pressroom.test', '', 'seller'],
    ['designer.pressroom.test', '', 'designer'],
    ['localhost', 'designer', 'designer'],
    ['localhost', 'designer=1&redirect=%2F', 'designer'],
    ['localhost', 'redirect=%2Fdesigner', 'seller'],
  ] as const)('%s ?%s → %s', (hostname, search, expected) => {
    expect(loginVariant(hostname, new URLSearchParams(search))).toBe(expected);
  });
});

describe('otherVariantSearch', () => {
  it('switches between the seller and designer login, keeping the redirect', () => {
    expect(otherVariantSearch('localhost', new URLSearchParams('redirect=%2Forders'))?.toString()).toBe(
      'redirect=%2Forders&designer=1',
    );
    expect(otherVariantSearch('localhost', new URLSearchParams('designer&redirect=%2Forders'))?.toString()).toBe(
      'redirect=%2Forders',
    );
  });

  it('offers no switch on a designer host', () => {
    expect(otherVariantSearch('designer.pressroom.test', new URLSearchParams())).toBeNull();
  });
});
