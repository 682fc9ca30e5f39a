import type { Campaign, Product } from '../api/campaigns';
import type { DesignDocument } from '../editor/document';

/** A 4500x5400 front print space as the bff lists it in a product's print_spaces. */
export const FRONT = { name: 'front', width: 4500, height: 5400, displayWidth: 500, printType: 0, isMain: true, viewWidth: 500, viewHeight: 600, DPI: 300, minDPI: 150 };

/** The export of a design that has none yet. */
export const IDLE_EXPORT = { status: 'none' as const, file_url: '', download_url: '', width: 0, height: 0, dpi: 0, file_size: 0, report: null, error: '' };

/** T-shirt product 7 with the given print spaces. */
export function tshirt(spaces: readonly object[]): Product {
  return {
    id: 7,
    template_id: 1,
    name: 'T-shirt',
    product_type: 'tshirt',
    print_spaces: JSON.stringify(spaces),
    full_printed: 0,
    options: '{"colors":[]}',
    default_option: '',
    mockup_type: 'flat',
    base_cost: 8.5,
    extra_print_cost: 3,
    personalized: false,
  };
}

/** Draft campaign 41 "Summer drop" of product, with doc as its design 90 of the front print space. */
export function summerDrop(product: Product, doc: DesignDocument): Campaign {
  return {
    id: 41,
    name: 'Summer drop',
    kind: 'regular',
    personalized: null,
    artwork_url: '',
    status: 'draft',
    created_at: '2026-11-22T06:00:00Z',
    updated_at: '2026-11-22T06:00:00Z',
    products: [product],
    designs: [{ id: 90, product_id: product.id, print_space: 'front', design_json: doc, option: 'print', revision: 1, export: IDLE_EXPORT }],
  };
}

/** Campaign `id` named `name` as the campaigns list answers it (GET /seller/campaigns). */
export const listedCampaign = (id: number, name: string) => ({
  id,
  name,
  kind: 'regular',
  personalized: false,
  status: 'active',
  product_count: 1,
  design_count: 1,
  updated_at: '2026-04-01T10:00:00Z',
  preview_url: '',
  mockup_url: '',
  mockups_pending: false,
});
