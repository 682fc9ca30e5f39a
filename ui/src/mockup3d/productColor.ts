import type { Product } from '../api/campaigns';

/**
 * The product colour a mockup shows: the hex of the product's default option among the colours of its options
 * JSON ({"colors": [{name, hex}]}), the first colour when the default names none, and undefined (the model's own
 * colour) without colours or with options that are not such JSON. The renderer's mockup tasks follow the same rule
 * (renderer/mockuptask productColor), so the editor's preview shows what the saved mockups will.
 */
export function productColor(product: Pick<Product, 'options' | 'default_option'>): string | undefined {
  let colors: unknown;
  try {
    colors = (JSON.parse(product.options) as { colors?: unknown }).colors;
  } catch {
    return undefined;
  }
  if (!Array.isArray(colors)) return undefined;
  const hexes = colors.filter((c: unknown): c is { name: unknown; hex: string } => typeof (c as { hex?: unknown } | null)?.hex === 'string');
  return (hexes.find((c) => c.name === product.default_option) ?? hexes[0])?.hex;
}
