import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../api';
import { getCampaign, listCampaigns, listModels, listTemplates, type CampaignListQuery } from '../api/campaigns';

/** Every campaign query lives under this key, so a save or delete refreshes lists and editors alike. */
export const CAMPAIGNS_KEY = ['campaigns'] as const;

/** The product catalogue (changes rarely). */
export const templatesQuery = queryOptions({
  queryKey: ['product-templates'],
  queryFn: ({ signal }) => listTemplates(api, signal),
  staleTime: 5 * 60_000,
});

/** The catalogue's 3D models (change rarely). */
export const modelsQuery = queryOptions({
  queryKey: ['product-templates', 'models'],
  queryFn: ({ signal }) => listModels(api, signal),
  staleTime: 5 * 60_000,
});

/** How often the campaign list refreshes while mockups of a campaign on it are being made. */
export const LIST_REFRESH_MS = 3000;

/** A page of the campaign list, refreshed every LIST_REFRESH_MS while a campaign on it awaits its mockups. */
export const campaignListQuery = (query: CampaignListQuery) =>
  queryOptions({
    queryKey: [...CAMPAIGNS_KEY, 'list', query],
    queryFn: ({ signal }) => listCampaigns(api, query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some((c) => c.mockups_pending) ? LIST_REFRESH_MS : false),
  });

/** One campaign as the editor loads it. */
export const campaignQuery = (id: number) =>
  queryOptions({
    queryKey: [...CAMPAIGNS_KEY, 'detail', id],
    queryFn: ({ signal }) => getCampaign(api, id, signal),
  });
