import { Anchor, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { exportCustomers, sellerCustomers, type CustomerQuery, type CustomerSort } from '../api/customers';
import { DownloadButton } from '../components/DownloadButton';
import { ListPager, ListTotal, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { formatDateTime } from '../format/dateTime';
import { useSessionUser } from '../session/useSessionUser';
import { CUSTOMERS_KEY } from './keys';
import { Spent } from './Spent';

/** The sort choices, each a column and a direction in words. */
interface SortChoice {
  value: string;
  label: string;
  sort: CustomerSort;
  asc: boolean;
}
const LATEST_FIRST: SortChoice = { value: 'last_order_at:desc', label: 'Latest order first', sort: 'last_order_at', asc: false };
const SORTS: readonly SortChoice[] = [
  LATEST_FIRST,
  { value: 'last_order_at:asc', label: 'Oldest order first', sort: 'last_order_at', asc: true },
  { value: 'orders:desc', label: 'Most orders', sort: 'orders', asc: false },
  { value: 'total_spent:desc', label: 'Most spent', sort: 'total_spent', asc: false },
  { value: 'name:asc', label: 'Name A–Z', sort: 'name', asc: true },
  { value: 'email:asc', label: 'E-mail A–Z', sort: 'email', asc: true },
  { value: 'first_order_at:desc', label: 'Newest customers', sort: 'first_order_at', asc: false },
];

/** `/customers`: the buyers of the account's orders, searched, sorted, paged by 15, exported as CSV. */
export function CustomersPage() {
  const user = useSessionUser();
  const { q, search, debounced, page, setPage, resetting } = useListSearch();
  const [sortValue, setSortValue] = useState(LATEST_FIRST.value);
  const chosen = SORTS.find((s) => s.value === sortValue) ?? LATEST_FIRST;
  const query: CustomerQuery = { q: debounced, sort: chosen.sort, asc: chosen.asc };
  const list = useQuery({
    queryKey: [...CUSTOMERS_KEY, 'list', query, page],
    queryFn: ({ signal }) => sellerCustomers(api, page, query, signal),
  });
  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between" align="flex-end">
        <Title order={1} fz="h2">
          Customers
        </Title>
        <DownloadButton load={() => exportCustomers(api, query)} fileName="customers.csv" />
      </Group>
      <Group gap="sm" align="flex-end">
        <TextInput
          placeholder="E-mail or name"
          aria-label="Search customers"
          value={q}
          onChange={(event) => search(event.currentTarget.value)}
          w={300}
        />
        <Select
          aria-label="Sort customers"
          data={SORTS.map(({ value, label }) => ({ value, label }))}
          value={sortValue}
          onChange={resetting((value: string | null) => setSortValue(value ?? LATEST_FIRST.value))}
          allowDeselect={false}
          w={220}
        />
      </Group>
      <PagedListCard list={list} loadingLabel="Loading customers">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Customer</Table.Th>
                <Table.Th>Country</Table.Th>
                <Table.Th>Orders</Table.Th>
                <Table.Th>Total spent</Table.Th>
                <Table.Th>Last order</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((c) => (
                <Table.Tr key={c.id} data-testid="customer">
                  <Table.Td>
                    <Anchor component={Link} to={`/customers/detail/${c.id}`} size="sm">
                      {c.name || c.email}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {c.email}
                    </Text>
                  </Table.Td>
                  <Table.Td>{c.country_name}</Table.Td>
                  <Table.Td>{c.orders}</Table.Td>
                  <Table.Td>
                    <Spent amounts={c.total_spent} />
                  </Table.Td>
                  <Table.Td>{formatDateTime(c.last_order_at, user.timezone)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedListCard>
      <ListTotal total={list.data?.total} one="customer" many="customers" />
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
    </Stack>
  );
}
