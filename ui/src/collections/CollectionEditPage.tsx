import { Alert, Anchor, Button, Card, Group, MultiSelect, Select, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api';
import { listCampaigns } from '../api/campaigns';
import { checkCollectionSlug, collection, saveCollection, slugify, type Collection } from '../api/collections';
import { stores } from '../api/stores';
import { can } from '../access/rules';
import { SEARCH_DEBOUNCE_MS } from '../components/useListSearch';
import { useSessionUser } from '../session/useSessionUser';
import { SLUG } from '../storefronts/schema';
import { COLLECTIONS_KEY } from './model';
import { EditedItem } from '../forms/EditedItem';
import { useFormSave } from '../forms/useFormSave';

const SHOWN_IN = [
  { value: 'all', label: 'All my stores' },
  { value: 'chosen', label: 'Chosen stores' },
];

/** `/collections/edit/{id}` (and `/collections/edit/new`): a collection's name, address, stores and campaigns. */
export function CollectionEditPage() {
  const { id = 'new' } = useParams();
  const collectionId = id === 'new' ? 0 : Number(id);
  return (
    <EditedItem id={collectionId} area={COLLECTIONS_KEY} load={(id, signal) => collection(api, id, signal)} loading="Loading the collection">
      {(existing) => <CollectionForm existing={existing} />}
    </EditedItem>
  );
}

function CollectionForm({ existing }: { existing?: Collection }) {
  const user = useSessionUser();
  const readOnly = !can(user, 'update_campaign');
  const navigate = useNavigate();
  const [name, setName] = useState(existing?.name ?? '');
  const [slug, setSlug] = useState(existing?.slug ?? '');
  // A new collection's address follows its name until the seller types one.
  const [slugTouched, setSlugTouched] = useState(existing !== undefined);
  const [description, setDescription] = useState(existing?.description ?? '');
  const [shown, setShown] = useState(existing && !existing.all_stores ? 'chosen' : 'all');
  const [storeIds, setStoreIds] = useState<string[]>(existing?.store_ids.map(String) ?? []);
  const [campaignIds, setCampaignIds] = useState<string[]>((existing?.campaigns ?? []).map((c) => String(c.id)));
  const [names, setNames] = useState<Record<string, string>>(() =>
    Object.fromEntries((existing?.campaigns ?? []).map((c) => [String(c.id), c.name])),
  );
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const { save, errors } = useFormSave({
    save: () =>
      saveCollection(api, existing?.id ?? null, {
        name: name.trim(),
        slug: address.trim().toLowerCase(),
        description: description.trim(),
        all_stores: shown === 'all',
        store_ids: shown === 'chosen' ? storeIds.map(Number) : [],
        campaign_ids: campaignIds.map(Number),
      }),
    invalidate: COLLECTIONS_KEY,
    then: (saved) => {
      if (!existing) void navigate(`/collections/edit/${saved.id}`);
    },
  });
  const address = slugTouched ? slug : slugify(name);
  const [debouncedSlug] = useDebouncedValue(address.trim().toLowerCase(), SEARCH_DEBOUNCE_MS);
  const slugCheck = useQuery({
    queryKey: [...COLLECTIONS_KEY, 'slug', debouncedSlug, existing?.id ?? 0],
    queryFn: ({ signal }) => checkCollectionSlug(api, debouncedSlug, existing?.id ?? 0, signal),
    enabled: !readOnly && SLUG.test(debouncedSlug) && debouncedSlug !== existing?.slug,
  });
  const storeList = useQuery({ queryKey: ['collection-stores'], queryFn: ({ signal }) => stores(api, 1, '', signal), enabled: shown === 'chosen' });
  const campaigns = useQuery({
    queryKey: ['collection-campaigns', q],
    enabled: !readOnly,
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
  const slugHint = slugCheck.data && slugCheck.data.slug === debouncedSlug ? slugCheck.data : null;
  return (
    <Stack gap="lg" maw={800}>
      <Stack gap={2}>
        <Anchor component={Link} to="/collections" size="sm">
          ← All collections
        </Anchor>
        <Title order={1} fz="h2">
          {existing ? existing.name : 'New collection'}
        </Title>
      </Stack>
      <Card withBorder radius="lg" padding="lg">
        <form
          aria-label="Collection"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <Stack gap="sm">
            {errors.form && <Alert color="red">{errors.form}</Alert>}
            <TextInput label="Name" withAsterisk disabled={readOnly} value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} />
            <TextInput
              label="Address"
              withAsterisk
              leftSection={<Text size="xs" c="dimmed" pl={6}>/collections/</Text>}
              leftSectionWidth={90}
              description={slugHint?.available ? 'This address is free.' : 'Lower-case letters, digits and hyphens.'}
              disabled={readOnly}
              value={address}
              onChange={(e) => {
                setSlugTouched(true);
                setSlug(e.currentTarget.value);
              }}
              error={errors.slug ?? (slugHint && !slugHint.available ? slugHint.message : undefined)}
            />
            <Textarea
              label="Description"
              description="Shown on the collection's page in your stores."
              rows={3}
              disabled={readOnly}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              error={errors.description}
            />
            <Select label="Shown in" data={SHOWN_IN} value={shown} onChange={(v) => setShown(v ?? 'all')} allowDeselect={false} disabled={readOnly} />
            {shown === 'chosen' && (
              <MultiSelect
                label="Stores"
                placeholder="Choose stores"
                data={[
                  ...(storeList.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name })),
                  ...(existing?.stores ?? [])
                    .filter((s) => !(storeList.data?.data ?? []).some((l) => l.id === s.id))
                    .map((s) => ({ value: String(s.id), label: s.name })),
                ]}
                value={storeIds}
                onChange={setStoreIds}
                disabled={readOnly}
                error={errors.store_ids}
                nothingFoundMessage="No store found"
              />
            )}
            <MultiSelect
              label="Campaigns"
              placeholder={readOnly ? undefined : 'Search your campaigns'}
              searchable
              onSearchChange={setSearch}
              data={campaignOptions}
              value={campaignIds}
              onChange={setCampaignIds}
              disabled={readOnly}
              error={errors.campaign_ids}
              nothingFoundMessage="No campaign found"
            />
            {!readOnly && (
              <Group>
                <Button type="submit" loading={save.isPending}>
                  {existing ? 'Save collection' : 'Create collection'}
                </Button>
              </Group>
            )}
          </Stack>
        </form>
      </Card>
      {existing && (
        <Text size="sm">
          {existing.featured_count === 0 ? 'No campaign is featured yet.' : `${existing.featured_count} featured on your stores' home page.`}{' '}
          <Anchor component={Link} to={`/collections/${existing.id}/featured-campaigns`}>
            {readOnly ? 'See the featured campaigns' : 'Choose and order the featured campaigns'}
          </Anchor>
        </Text>
      )}
    </Stack>
  );
}
