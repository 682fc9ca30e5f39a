import type { Upload } from '../uploads/api';
import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';
import { folderQuery, type FolderFilter } from './folders';

/** A campaign that uses a file. */
export interface CampaignRef {
  id: number;
  name: string;
}

/** What uses an artwork: campaigns, orders printed with it, bulk records still being made. */
export interface Usage {
  campaigns: CampaignRef[];
  orders: number;
  bulk: number;
}

/** An upload on the artworks page (bff/artworks), with its folder and the campaigns that use it. */
export interface Artwork extends Upload {
  folder_id: number | null;
  campaigns: CampaignRef[];
}

/** The query key of the artwork lists: the artworks page and the editor's picker share it. */
export const ARTWORKS_KEY = ['artworks'];

export interface ArtworkQuery {
  folder: FolderFilter;
  q: string;
  page: number;
  perPage?: number;
}

export const listArtworks = (api: ApiClient, query: ArtworkQuery, signal?: AbortSignal) =>
  api.getPage<Artwork>('/seller/artworks', {
    query: { folder_id: folderQuery(query.folder), q: query.q || undefined, page: query.page, per_page: query.perPage ?? 24 },
    signal,
  });

/** Files an artwork in a folder (null: outside any folder). */
export const moveArtwork = (api: ApiClient, id: number, folderId: number | null) =>
  api.send<Envelope<Artwork>>('PUT', `/seller/artworks/${id}`, { body: { folder_id: folderId } });

/** Deletes an artwork nothing uses; one in use is refused (409) with a message naming the campaigns, its usage in the body. */
export const deleteArtwork = async (api: ApiClient, id: number) =>
  (await api.send<Envelope<unknown>>('DELETE', `/seller/artworks/${id}`)).message;
