import { Alert, Anchor, Button, Card, Group, NumberInput, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api } from '../api';
import { checkPageSlug, MENU_POSITIONS, saveStorePage, storePage, type MenuPosition, type StorePage } from '../api/storePages';
import { can } from '../access/rules';
import { RichTextInput } from '../components/RichTextInput';
import { AddressInput } from '../components/AddressInput';
import { useAddressField } from '../components/useAddressField';
import { useSessionUser } from '../session/useSessionUser';
import { STORE_PAGES_KEY } from './keys';
import { shopURL } from './shopURL';
import { useStoreChoices } from './useStoreChoices';
import { EditedItem } from '../forms/EditedItem';
import { useFormSave } from '../forms/useFormSave';

/** `/storefronts/pages/create` and `/storefronts/pages/edit/{id}`: a store page's store, title, address, menu and text. */
export function StorePageEditPage() {
  const { id } = useParams();
  const pageId = Number(id) || 0;
  return (
    <EditedItem id={pageId} area={STORE_PAGES_KEY} load={(id, signal) => storePage(api, id, signal)} loading="Loading the page">
      {(existing) => <StorePageForm existing={existing} />}
    </EditedItem>
  );
}

function StorePageForm({ existing }: { existing?: StorePage }) {
  const user = useSessionUser();
  const readOnly = !can(user, 'update_campaign');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const choices = useStoreChoices();
  const [storeId, setStoreId] = useState<string | null>(existing ? String(existing.store_id) : params.get('store'));
  const [title, setTitle] = useState(existing?.title ?? '');
  const [body, setBody] = useState(existing?.body ?? '');
  const [menu, setMenu] = useState<MenuPosition>(existing?.menu_position ?? 'footer');
  const [position, setPosition] = useState<string | number>(existing?.position ?? 0);
  const [published, setPublished] = useState(existing?.published ?? true);
  const store = Number(storeId) || 0;
  const address = useAddressField({
    name: title,
    initial: existing?.slug,
    saved: existing && existing.store_id === store ? existing.slug : undefined,
    queryKey: [...STORE_PAGES_KEY, store, existing?.id ?? 0],
    check: (slug, signal) => checkPageSlug(api, store, slug, existing?.id ?? 0, signal),
    readOnly: readOnly || store === 0,
  });
  const { save, errors } = useFormSave({
    save: () =>
      saveStorePage(api, existing?.id ?? null, {
        store_id: store,
        title: title.trim(),
        slug: address.slug,
        body,
        menu_position: menu,
        position: typeof position === 'number' ? position : 0,
        published,
      }),
    invalidate: STORE_PAGES_KEY,
    then: (saved) => {
      if (!existing) void navigate(`/storefronts/pages/edit/${saved.id}`);
    },
  });
  const storeSlug = existing?.store_slug ?? choices.slugOf(store);
  return (
    <Stack gap="lg" maw={900}>
      <Stack gap={2}>
        <Anchor component={Link} to="/storefronts/pages" size="sm">
          ← All store pages
        </Anchor>
        <Title order={1} fz="h2" style={{ overflowWrap: 'anywhere' }}>
          {existing ? existing.title : 'New page'}
        </Title>
        {existing?.published && (
          <Text size="sm">
            Buyers read it at{' '}
            <Anchor href={`${shopURL(existing.store_slug)}p/${existing.slug}`} target="_blank" rel="noreferrer">
              {`${shopURL(existing.store_slug)}p/${existing.slug}`}
            </Anchor>
          </Text>
        )}
      </Stack>
      <Card withBorder radius="lg" padding="lg">
        <form
          aria-label="Store page"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <Stack gap="sm">
            {errors.form && <Alert color="red">{errors.form}</Alert>}
            <Select
              label="Store"
              withAsterisk
              placeholder="Choose a store"
              data={choices.options}
              value={storeId}
              onChange={setStoreId}
              allowDeselect={false}
              disabled={readOnly}
              error={errors.store_id}
              nothingFoundMessage="No store found"
            />
            <TextInput label="Title" withAsterisk disabled={readOnly} value={title} onChange={(e) => setTitle(e.currentTarget.value)} error={errors.title} />
            <AddressInput field={address} prefix="/p/" refusal={errors.slug} shop={storeSlug && shopURL(storeSlug)} disabled={readOnly} />
            <Group grow align="flex-start">
              <Select
                label="Menu"
                description="Where the store's menu links the page"
                data={MENU_POSITIONS.map((m) => ({ value: m.value, label: m.label }))}
                value={menu}
                onChange={(v) => v && setMenu(v)}
                allowDeselect={false}
                disabled={readOnly}
                error={errors.menu_position}
              />
              <NumberInput
                label="Order in the menu"
                description="Lower numbers come first"
                min={0}
                max={1000}
                allowDecimal={false}
                value={position}
                onChange={setPosition}
                disabled={readOnly}
                error={errors.position}
              />
            </Group>
            <Switch
              label="Published: buyers see the page and the menu links it"
              checked={published}
              onChange={(e) => setPublished(e.currentTarget.checked)}
              disabled={readOnly}
            />
            <RichTextInput label="Text" initial={existing?.body ?? ''} onChange={setBody} readOnly={readOnly} error={errors.body} />
            {!readOnly && (
              <Group>
                <Button type="submit" loading={save.isPending}>
                  {existing ? 'Save page' : 'Create page'}
                </Button>
              </Group>
            )}
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
