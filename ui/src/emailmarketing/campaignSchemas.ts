import { z } from 'zod';
import type { CampaignStatus, EmailCampaign, Sender, StoreDomain } from '../api/emailMarketing';

/** The link placeholder a campaign body carries; the bff appends a footer with it when missing. */
export const UNSUBSCRIBE_PLACEHOLDER = '{{unsubscribe_url}}';

/** The campaign form, worded like the bff's messages (bff/emailmarketing/campaigns.go). */
export const campaignSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: 'The name field is required.' })
    .max(200, { error: 'The name may not be greater than 200 characters.' }),
  subject: z
    .string()
    .trim()
    .min(1, { error: 'The subject field is required.' })
    .max(200, { error: 'The subject may not be greater than 200 characters or contain line breaks.' })
    .regex(/^[^\r\n]*$/, { error: 'The subject may not be greater than 200 characters or contain line breaks.' }),
  sender_id: z.string().min(1, { error: 'Choose a sender.' }),
  preheader: z.string().trim().max(200, { error: 'The preheader may not be greater than 200 characters.' }),
  body_html: z.string().refine((html) => html.replace(/<[^>]*>/g, '').trim() !== '', { error: 'The email body is required.' }),
});
export type CampaignValues = z.infer<typeof campaignSchema>;

/** An address for a test send. */
export const testAddressSchema = z.email({ error: 'Enter a valid e-mail address for the test.' });

export const STATUS_COLORS: Record<CampaignStatus, string> = {
  draft: 'gray',
  scheduled: 'violet',
  sending: 'blue',
  sent: 'green',
  failed: 'red',
};

/** How far a send is, as a whole percentage of its recipients settled (sent or failed). */
export function sendPercent(c: Pick<EmailCampaign, 'status' | 'recipients' | 'sent' | 'failed'>): number {
  if (c.status === 'sent') return 100;
  if (c.recipients <= 0) return 0;
  return Math.min(100, Math.floor(((c.sent + c.failed) / c.recipients) * 100));
}

/**
 * The document the preview iframe shows: the body with the unsubscribe placeholder pointing
 * nowhere and the preheader as the hidden first line mail clients show in the inbox.
 */
export function previewDocument(body: string, preheader: string): string {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const hidden = preheader.trim() ? `<div style="display:none">${escape(preheader.trim())}</div>` : '';
  return `<!doctype html><html><head><meta charset="utf-8"><base target="_blank"></head><body style="font-family:sans-serif">${hidden}${body.split(UNSUBSCRIBE_PLACEHOLDER).join('#unsubscribe')}</body></html>`;
}
/** The senders whose domain belongs to the store. */
export function sendersOfStore(all: Sender[], domains: StoreDomain[], storeId: number | null): Sender[] {
  const ids = new Set(domains.filter((d) => d.store_id === storeId).map((d) => d.id));
  return all.filter((s) => ids.has(s.store_domain_id));
}

/** The query key of the campaign list and of each campaign. */
export const CAMPAIGNS_KEY = ['email-marketing', 'campaigns'];
