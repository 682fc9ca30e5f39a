import { z } from 'zod';
import type { ApiClient } from './ApiClient';
import { checked } from './schema';

/** Client info the browser tells about itself; the bff adds the IP it sees. */
export interface ClientInfo {
  browser: string;
  device: string;
  os: string;
  user_agent: string;
  visitor_id: string;
  tab_session_id: string;
}

/** The body of both track calls: the campaign, the tracking query the cs_track cookie kept, the client. */
export interface TrackPayload {
  utm_campaign: string;
  query: Record<string, string>;
  client_info: ClientInfo;
}

const trackSchema = z.object({ success: z.boolean(), recorded: z.boolean() });
export type TrackResult = z.infer<typeof trackSchema>;

/** POST /api/utm-campaign/track: a visit arriving with utm_campaign (no session needed). */
export async function trackClick(api: ApiClient, payload: TrackPayload): Promise<TrackResult> {
  return checked(trackSchema, 'POST /utm-campaign/track', await api.post<unknown>('/utm-campaign/track', payload));
}

/** POST /api/seller/utm-campaign/track: the signed-in seller credited to the campaign; answers data.success. */
export async function trackSubmit(api: ApiClient, payload: TrackPayload): Promise<TrackResult> {
  return checked(trackSchema, 'POST /seller/utm-campaign/track', await api.post<unknown>('/seller/utm-campaign/track', payload));
}
