import type { Product } from '../api/campaigns';

/** The product colour a mockup shows: a hex ('' for the model's own colour), or why the product has none. */
export type ProductColor = { hex: string; error?: undefined } | { hex?: undefined; error: string };

const HEX = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** A field of a colour as Go's encoding/json reads it into a string: missing or null is '', anything else not a string is refused. */
function stringField(colour: Record<string, unknown>, field: string): string | null {
  const v = colour[field];
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : null;
}

/**
 * The product colour a mockup shows, by the renderer's rule (renderer/mockuptask productColor; both are tested
 * against schema/testdata/twins/product-color.json): the hex of the colour named by the product's default option
 * among the colours of its options JSON ({"colors": [{name, hex}]}), else the first colour's; '' (the model's own
 * colour) without colours. Options that are not such JSON, and a chosen hex that is not #rgb or #rrggbb, are
 * refused, as the renderer fails the product's mockups for them.
 */
export function productColor(product: Pick<Product, 'options' | 'default_option'>): ProductColor {
  let options: unknown;
  try {
    options = JSON.parse(product.options);
  } catch {
    return { error: 'The product options are not JSON.' };
  }
  if (options === null) return { hex: '' };
  if (typeof options !== 'object' || Array.isArray(options)) return { error: 'The product options are not a JSON object.' };
  const colours = (options as { colors?: unknown }).colors;
  if (colours === undefined || colours === null) return { hex: '' };
  if (!Array.isArray(colours)) return { error: 'The product colours are not a list.' };
  const read: { name: string; hex: string }[] = [];
  for (const c of colours as unknown[]) {
    if (c === null) {
      read.push({ name: '', hex: '' });
      continue;
    }
    if (typeof c !== 'object' || Array.isArray(c)) return { error: 'A product colour is not an object.' };
    const name = stringField(c as Record<string, unknown>, 'name');
    const hex = stringField(c as Record<string, unknown>, 'hex');
    if (name === null || hex === null) return { error: 'A product colour has a name or hex that is not text.' };
    read.push({ name, hex });
  }
  const chosen = read.find((c) => c.name === product.default_option) ?? read[0];
  if (!chosen || chosen.hex === '') return { hex: '' };
  if (!HEX.test(chosen.hex)) return { error: `The product colour ${JSON.stringify(chosen.hex)} is not #rgb or #rrggbb.` };
  return { hex: chosen.hex };
}
