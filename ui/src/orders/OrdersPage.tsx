import { Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { exportOrders, NO_FILTERS, sellerOrders, type OrderFilters } from '../api/orders';
import { stores } from '../api/stores';
import { DateRangeFilter } from '../components/DateRangeFilter';
import { DownloadButton } from '../components/DownloadButton';
import { ListPager, ListTotal, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { ORDERS_KEY } from './keys';
import { FULFILLMENT_STATUS_LABELS, ORDER_STATUS_LABELS, ORDER_TYPE_LABELS, PAYMENT_STATUS_LABELS } from './labels';
import { OrderRowsTable } from './OrderRowsTable';

const options = (table: Readonly<Record<string, string>>) =>
  Object.entries(table).map(([value, text]) => ({ value, label: text }));

/** `/orders`: every order of the account, filtered, searched, paged by 15, exported as CSV. */
export function OrdersPage() {
  const { q, search, debounced, page, setPage, resetting } = useListSearch();
  const [filters, setFilters] = useState<Omit<OrderFilters, 'q'>>(NO_FILTERS);
  const setFilter = resetting((change: Partial<OrderFilters>) => setFilters((f) => ({ ...f, ...change })));
  const applied: OrderFilters = { ...filters, q: debounced };
  const list = useQuery({
    queryKey: [...ORDERS_KEY, 'list', applied, page],
    queryFn: ({ signal }) => sellerOrders(api, page, applied, signal),
  });
  const storeList = useQuery({ queryKey: ['stores', 'orders-filter'], queryFn: ({ signal }) => stores(api, 1, '', signal) });
  const select = (key: keyof OrderFilters, placeholder: string, data: { value: string; label: string }[]) => (
    <Select
      aria-label={placeholder}
      placeholder={placeholder}
      data={data}
      value={filters[key as keyof typeof filters] || null}
      onChange={(value) => setFilter({ [key]: value ?? '' })}
      clearable
      w={190}
    />
  );
  return (
    <Stack gap="lg" maw={1300}>
      <Group justify="space-between" align="flex-end">
        <Title order={1} fz="h2">
          All Orders
        </Title>
        <DownloadButton load={() => exportOrders(api, applied)} fileName="orders.csv" />
      </Group>
      <Group gap="sm" align="flex-end">
        <TextInput
          placeholder="Order number, e-mail or buyer name"
          aria-label="Search orders"
          value={q}
          onChange={(event) => search(event.currentTarget.value)}
          w={300}
        />
        {select('status', 'Order status', options(ORDER_STATUS_LABELS))}
        {select('payment_status', 'Payment status', options(PAYMENT_STATUS_LABELS))}
        {select('fulfillment_status', 'Fulfillment status', options(FULFILLMENT_STATUS_LABELS))}
        {select('order_type', 'Order type', options(ORDER_TYPE_LABELS))}
        {select(
          'store_id',
          'Store',
          (storeList.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name })),
        )}
        <DateRangeFilter filters={filters} setFilter={setFilter} />
      </Group>
      <PagedListCard list={list} loadingLabel="Loading orders">
        {(rows) => (
          <OrderRowsTable orders={rows} withBuyer testId="order" horizontalSpacing="md" />
        )}
      </PagedListCard>
      <ListTotal total={list.data?.total} one="order" many="orders" />
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
    </Stack>
  );
}
