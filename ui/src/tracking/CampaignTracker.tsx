import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { api } from '../api';
import { sendOwedTracking } from './campaign';
import { clientInfo } from './clientInfo';

/**
 * Sends the utm_campaign click and submit cs_track still owes (the cs-tracking middleware fills
 * it), on every navigation of the signed-in frame, so a submit that failed is sent again later.
 */
export function CampaignTracker() {
  const { key } = useLocation();
  useEffect(() => {
    // A failure is retried on the next navigation; there is nothing for the user to do about it.
    sendOwedTracking(api, clientInfo).catch(() => undefined);
  }, [key]);
  return null;
}
