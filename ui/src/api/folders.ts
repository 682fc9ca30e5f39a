import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';

/** What a folder holds: the artworks page's uploads or the cliparts library (bff/folders). */
export type FolderKind = 'artwork' | 'clipart';

/** A folder of the seller's, with how many files it holds. */
export interface Folder {
  id: number;
  name: string;
  count: number;
  created_at: string;
}

const base = (kind: FolderKind) => `/seller/${kind}-folders`;

/** The query key of a kind's folders. */
export const foldersKey = (kind: FolderKind) => ['folders', kind];

export const listFolders = (api: ApiClient, kind: FolderKind, signal?: AbortSignal) => api.get<Folder[]>(base(kind), { signal });
export const createFolder = (api: ApiClient, kind: FolderKind, name: string) =>
  api.send<Envelope<Folder>>('POST', base(kind), { body: { name } });
export const renameFolder = (api: ApiClient, kind: FolderKind, id: number, name: string) =>
  api.send<Envelope<Folder>>('PUT', `${base(kind)}/${id}`, { body: { name } });
/** Deletes a folder; its files stay, outside any folder. Answers the message to show. */
export const deleteFolder = async (api: ApiClient, kind: FolderKind, id: number) =>
  (await api.send<Envelope<unknown>>('DELETE', `${base(kind)}/${id}`)).message;

/**
 * Which files a list shows: every file (`all`), those outside any folder (`none`) or one folder's. The bff reads it
 * as folder_id: absent, 0 or the id.
 */
export type FolderFilter = 'all' | 'none' | number;

export function folderQuery(filter: FolderFilter): number | undefined {
  if (filter === 'all') return undefined;
  return filter === 'none' ? 0 : filter;
}
