import type { CampaignKind, CampaignStatus, ProductType } from '../api/campaigns';

/** A campaign's status in words. */
export const STATUS_LABELS: Readonly<Record<CampaignStatus, string>> = { draft: 'Draft', active: 'Active', archived: 'Archived' };

/** The product types (template kinds) in words. */
export const PRODUCT_TYPE_LABELS: Readonly<Record<ProductType, string>> = {
  campaign: 'Campaign',
  campaign_express: 'Express campaign',
  campaign_template: 'Campaign template',
  product_template: 'Product template',
  product: 'Product',
};

/** Labels of the campaign kinds, for the list's filter and the create step. */
export const KIND_LABELS: Readonly<Record<CampaignKind, string>> = {
  regular: 'Regular',
  custom: 'Custom',
  campaign_express: 'Express',
  mockup: 'Mockup',
  aop: 'All-over print',
  combo: 'Combo',
  express_2: 'Express 2',
  ai_mockup: 'AI mockup',
};

/** The kind segments of `/campaigns/{ai|aop|combo|custom}/edit/{id?}` and the kind each edits. */
export const KIND_SEGMENTS = { ai: 'ai_mockup', aop: 'aop', combo: 'combo', custom: 'custom' } as const satisfies Record<
  string,
  CampaignKind
>;
export type KindSegment = keyof typeof KIND_SEGMENTS;

/** The kind a route's segment stands for; plain `/campaigns/edit` creates regular campaigns. */
export function kindOfSegment(segment: string | undefined): CampaignKind {
  return segment !== undefined && segment in KIND_SEGMENTS ? KIND_SEGMENTS[segment as KindSegment] : 'regular';
}

/** The editor route of a campaign: by its kind's segment where it has one, else `/campaigns/edit/{id}`. */
export function editorPath(campaign: { id: number; kind: CampaignKind }): string {
  const segment = (Object.keys(KIND_SEGMENTS) as KindSegment[]).find((s) => KIND_SEGMENTS[s] === campaign.kind);
  return segment ? `/campaigns/${segment}/edit/${campaign.id}` : `/campaigns/edit/${campaign.id}`;
}
