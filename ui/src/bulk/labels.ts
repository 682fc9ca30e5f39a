import type { BulkStatus, BulkType, BulkUpload } from '../api/bulk';
import { label } from '../format/labels';

/** The list of bulk multi-print-space records and its import page. */
export const BULK_LIST_PATH = '/bulk-campaigns/multi-print-spaces';
export const BULK_IMPORT_PATH = '/bulk-campaigns/multi-print-spaces/import';

export const TYPE_LABELS: Readonly<Record<BulkType, string>> = {
  regular_multi_space: 'Regular',
  express_multi_space: 'Express',
};

export const STATUS_COLORS: Readonly<Record<BulkStatus, string>> = {
  pending: 'gray',
  queued: 'blue',
  processing: 'cyan',
  completed: 'green',
  failed: 'red',
  stopped: 'yellow',
};

const STATUS_LABELS: Readonly<Record<BulkStatus, string>> = {
  pending: 'Pending',
  queued: 'Queued',
  processing: 'Processing',
  completed: 'Completed',
  failed: 'Failed',
  stopped: 'Stopped',
};

/** An artwork by its file name, not its storage path ("u/7/bulk/cat.png" is "cat.png"). */
export function artworkName(path: string): string {
  const clean = path.split(/[?#]/)[0] ?? path;
  return clean.slice(clean.lastIndexOf('/') + 1) || path;
}

/** The worker's steps and coded messages (worker/bulk) in words; the code itself goes in a tooltip. */
const CODE_LABELS: Readonly<Record<string, string>> = {
  LOAD_PENDING_RECORD: 'Loading the record',
  PRE_LOAD_DESIGN_MOCKUP: 'Loading the template',
  APPLY_DESIGN: 'Applying the artwork',
  APPLY_DESIGN_SUCCESS: 'Artwork applied',
  INVALID_DESIGN: 'Artwork refused',
  PRINT_SPACE_IS_MISSING: 'A product of the template lacks this print space.',
};

/** A worker step or message in words: known codes are translated, other codes made words, messages kept as they are. */
export const codeLabel = (code: string): string => label(CODE_LABELS, code);

/** The human word for a record's status. */
export const statusLabel = (status: BulkStatus): string => STATUS_LABELS[status];

/** How far a bulk upload got: records completed, failed (or stopped) and in all. */
export function summarize(upload: Pick<BulkUpload, 'counts' | 'total'>): { done: number; failed: number; total: number } {
  const count = (s: BulkStatus) => upload.counts[s] ?? 0;
  return { done: count('completed'), failed: count('failed') + count('stopped'), total: upload.total };
}

/** The artwork URLs of pasted text: one per line, or the first column of a CSV (a header line without a path is skipped). */
export function importLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => (line.split(',')[0] ?? '').trim().replace(/^"(.*)"$/, '$1'))
    .filter((value) => value.includes('/'));
}

/** Runs work on every item with at most limit at once; results keep the items' order. */
export async function runPool<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** The artwork types a bulk import takes. */
export const ARTWORK_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
