import { Alert, Button, Group, Modal, MultiSelect, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { formErrorsOf } from '../pages/auth/formErrors';
import { listCampaigns } from '../api/campaigns';
import { crossSellRules, removeCrossSellRule, saveCrossSellRule, type CrossSellRule } from '../api/customers';
import { ListPager, PagedListCard } from '../components/PagedList';
import { SEARCH_DEBOUNCE_MS } from '../components/useListSearch';
import { LabelBadge } from '../components/LabelBadge';
import { plural } from '../format/plural';

const RULES_KEY = ['cross-selling'];
/** How many campaigns a rule suggests at most (bff/crossselling MaxTargets). */
const MAX_TARGETS = 8;

/** `/cross-selling`: rules "buyers of this campaign also see these", with the orders that followed each. */
export function CrossSellingPage() {
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<CrossSellRule | 'new' | null>(null);
  const client = useQueryClient();
  const list = useQuery({ queryKey: [...RULES_KEY, page], queryFn: ({ signal }) => crossSellRules(api, page, signal) });
  const remove = useMutation({
    mutationFn: (id: number) => removeCrossSellRule(api, id),
    onSuccess: () => {
      notifications.show({ message: 'The rule was removed.' });
      return client.invalidateQueries({ queryKey: RULES_KEY });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz="h2">
            Cross-Selling
          </Title>
          <Text c="dimmed" size="sm">
            Buyers looking at a campaign, or holding it in their cart, see the campaigns you suggest for it.
          </Text>
        </Stack>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          New rule
        </Button>
      </Group>
      <PagedListCard list={list} loadingLabel="Loading cross-selling rules">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Buyers of</Table.Th>
                <Table.Th>Also see</Table.Th>
                <Table.Th>Orders that followed</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((rule) => (
                <Table.Tr key={rule.id} data-testid="cross-sell-rule">
                  <Table.Td>{rule.campaign.name}</Table.Td>
                  <Table.Td>
                    <Group gap={6}>
                      {rule.targets.map((t) => (
                        <LabelBadge key={t.id} style={{ textTransform: 'none' }}>
                          {t.name}
                        </LabelBadge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>{plural(rule.orders, 'order')}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="subtle" onClick={() => setEditing(rule)}>
                        Edit
                      </Button>
                      <Button size="xs" variant="subtle" color="red" loading={remove.isPending && remove.variables === rule.id} onClick={() => remove.mutate(rule.id)}>
                        Remove
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedListCard>
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? 'New cross-selling rule' : 'Edit cross-selling rule'}>
        {editing !== null && <RuleForm rule={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Modal>
    </Stack>
  );
}

function RuleForm({ rule, onDone }: { rule: CrossSellRule | null; onDone: () => void }) {
  const client = useQueryClient();
  const [campaign, setCampaign] = useState<string | null>(rule ? String(rule.campaign.id) : null);
  const [targets, setTargets] = useState<string[]>(rule ? rule.targets.map((t) => String(t.id)) : []);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Names of every campaign seen, so chosen ones keep their label whatever the search shows.
  const [names, setNames] = useState<Record<string, string>>(() => {
    const known: Record<string, string> = {};
    for (const c of rule ? [rule.campaign, ...rule.targets] : []) known[String(c.id)] = c.name;
    return known;
  });
  const campaigns = useQuery({
    queryKey: ['cross-selling-campaigns', q],
    queryFn: async ({ signal }) => {
      const page = await listCampaigns(api, { q }, signal);
      setNames((known) => ({ ...known, ...Object.fromEntries(page.data.map((c) => [String(c.id), c.name])) }));
      return page.data;
    },
  });
  const options = (chosen: string[]) => {
    const ids = new Set([...(campaigns.data ?? []).map((c) => String(c.id)), ...chosen]);
    return [...ids].map((id) => ({ value: id, label: names[id] ?? `Campaign ${id}` }));
  };
  const save = useMutation({
    mutationFn: () => saveCrossSellRule(api, rule?.id ?? null, { campaign_id: Number(campaign ?? 0), target_ids: targets.map(Number) }),
    onSuccess: () => {
      notifications.show({ message: rule ? 'The rule was saved.' : 'The rule was created.' });
      onDone();
      return client.invalidateQueries({ queryKey: RULES_KEY });
    },
    onError: (error) => setErrors(formErrorsOf(error)),
  });
  return (
    <Stack>
      {errors.form && <Alert color="red">{errors.form}</Alert>}
      <Select
        label="Buyers of this campaign"
        placeholder="Search your campaigns"
        searchable
        onSearchChange={setSearch}
        data={options(campaign ? [campaign] : [])}
        value={campaign}
        onChange={setCampaign}
        error={errors.campaign_id}
        nothingFoundMessage="No campaign found"
      />
      <MultiSelect
        label="Also see these campaigns"
        description={`Up to ${MAX_TARGETS}, shown in this order.`}
        placeholder="Search your campaigns"
        searchable
        onSearchChange={setSearch}
        data={options(targets)}
        value={targets}
        onChange={setTargets}
        maxValues={MAX_TARGETS}
        error={errors.target_ids}
        nothingFoundMessage="No campaign found"
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button loading={save.isPending} onClick={() => save.mutate()}>
          Save rule
        </Button>
      </Group>
    </Stack>
  );
}
