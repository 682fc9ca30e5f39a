import { rememberTrackingQuery } from '../tracking/campaign';
import type { Middleware } from './registry';

/** Keeps a utm_campaign query in the cs_track cookie; never redirects. */
export const csTracking: Middleware = ({ url }) => {
  rememberTrackingQuery(url);
  return undefined;
};
