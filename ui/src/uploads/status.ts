import type { UploadStatus } from './api';

/** How an upload's check reads on a card: the words and the colour of its badge. */
export const STATUS_LOOK: Record<UploadStatus, { color: string; label: string }> = {
  pending: { color: 'yellow', label: 'Checking' },
  ready: { color: 'green', label: 'Ready' },
  rejected: { color: 'red', label: 'Refused' },
};
