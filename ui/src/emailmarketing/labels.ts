import type { CampaignStatus, SenderStatus, Subscriber, SyncStatus } from '../api/emailMarketing';

/** The words for an e-mail campaign's status. */
export const CAMPAIGN_STATUS_LABELS: Readonly<Record<CampaignStatus, string>> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
};

/** The words for a Klaviyo sync run's status. */
export const SYNC_STATUS_LABELS: Readonly<Record<SyncStatus, string>> = {
  queued: 'Queued',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
};

/** The words for a subscriber's status. */
export const SUBSCRIBER_STATUS_LABELS: Readonly<Record<Subscriber['status'], string>> = {
  subscribed: 'Subscribed',
  unsubscribed: 'Unsubscribed',
};

/** The words for a sender's domain status. */
export const SENDER_STATUS_LABELS: Readonly<Record<SenderStatus['status'], string>> = {
  verified: 'Verified',
  pending: 'Waiting for DNS',
};
