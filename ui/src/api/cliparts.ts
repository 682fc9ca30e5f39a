import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';
import { folderQuery, type FolderFilter } from './folders';

/**
 * A clipart of the seller's library (bff/cliparts, docs/cliparts.md). `key` is the blob key of the print-size file
 * (a PNG for an SVG clipart): what a design image's src names.
 */
export interface Clipart {
  id: number;
  name: string;
  folder_id: number | null;
  key: string;
  width: number | null;
  height: number | null;
  /** The format as uploaded: png, webp or svg. */
  format: 'png' | 'webp' | 'svg';
  status: 'pending' | 'ready' | 'rejected';
  message: string;
  byte_size: number | null;
  created_at: string;
  file_url: string;
  thumbnail_url: string;
}

/** The query key of the clipart lists: the library and the editor's picker share it. */
export const CLIPARTS_KEY = ['cliparts'];

export interface ClipartQuery {
  folder: FolderFilter;
  q: string;
  page: number;
  perPage?: number;
  /** Only the ready ones (the pickers). */
  readyOnly?: boolean;
}

export const listCliparts = (api: ApiClient, query: ClipartQuery, signal?: AbortSignal) =>
  api.getPage<Clipart>('/seller/cliparts', {
    query: {
      folder_id: folderQuery(query.folder),
      q: query.q || undefined,
      page: query.page,
      per_page: query.perPage ?? 24,
      status: query.readyOnly ? 'ready' : undefined,
    },
    signal,
  });

export const getClipart = (api: ApiClient, id: number, signal?: AbortSignal) => api.get<Clipart>(`/seller/cliparts/${id}`, { signal });

/** Uploads a PNG, WebP or SVG file into a folder (null: none); an SVG is checked at once and refused with a message. */
export async function uploadClipart(api: ApiClient, file: File, folderId: number | null): Promise<Envelope<Clipart>> {
  const form = new FormData();
  if (folderId !== null) form.append('folder_id', String(folderId));
  form.append('file', file);
  return api.send<Envelope<Clipart>>('POST', '/seller/cliparts', { body: form });
}

/** Renames a clipart and files it in a folder (null: outside any folder). */
export const updateClipart = (api: ApiClient, id: number, name: string, folderId: number | null) =>
  api.send<Envelope<Clipart>>('PUT', `/seller/cliparts/${id}`, { body: { name, folder_id: folderId } });

/** Deletes a clipart; answers the message to show (designs that use it keep it). */
export const deleteClipart = async (api: ApiClient, id: number) =>
  (await api.send<Envelope<unknown>>('DELETE', `/seller/cliparts/${id}`)).message;
