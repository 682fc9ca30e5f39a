import { Alert, Anchor, Button, Card, Group, MultiSelect, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api';
import { listCampaigns } from '../api/campaigns';
import { FEED_FORMATS, saveSocialFeed, socialFeed, type FeedFormat, type SocialFeed } from '../api/socialFeeds';
import { stores } from '../api/stores';
import { can } from '../access/rules';
import { SEARCH_DEBOUNCE_MS } from '../components/useListSearch';
import { useSessionUser } from '../session/useSessionUser';
import { FEEDS_KEY } from './model';
import { EditedItem } from '../forms/EditedItem';
import { useFormSave } from '../forms/useFormSave';

const LISTS = [
  { value: 'all', label: "All the store's campaigns on sale" },
  { value: 'chosen', label: 'Only the campaigns I choose' },
];

/** `/social-feed/update/{id}` (and `/social-feed/update` to create): a feed's name, store, format and campaigns. */
export function SocialFeedEditPage() {
  const { id } = useParams();
  const feedId = id ? Number(id) : 0;
  return (
    <EditedItem id={feedId} area={FEEDS_KEY} load={(id, signal) => socialFeed(api, id, signal)} loading="Loading the feed">
      {(existing) => <FeedForm existing={existing} />}
    </EditedItem>
  );
}

function FeedForm({ existing }: { existing?: SocialFeed }) {
  const user = useSessionUser();
  const readOnly = !can(user, 'update_campaign');
  const navigate = useNavigate();
  const [name, setName] = useState(existing?.name ?? '');
  const [storeId, setStoreId] = useState<string | null>(existing ? String(existing.store_id) : null);
  const [format, setFormat] = useState<FeedFormat>(existing?.format ?? 'google');
  const [listed, setListed] = useState(existing && !existing.all_campaigns ? 'chosen' : 'all');
  const [campaignIds, setCampaignIds] = useState<string[]>((existing?.campaigns ?? []).map((c) => String(c.id)));
  const [names, setNames] = useState<Record<string, string>>(() =>
    Object.fromEntries((existing?.campaigns ?? []).map((c) => [String(c.id), c.name])),
  );
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const { save, errors, setErrors } = useFormSave({
    save: () =>
      saveSocialFeed(api, existing?.id ?? null, {
        name: name.trim(),
        store_id: Number(storeId ?? 0),
        format,
        all_campaigns: listed === 'all',
        campaign_ids: listed === 'chosen' ? campaignIds.map(Number) : [],
      }),
    invalidate: FEEDS_KEY,
    then: () => void navigate('/social-feed'),
  });
  // A field's refusal goes once the seller changes the field.
  const changed = (field: string) =>
    setErrors((errs) => Object.fromEntries(Object.entries(errs).filter(([name]) => name !== field)));
  const storeList = useQuery({ queryKey: ['feed-stores'], queryFn: ({ signal }) => stores(api, 1, '', signal) });
  const campaigns = useQuery({
    queryKey: ['feed-campaigns', q],
    enabled: !readOnly && listed === 'chosen',
    queryFn: async ({ signal }) => {
      const page = await listCampaigns(api, { q }, signal);
      setNames((known) => ({ ...known, ...Object.fromEntries(page.data.map((c) => [String(c.id), c.name])) }));
      return page.data;
    },
  });
  const campaignOptions = [...new Set([...(campaigns.data ?? []).map((c) => String(c.id)), ...campaignIds])].map((value) => ({
    value,
    label: names[value] ?? `Campaign ${value}`,
  }));
  const storeOptions = (storeList.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name }));
  if (existing && !storeOptions.some((o) => o.value === String(existing.store_id))) {
    storeOptions.push({ value: String(existing.store_id), label: existing.store_name });
  }
  return (
    <Stack gap="lg" maw={800}>
      <Stack gap={2}>
        <Anchor component={Link} to="/social-feed" size="sm">
          ← All feeds
        </Anchor>
        <Title order={1} fz="h2">
          {existing ? existing.name : 'New feed'}
        </Title>
        {existing && (
          <Text size="sm" c="dimmed">
            Its address: <Text span ff="monospace">{existing.url}</Text>
          </Text>
        )}
      </Stack>
      <Card withBorder radius="lg" padding="lg">
        <form
          aria-label="Feed"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <Stack gap="sm">
            {errors.form && <Alert color="red">{errors.form}</Alert>}
            <TextInput
              label="Name"
              withAsterisk
              disabled={readOnly}
              value={name}
              onChange={(e) => {
                setName(e.currentTarget.value);
                changed('name');
              }}
              error={errors.name}
            />
            <Select
              label="Store"
              withAsterisk
              placeholder="Choose a store"
              data={storeOptions}
              value={storeId}
              onChange={(v) => {
                setStoreId(v);
                changed('store_id');
              }}
              disabled={readOnly}
              error={errors.store_id}
              nothingFoundMessage="No store found"
            />
            <Select
              label="Format"
              description="Google Merchant takes an RSS feed (XML); the Facebook catalogue a data feed (CSV)."
              data={FEED_FORMATS.map((f) => ({ value: f.value, label: `${f.label} (${f.file})` }))}
              value={format}
              onChange={(v) => setFormat(v ?? 'google')}
              allowDeselect={false}
              disabled={readOnly}
              error={errors.format}
            />
            <Select
              label="Campaigns"
              data={LISTS}
              value={listed}
              onChange={(v) => {
                setListed(v ?? 'all');
                changed('campaign_ids');
              }}
              allowDeselect={false}
              disabled={readOnly}
            />
            {listed === 'chosen' && (
              <MultiSelect
                label="Campaigns in the feed"
                placeholder={readOnly ? undefined : 'Search your campaigns'}
                searchable
                onSearchChange={setSearch}
                data={campaignOptions}
                value={campaignIds}
                onChange={(v) => {
                  setCampaignIds(v);
                  changed('campaign_ids');
                }}
                disabled={readOnly}
                error={errors.campaign_ids}
                nothingFoundMessage="No campaign found"
              />
            )}
            {!readOnly && (
              <Group>
                <Button type="submit" loading={save.isPending}>
                  {existing ? 'Save feed' : 'Create feed'}
                </Button>
              </Group>
            )}
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
