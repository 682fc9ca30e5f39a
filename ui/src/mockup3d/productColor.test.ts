import { describe, expect, it } from 'vitest';
import table from '../../../schema/testdata/twins/product-color.json';
import { productColor } from './productColor';

/** The shared cases of schema/testdata/twins/product-color.json, also read by renderer/mockuptask's Go tests. */
type Case = { name: string; options: string; default_option: string; hex?: string; error?: boolean };

describe('productColor', () => {
  it.each((table.cases as Case[]).map((c) => [c.name, c] as const))('%s', (_, c) => {
    const got = productColor({ options: c.options, default_option: c.default_option });
    if (c.error) expect(got.error, JSON.stringify(got)).toBeTypeOf('string');
    else expect(got).toEqual({ hex: c.hex });
  });
});
