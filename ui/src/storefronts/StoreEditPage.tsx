import {
  Anchor,
  Button,
  Card,
  ColorInput,
  Group,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api';
import {
  CURRENCIES,
  REVIEW_SETTINGS,
  TARGET_MARKETS,
  checkSlug,
  createStore,
  formatMinor,
  store,
  storeProducts,
  updateStore,
  type Store,
} from '../api/stores';
import { can } from '../access/rules';
import { FormError } from '../components/FormError';
import { SEARCH_DEBOUNCE_MS } from '../components/useListSearch';
import { applyServerError } from '../pages/auth/formErrors';
import { useSessionUser } from '../session/useSessionUser';
import { STORES_KEY } from './keys';
import { SLUG, storeSchema, type StoreValues } from './schema';
import { shopURL } from './shopURL';
import { EditedItem } from '../forms/EditedItem';

const NEW_STORE: StoreValues = {
  name: '',
  slug: '',
  primary_color: '#1f2a44',
  accent_color: '#d82e8b',
  currency: 'USD',
  target_market: 'United States',
  review_setting: 'disable',
  is_open: true,
};

/** `/storefronts/edit/{id}` (and `/storefronts/edit/new`): a store's settings and what it sells. */
export function StoreEditPage() {
  const { id = 'new' } = useParams();
  const storeId = id === 'new' ? 0 : Number(id);
  return (
    <EditedItem id={storeId} area={STORES_KEY} load={(id, signal) => store(api, id, signal)} loading="Loading the store">
      {(existing) => <StoreEditor existing={existing} />}
    </EditedItem>
  );
}

function StoreEditor({ existing }: { existing?: Store }) {
  const user = useSessionUser();
  const readOnly = !can(user, 'update_campaign');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<StoreValues>({
    mode: 'controlled',
    initialValues: existing ? { ...NEW_STORE, ...pick(existing) } : NEW_STORE,
    validate: schemaResolver(storeSchema, { sync: true }),
  });
  const [slug] = useDebouncedValue(form.values.slug.trim().toLowerCase(), SEARCH_DEBOUNCE_MS);
  const slugCheck = useQuery({
    queryKey: ['stores', 'slug', slug, existing?.id ?? 0],
    queryFn: ({ signal }) => checkSlug(api, slug, existing?.id ?? 0, signal),
    enabled: !readOnly && slug.length >= 3 && SLUG.test(slug) && slug !== existing?.slug,
  });
  const submit = form.onSubmit(async (values) => {
    setServerError(null);
    try {
      const body = { ...values, slug: values.slug.trim().toLowerCase(), logo_key: existing?.logo_key ?? '', favicon_key: existing?.favicon_key ?? '' };
      const { message, data } = existing ? await updateStore(api, existing.id, body) : await createStore(api, body);
      notifications.show({ color: 'green', message });
      await queryClient.invalidateQueries({ queryKey: STORES_KEY });
      if (!existing) void navigate(`/storefronts/edit/${data.id}`);
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    }
  });
  const slugHint = slugCheck.data && slugCheck.data.slug === slug ? slugCheck.data : null;
  return (
    <Stack gap="lg" maw={900}>
      <Title order={1} fz="h2">
        {existing ? existing.name : 'New store'}
      </Title>
      {existing && (
        <Group justify="space-between">
          <Text>
            Buyers shop at{' '}
            <Anchor href={shopURL(existing.slug)} target="_blank" rel="noreferrer">
              {shopURL(existing.slug)}
            </Anchor>
          </Text>
          <Group gap="xs">
            <Button size="xs" variant="light" component={Link} to={`/storefronts/pages?store=${existing.id}`}>
              Pages
            </Button>
            <Button size="xs" variant="light" component={Link} to={`/storefronts/${existing.id}/blog`}>
              Blog
            </Button>
            <Button size="xs" variant="light" component={Link} to={`/storefronts/sitemap/${existing.id}`}>
              Sitemap
            </Button>
          </Group>
        </Group>
      )}
      <Card withBorder radius="lg" padding="lg">
        <form onSubmit={submit} noValidate aria-label="Store settings">
            <Stack gap="sm">
              <TextInput label="Name" withAsterisk disabled={readOnly} {...form.getInputProps('name')} />
              <TextInput
                label="Address"
                withAsterisk
                description={slugHint ? (slugHint.available ? 'This address is free.' : undefined) : 'Lower-case letters, digits and hyphens.'}
                disabled={readOnly} {...form.getInputProps('slug')}
                error={form.errors.slug ?? (slugHint && !slugHint.available ? slugHint.message : undefined)}
              />
              <Group grow>
                <ColorInput label="Main colour" disabled={readOnly} {...form.getInputProps('primary_color')} />
                <ColorInput label="Accent colour" disabled={readOnly} {...form.getInputProps('accent_color')} />
              </Group>
              <Group grow>
                <Select label="Currency" data={[...CURRENCIES]} allowDeselect={false} disabled={readOnly} {...form.getInputProps('currency')} />
                <Select label="Target market" data={[...TARGET_MARKETS]} allowDeselect={false} disabled={readOnly} {...form.getInputProps('target_market')} />
              </Group>
              <Select
                label="Product reviews"
                data={REVIEW_SETTINGS.map((r) => ({ value: r.value, label: r.label }))}
                allowDeselect={false}
                disabled={readOnly} {...form.getInputProps('review_setting')}
              />
              <Switch label="Open: buyers can order" disabled={readOnly} {...form.getInputProps('is_open', { type: 'checkbox' })} />
              {!readOnly && (
                <Button type="submit" loading={form.submitting} w="fit-content">
                  {existing ? 'Save store' : 'Create store'}
                </Button>
              )}
              <FormError message={serverError} />
            </Stack>
        </form>
      </Card>
      {existing && <StoreProducts storeId={existing.id} />}
    </Stack>
  );
}

function pick(s: Store): StoreValues {
  return {
    name: s.name,
    slug: s.slug,
    primary_color: s.primary_color,
    accent_color: s.accent_color,
    currency: s.currency,
    target_market: s.target_market,
    review_setting: s.review_setting,
    is_open: s.is_open,
  };
}

/** What the store sells: each published product with its price and status. */
function StoreProducts({ storeId }: { storeId: number }) {
  const products = useQuery({ queryKey: [...STORES_KEY, 'products', storeId], queryFn: ({ signal }) => storeProducts(api, storeId, signal) });
  return (
    <Card withBorder radius="lg" padding="lg">
      <Title order={2} fz="h4" mb="md">
        On sale
      </Title>
      {products.data && products.data.length === 0 && (
        <Text c="dimmed">Nothing yet: publish a campaign from the campaign list with its Sell button.</Text>
      )}
      {products.data && products.data.length > 0 && (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Campaign</Table.Th>
              <Table.Th>Product</Table.Th>
              <Table.Th>Base cost</Table.Th>
              <Table.Th>Price</Table.Th>
              <Table.Th>Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {products.data.map((p) => (
              <Table.Tr key={p.product_id}>
                <Table.Td>{p.campaign}</Table.Td>
                <Table.Td>{p.name}</Table.Td>
                <Table.Td>{p.base_cost}</Table.Td>
                <Table.Td>{formatMinor(p.price, p.currency)}</Table.Td>
                <Table.Td>{p.status.charAt(0).toUpperCase() + p.status.slice(1)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}
