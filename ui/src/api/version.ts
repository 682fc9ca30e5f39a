import type { ApiClient } from './ApiClient';

/** The build serving the app (`GET /api3/version`); only compared for a change. */
export interface VersionInfo {
  last_update: string;
}

export function fetchVersion(api: ApiClient, signal?: AbortSignal): Promise<VersionInfo> {
  return api.get<VersionInfo>('/api3/version', { signal });
}
