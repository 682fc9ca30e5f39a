import type { ApiKeyScope } from '../api/apiKeys';

/** Human names of the scopes, with what each lets a key read. */
export const SCOPE_LABELS: Record<ApiKeyScope, { label: string; description: string }> = {
  user: { label: 'Account', description: 'Your account details' },
  product: { label: 'Campaigns', description: 'Campaigns and their products' },
  product_design: { label: 'Designs', description: 'The designs of your products' },
  store: { label: 'Stores', description: 'Your stores' },
  page: { label: 'Store pages', description: 'The pages of your stores' },
  orders: { label: 'Orders', description: 'Orders, their items, shipments and tracking' },
};

export const scopeNames = (scopes: ApiKeyScope[]) => scopes.map((s) => SCOPE_LABELS[s]?.label ?? s).join(', ');

/** The query key of the key list. */
export const API_KEYS_KEY = ['settings', 'api-keys'] as const;
