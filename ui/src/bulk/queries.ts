import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../api';
import { getBulkUpload, listBulkJobs, listBulkRecords, listBulkUploads, type BulkListQuery, type BulkPage, type BulkStatus } from '../api/bulk';

/** Every bulk query lives under this key, so an action refreshes the list and the summaries. */
export const BULK_KEY = ['bulk-records'] as const;

/** How often the list refreshes while a record is still being worked. */
export const LIVE_REFRESH_MS = 2000;

/** True while a record on the page can still change by itself. */
export function hasLiveRecords(page: BulkPage | undefined): boolean {
  return page?.data.some((r) => r.status === 'queued' || r.status === 'processing') ?? false;
}

/** A page of the bulk list, refreshed every LIVE_REFRESH_MS while records on it are at work. */
export const bulkListQuery = (query: BulkListQuery) =>
  queryOptions({
    queryKey: [...BULK_KEY, 'list', query],
    queryFn: ({ signal }) => listBulkRecords(api, query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (hasLiveRecords(q.state.data) ? LIVE_REFRESH_MS : false),
  });

/** The progress summary of a bulk upload, refreshed with the list. */
export const bulkUploadQuery = (id: number) =>
  queryOptions({
    queryKey: [...BULK_KEY, 'upload', id],
    queryFn: ({ signal }) => getBulkUpload(api, id, signal),
    refetchInterval: (q) =>
      q.state.data && (q.state.data.counts.queued ?? 0) + (q.state.data.counts.processing ?? 0) > 0 ? LIVE_REFRESH_MS : false,
  });

/** A page of the background campaign jobs, refreshed while one is waiting or at work. */
export const bulkJobsQuery = (query: { q?: string; page?: number; status?: BulkStatus }) =>
  queryOptions({
    queryKey: [...BULK_KEY, 'jobs', query],
    queryFn: ({ signal }) => listBulkJobs(api, query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.data.some((j) => j.status === 'pending' || j.status === 'queued') ? LIVE_REFRESH_MS : false,
  });

/** A page of the seller's bulk uploads, refreshed while one of them has records at work. */
export const bulkUploadsQuery = (query: { q?: string; page?: number }) =>
  queryOptions({
    queryKey: [...BULK_KEY, 'uploads', query],
    queryFn: ({ signal }) => listBulkUploads(api, query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.data.some((u) => (u.counts.queued ?? 0) + (u.counts.processing ?? 0) > 0) ? LIVE_REFRESH_MS : false,
  });
