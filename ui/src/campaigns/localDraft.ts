// The editor's work kept in the browser between saves: a reload, a crash or a closed tab in the middle of editing
// leaves the unsaved documents and campaign fields in localStorage, per campaign and per saved revision, and the
// editor offers them back when the same campaign opens at the same revisions (docs/editor.md).

import type { Campaign } from '../api/campaigns';
import type { DesignDocument } from '../editor/document';
import type { CampaignDraft, Documents } from './editorState';

/** What is kept: when, the campaign fields and every document of the campaign. */
export type LocalDraft = Readonly<{ savedAt: string; draft: CampaignDraft; docs: Documents }>;

const PREFIX = 'pressroom.editor-draft.';

/** The storage key of a campaign's draft: its id and the revision of each of its designs, as loaded or last saved. */
export function draftKey(campaign: Pick<Campaign, 'id' | 'designs'>): string {
  const revisions = [...campaign.designs]
    .sort((a, b) => a.id - b.id)
    .map((d) => `${d.id}r${d.revision}`)
    .join('-');
  return `${PREFIX}${campaign.id}.${revisions || 'new'}`;
}

function isDocument(v: unknown): v is DesignDocument {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { printSpace?: unknown }).printSpace === 'object' &&
    Array.isArray((v as { objects?: unknown }).objects)
  );
}

function isDraft(v: unknown): v is LocalDraft {
  if (typeof v !== 'object' || v === null) return false;
  const { savedAt, draft, docs } = v as Record<string, unknown>;
  return (
    typeof savedAt === 'string' &&
    typeof draft === 'object' &&
    draft !== null &&
    typeof (draft as { name?: unknown }).name === 'string' &&
    typeof docs === 'object' &&
    docs !== null &&
    Object.values(docs).every(isDocument)
  );
}

/** The kept draft of the campaign at its current revisions; null when there is none or it cannot be read. */
export function readDraft(storage: Storage, campaign: Pick<Campaign, 'id' | 'designs'>): LocalDraft | null {
  try {
    const raw = storage.getItem(draftKey(campaign));
    if (raw === null) return null;
    const value: unknown = JSON.parse(raw);
    return isDraft(value) ? value : null;
  } catch {
    return null;
  }
}

/** Keeps the draft of the campaign at its current revisions, replacing the drafts of its older revisions. */
export function writeDraft(storage: Storage, campaign: Pick<Campaign, 'id' | 'designs'>, value: LocalDraft): void {
  clearDrafts(storage, campaign.id);
  try {
    storage.setItem(draftKey(campaign), JSON.stringify(value));
  } catch {
    // A full or disabled storage keeps nothing: the leave warning still guards the work.
  }
}

/** Forgets every kept draft of a campaign. */
export function clearDrafts(storage: Storage, campaignId: number): void {
  const mine = `${PREFIX}${campaignId}.`;
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key?.startsWith(mine)) keys.push(key);
  }
  for (const key of keys) storage.removeItem(key);
}
