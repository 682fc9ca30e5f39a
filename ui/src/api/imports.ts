import type { ApiClient } from './ApiClient';
import type { Envelope, Page } from './envelope';

/** What became of a row of an imported file: refused or duplicate (no record), else its record's status. */
export type ImportLineStatus = 'refused' | 'duplicate' | 'pending' | 'queued' | 'processing' | 'completed' | 'failed' | 'stopped';

/** A campaign import (bff/bulk Import): the file and its rows counted by what became of them. */
export interface CampaignImport {
  id: number;
  name: string;
  file_name: string;
  rows: number;
  created_at: string;
  counts: Record<ImportLineStatus, number>;
}

/** One row of an imported file, by its line. */
export interface ImportLine {
  line: number;
  key: string;
  status: ImportLineStatus;
  message: string;
  record_id: number | null;
  campaign_id: number | null;
  campaign_name: string | null;
}

/** An import with every row. */
export interface ImportReport extends CampaignImport {
  lines: ImportLine[];
}

/** Imports a CSV or JSON file of campaigns; the envelope's message says how many rows went to the worker. */
export function importCampaigns(api: ApiClient, file: File, name: string) {
  const form = new FormData();
  form.set('file', file);
  if (name.trim() !== '') form.set('name', name.trim());
  return api.send<Envelope<ImportReport>>('POST', '/seller/campaigns/import', { body: form });
}

export const campaignImports = (api: ApiClient, page: number, signal?: AbortSignal): Promise<Page<CampaignImport>> =>
  api.getPage<CampaignImport>('/seller/campaigns/imports', { query: { page, per_page: 15 }, signal });

export const importReport = (api: ApiClient, id: number, signal?: AbortSignal) =>
  api.get<ImportReport>(`/seller/campaigns/imports/${id}`, { signal });
