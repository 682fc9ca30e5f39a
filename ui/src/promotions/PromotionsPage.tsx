import { Alert, Button, Group, Modal, MultiSelect, NumberInput, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { formErrorsOf } from '../pages/auth/formErrors';
import { listCampaigns } from '../api/campaigns';
import {
  APPLIES_TO_LABELS,
  deletePromotion,
  discountLabel,
  KIND_LABELS,
  promotions,
  savePromotion,
  setPromotionDisabled,
  STATUS_LABELS,
  type Promotion,
} from '../api/promotions';
import { CURRENCIES, stores } from '../api/stores';
import { ListPager, PagedListCard } from '../components/PagedList';
import { SEARCH_DEBOUNCE_MS } from '../components/useListSearch';
import { formatDateTime, fromLocalInput, toLocalInput } from '../format/dateTime';
import { plural } from '../format/plural';
import { formatMoney } from '../orders/labels';
import { useSessionUser } from '../session/useSessionUser';
import { LabelBadge } from '../components/LabelBadge';

const PROMOTIONS_KEY = ['promotions'];

const STATUS_COLORS: Readonly<Record<string, string>> = {
  active: 'green',
  scheduled: 'blue',
  expired: 'gray',
  used_up: 'orange',
  disabled: 'gray',
};

/** `/promotions`: the seller's discount codes with their uses and the sales of the orders that used them. */
export function PromotionsPage() {
  const user = useSessionUser();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [editing, setEditing] = useState<Promotion | 'new' | null>(null);
  const client = useQueryClient();
  const list = useQuery({ queryKey: [...PROMOTIONS_KEY, page, q], queryFn: ({ signal }) => promotions(api, page, q, signal) });
  const done = (message: string) => {
    notifications.show({ message });
    return client.invalidateQueries({ queryKey: PROMOTIONS_KEY });
  };
  const onError = (error: Error) => notifications.show({ color: 'red', message: error.message });
  const toggle = useMutation({
    mutationFn: (p: Promotion) => setPromotionDisabled(api, p.id, !p.disabled),
    onSuccess: (_, p) => done(p.disabled ? 'The promotion was enabled.' : 'The promotion was disabled.'),
    onError,
  });
  const remove = useMutation({ mutationFn: (id: number) => deletePromotion(api, id), onSuccess: () => done('The promotion was deleted.'), onError });
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz="h2">
            Promotions
          </Title>
          <Text c="dimmed" size="sm">
            Discount codes buyers enter at checkout: a percent off or free shipping, in all your stores or the ones you choose.
          </Text>
        </Stack>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          New promotion
        </Button>
      </Group>
      <TextInput placeholder="Search codes" value={search} onChange={(e) => setSearch(e.currentTarget.value)} maw={320} aria-label="Search codes" />
      <PagedListCard list={list} loadingLabel="Loading promotions">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Code</Table.Th>
                <Table.Th>Discount</Table.Th>
                <Table.Th>Applies to</Table.Th>
                <Table.Th>Valid</Table.Th>
                <Table.Th>Uses</Table.Th>
                <Table.Th>Revenue</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((p) => (
                <Table.Tr key={p.id} data-testid="promotion">
                  <Table.Td fw={600}>{p.code}</Table.Td>
                  <Table.Td>
                    {discountLabel(p)}
                    {p.min_order.amount > 0 && (
                      <Text size="xs" c="dimmed">
                        Orders from {formatMoney(p.min_order)}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{appliesTo(p)}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{p.starts_at ? `From ${formatDateTime(p.starts_at, user.timezone)}` : 'From now'}</Text>
                    <Text size="sm">{p.ends_at ? `Until ${formatDateTime(p.ends_at, user.timezone)}` : 'No end'}</Text>
                  </Table.Td>
                  <Table.Td>
                    {p.usage_limit === null ? plural(p.uses, 'use') : `${p.uses} of ${p.usage_limit}`}
                    {p.per_buyer_limit !== null && (
                      <Text size="xs" c="dimmed">
                        {plural(p.per_buyer_limit, 'use')} per buyer
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {p.sales.length === 0
                      ? '—'
                      : p.sales.map((s) => (
                          <Text key={s.revenue.currency} size="sm">
                            {formatMoney(s.revenue)}
                            <Text span size="xs" c="dimmed">
                              {' '}
                              ({formatMoney(s.discount)} off)
                            </Text>
                          </Text>
                        ))}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <LabelBadge color={STATUS_COLORS[p.status] ?? 'gray'}>
                      {STATUS_LABELS[p.status] ?? p.status}
                    </LabelBadge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="subtle" onClick={() => setEditing(p)}>
                        Edit
                      </Button>
                      <Button size="xs" variant="subtle" loading={toggle.isPending && toggle.variables?.id === p.id} onClick={() => toggle.mutate(p)}>
                        {p.disabled ? 'Enable' : 'Disable'}
                      </Button>
                      {p.uses === 0 && (
                        <Button size="xs" variant="subtle" color="red" loading={remove.isPending && remove.variables === p.id} onClick={() => remove.mutate(p.id)}>
                          Delete
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedListCard>
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
      <Modal size="lg" opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? 'New promotion' : 'Edit promotion'}>
        {editing !== null && <PromotionForm promotion={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Modal>
    </Stack>
  );
}

function appliesTo(p: Promotion): string {
  if (p.applies_to === 'stores') return p.stores.map((s) => s.name).join(', ');
  if (p.applies_to === 'campaigns') return p.campaigns.map((c) => c.name).join(', ');
  return APPLIES_TO_LABELS[p.applies_to] ?? p.applies_to;
}

const limitOf = (v: string | number) => (v === '' ? null : Number(v));

function PromotionForm({ promotion, onDone }: { promotion: Promotion | null; onDone: () => void }) {
  const client = useQueryClient();
  const [code, setCode] = useState(promotion?.code ?? '');
  const [kind, setKind] = useState(promotion?.kind ?? 'discount_with_percent');
  const [percent, setPercent] = useState<string | number>(promotion && promotion.kind !== 'free' ? promotion.percent : 10);
  const [startsAt, setStartsAt] = useState(toLocalInput(promotion?.starts_at ?? null));
  const [endsAt, setEndsAt] = useState(toLocalInput(promotion?.ends_at ?? null));
  const [usageLimit, setUsageLimit] = useState<string | number>(promotion?.usage_limit ?? '');
  const [perBuyer, setPerBuyer] = useState<string | number>(promotion?.per_buyer_limit ?? '');
  const [minOrder, setMinOrder] = useState(promotion && promotion.min_order.amount > 0 ? (promotion.min_order.amount / 100).toFixed(2) : '');
  const [currency, setCurrency] = useState(promotion?.min_order.currency ?? 'USD');
  const [scope, setScope] = useState(promotion?.applies_to ?? 'all');
  const [storeIds, setStoreIds] = useState<string[]>(promotion?.store_ids.map(String) ?? []);
  const [campaignIds, setCampaignIds] = useState<string[]>(promotion?.campaign_ids.map(String) ?? []);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [names, setNames] = useState<Record<string, string>>(() =>
    Object.fromEntries((promotion?.campaigns ?? []).map((c) => [String(c.id), c.name])),
  );
  const storeList = useQuery({ queryKey: ['promotion-stores'], queryFn: ({ signal }) => stores(api, 1, '', signal), enabled: scope === 'stores' });
  const campaigns = useQuery({
    queryKey: ['promotion-campaigns', q],
    enabled: scope === 'campaigns',
    queryFn: async ({ signal }) => {
      const page = await listCampaigns(api, { q }, signal);
      setNames((known) => ({ ...known, ...Object.fromEntries(page.data.map((c) => [String(c.id), c.name])) }));
      return page.data;
    },
  });
  const campaignOptions = [...new Set([...(campaigns.data ?? []).map((c) => String(c.id)), ...campaignIds])].map((id) => ({
    value: id,
    label: names[id] ?? `Campaign ${id}`,
  }));
  const save = useMutation({
    mutationFn: () =>
      savePromotion(api, promotion?.id ?? null, {
        code: code.trim(),
        kind,
        percent: kind === 'free' ? 0 : Number(percent || 0),
        starts_at: fromLocalInput(startsAt),
        ends_at: fromLocalInput(endsAt),
        usage_limit: limitOf(usageLimit),
        per_buyer_limit: limitOf(perBuyer),
        min_order: minOrder.trim(),
        min_order_currency: currency,
        applies_to: scope,
        store_ids: scope === 'stores' ? storeIds.map(Number) : [],
        campaign_ids: scope === 'campaigns' ? campaignIds.map(Number) : [],
      }),
    onSuccess: () => {
      notifications.show({ message: promotion ? 'The promotion was saved.' : 'The promotion was created.' });
      onDone();
      return client.invalidateQueries({ queryKey: PROMOTIONS_KEY });
    },
    onError: (error) => setErrors(formErrorsOf(error)),
  });
  return (
    <Stack>
      {errors.form && <Alert color="red">{errors.form}</Alert>}
      <TextInput label="Code" description="What buyers type at checkout; letters in any case." value={code} onChange={(e) => setCode(e.currentTarget.value)} error={errors.code} />
      <Group grow align="flex-start">
        <Select
          label="Discount"
          data={Object.entries(KIND_LABELS).map(([value, label]) => ({ value, label }))}
          value={kind}
          onChange={(v) => setKind(v ?? 'discount_with_percent')}
          allowDeselect={false}
          error={errors.kind}
        />
        {kind !== 'free' && <NumberInput label="Percent off" min={1} max={100} suffix=" %" value={percent} onChange={setPercent} error={errors.percent} />}
      </Group>
      <Group grow align="flex-start">
        <TextInput type="datetime-local" label="Starts" description="Empty: now" value={startsAt} onChange={(e) => setStartsAt(e.currentTarget.value)} error={errors.starts_at} />
        <TextInput type="datetime-local" label="Ends" description="Empty: no end" value={endsAt} onChange={(e) => setEndsAt(e.currentTarget.value)} error={errors.ends_at} />
      </Group>
      <Group grow align="flex-start">
        <NumberInput label="Uses in all" description="Empty: no limit" min={1} allowDecimal={false} value={usageLimit} onChange={setUsageLimit} error={errors.usage_limit} />
        <NumberInput label="Uses per buyer" description="By e-mail; empty: no limit" min={1} allowDecimal={false} value={perBuyer} onChange={setPerBuyer} error={errors.per_buyer_limit} />
      </Group>
      <Group grow align="flex-start">
        <TextInput label="Minimum order" description="Of the products, before shipping; empty: none" placeholder="30.00" value={minOrder} onChange={(e) => setMinOrder(e.currentTarget.value)} error={errors.min_order} />
        <Select label="Currency of the minimum" data={[...CURRENCIES]} value={currency} onChange={(v) => setCurrency(v ?? 'USD')} allowDeselect={false} error={errors.min_order_currency} />
      </Group>
      <Select
        label="Applies to"
        data={Object.entries(APPLIES_TO_LABELS).map(([value, label]) => ({ value, label }))}
        value={scope}
        onChange={(v) => setScope(v ?? 'all')}
        allowDeselect={false}
        error={errors.applies_to}
      />
      {scope === 'stores' && (
        <MultiSelect
          label="Stores"
          placeholder="Choose stores"
          data={(storeList.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
          value={storeIds}
          onChange={setStoreIds}
          error={errors.store_ids}
          nothingFoundMessage="No store found"
        />
      )}
      {scope === 'campaigns' && (
        <MultiSelect
          label="Campaigns"
          placeholder="Search your campaigns"
          searchable
          onSearchChange={setSearch}
          data={campaignOptions}
          value={campaignIds}
          onChange={setCampaignIds}
          error={errors.campaign_ids}
          nothingFoundMessage="No campaign found"
        />
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button loading={save.isPending} onClick={() => save.mutate()}>
          Save promotion
        </Button>
      </Group>
    </Stack>
  );
}
