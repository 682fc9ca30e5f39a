import { hasTag, TAGS } from '../access';
import type { Middleware } from './registry';

/** A regular (`/campaigns/edit/{id}`) or express (`/campaigns/express/…/{id}`) campaign route with an id. */
const CAMPAIGN_WITH_ID = /^\/campaigns\/(?:edit|express(?:\/edit)?)\/(\d+)\/?$/;

/**
 * preferOldBulkCampaign: users tagged "old bulk campaign" opening a regular or express campaign
 * with an id are sent to /campaigns/bulk_v2/{id}.
 */
export const preferOldBulkCampaign: Middleware = ({ url, user }) => {
  if (!user || !hasTag(user, TAGS.oldBulkCampaign)) return undefined;
  const id = CAMPAIGN_WITH_ID.exec(url.pathname)?.[1];
  return id === undefined ? undefined : `/campaigns/bulk_v2/${id}`;
};
