import { Anchor, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { abandonedCheckouts, NO_ABANDONED_FILTERS, type AbandonedFilters, type RecoveryMail } from '../api/customers';
import { DateRangeFilter } from '../components/DateRangeFilter';
import { ListPager, ListTotal, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { formatMoney } from '../orders/labels';
import { formatDateTime } from '../format/dateTime';
import { useSessionUser } from '../session/useSessionUser';
import { LabelBadge } from '../components/LabelBadge';

const MAIL_STATUS: Readonly<Record<RecoveryMail['status'], { label: string; color: string }>> = {
  sending: { label: 'sending', color: 'yellow' },
  sent: { label: 'sent', color: 'blue' },
  failed: { label: 'failed', color: 'red' },
};

const RECOVERED_OPTIONS = [
  { value: 'yes', label: 'Recovered' },
  { value: 'no', label: 'Not recovered' },
];

/** `/abandoned-orders`: checkouts buyers left, the recovery e-mails sent, links opened and checkouts paid after all. */
export function AbandonedOrdersPage() {
  const user = useSessionUser();
  const { q, search, debounced, page, setPage, resetting } = useListSearch();
  const [filters, setFilters] = useState<Omit<AbandonedFilters, 'q'>>(NO_ABANDONED_FILTERS);
  const setFilter = resetting((change: Partial<AbandonedFilters>) => setFilters((f) => ({ ...f, ...change })));
  const applied: AbandonedFilters = { ...filters, q: debounced };
  const list = useQuery({
    queryKey: ['abandoned-checkouts', applied, page],
    queryFn: ({ signal }) => abandonedCheckouts(api, page, applied, signal),
  });
  const when = (iso: string) => formatDateTime(iso, user.timezone);
  return (
    <Stack gap="lg" maw={1300}>
      <Title order={1} fz="h2">
        Abandoned Checkouts
      </Title>
      <Group gap="sm" align="flex-end">
        <TextInput
          placeholder="Buyer e-mail"
          aria-label="Search abandoned checkouts"
          value={q}
          onChange={(event) => search(event.currentTarget.value)}
          w={260}
        />
        <Select
          aria-label="Recovered"
          placeholder="Recovered or not"
          data={RECOVERED_OPTIONS}
          value={filters.recovered || null}
          onChange={(value) => setFilter({ recovered: (value ?? '') as AbandonedFilters['recovered'] })}
          clearable
          w={190}
        />
        <DateRangeFilter filters={filters} setFilter={setFilter} />
      </Group>
      <PagedListCard list={list} loadingLabel="Loading abandoned checkouts">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Buyer</Table.Th>
                <Table.Th>Items</Table.Th>
                <Table.Th>Total</Table.Th>
                <Table.Th>Abandoned</Table.Th>
                <Table.Th>Recovery e-mails</Table.Th>
                <Table.Th>Link opened</Table.Th>
                <Table.Th>Recovered</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((k) => (
                <Table.Tr key={k.id} data-testid="abandoned-checkout">
                  <Table.Td>
                    <Text size="sm">{k.email}</Text>
                    <Text size="xs" c="dimmed">
                      {k.store_name}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {k.lines.map((l, i) => (
                      <Text key={i} size="sm">
                        {l.name} ({[l.color, l.size].filter(Boolean).join(', ')}) × {l.quantity}
                      </Text>
                    ))}
                  </Table.Td>
                  <Table.Td>{formatMoney(k.total)}</Table.Td>
                  <Table.Td>{when(k.abandoned_at)}</Table.Td>
                  <Table.Td>
                    {k.recovery_mails.length === 0 ? (
                      <Text size="sm" c="dimmed">
                        None sent
                      </Text>
                    ) : (
                      <Stack gap={4}>
                        {k.recovery_mails.map((m) => (
                          <Group key={m.step} gap={6} wrap="nowrap">
                            <LabelBadge color={MAIL_STATUS[m.status].color}>
                              E-mail {m.step} {MAIL_STATUS[m.status].label}
                            </LabelBadge>
                            {m.sent_at && (
                              <Text size="xs" c="dimmed">
                                {when(m.sent_at)}
                              </Text>
                            )}
                          </Group>
                        ))}
                      </Stack>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {k.opened_at ? (
                      <Text size="sm">{when(k.opened_at)}</Text>
                    ) : (
                      <Text size="sm" c="dimmed">
                        Not opened
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {k.recovered_at ? (
                      <Stack gap={0}>
                        {k.order_id ? (
                          <Anchor component={Link} to={`/orders/detail/${k.order_id}`} size="sm">
                            Order #{k.order_number}
                          </Anchor>
                        ) : (
                          <Text size="sm">Paid</Text>
                        )}
                        <Text size="xs" c="dimmed">
                          {when(k.recovered_at)}
                        </Text>
                      </Stack>
                    ) : (
                      <Text size="sm" c="dimmed">
                        Not recovered
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedListCard>
      <ListTotal total={list.data?.total} one="abandoned checkout" many="abandoned checkouts" />
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
    </Stack>
  );
}
