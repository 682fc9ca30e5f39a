import { Alert, Button, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { currentAccessContext, visibleMenu } from '../access';
import { api } from '../api';
import { NO_FILTERS, sellerOrders } from '../api/orders';
import { ListPager, PagedListCard } from '../components/PagedList';
import { useSessionUser } from '../session/useSessionUser';
import { ORDERS_KEY } from './keys';
import { formatDateTime } from '../format/dateTime';
import { formatMoney, ORDER_STATUS_LABELS } from './labels';
import { BuyerCell, OrderNumberLink } from './OrderRowsTable';
import { StatusBadge } from './StatusBadge';
import { label } from '../format/labels';

const ONLY_INVALID = { ...NO_FILTERS, fulfillment_status: 'invalid' };

/**
 * `/invalid-address`: the orders waiting because their shipping address fails the country rules (fulfilment
 * status invalid), oldest problem last, each with what is wrong and a way to fix it on the order's page.
 */
export function InvalidAddressPage() {
  const user = useSessionUser();
  const allowed = useMemo(() => visibleMenu(user, currentAccessContext()).includes('orders.invalid_address'), [user]);
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: [...ORDERS_KEY, 'invalid-address', page],
    queryFn: ({ signal }) => sellerOrders(api, page, ONLY_INVALID, signal),
    enabled: allowed,
  });
  if (!allowed) {
    return (
      <Alert color="yellow" title="Invalid Address is not available for this account">
        Accounts that take payments through their own gateway see the orders whose address needs fixing here.
      </Alert>
    );
  }
  return (
    <Stack gap="lg" maw={1200}>
      <Stack gap={4}>
        <Title order={1} fz="h2">
          Invalid Address
        </Title>
        <Text size="sm" c="dimmed">
          These orders are not produced until their shipping address passes the country&apos;s rules. Fix the address and
          the order goes on.
        </Text>
      </Stack>
      <PagedListCard list={list} loadingLabel="Loading orders with an invalid address">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Order</Table.Th>
                <Table.Th>Date</Table.Th>
                <Table.Th>Buyer</Table.Th>
                <Table.Th>Total</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>What is wrong</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((o) => (
                <Table.Tr key={o.id} data-testid="invalid-address-order">
                  <Table.Td>
                    <OrderNumberLink order={o} />
                  </Table.Td>
                  <Table.Td>{formatDateTime(o.created_at, user.timezone)}</Table.Td>
                  <Table.Td>
                    <BuyerCell order={o} />
                  </Table.Td>
                  <Table.Td>{formatMoney(o.total)}</Table.Td>
                  <Table.Td>
                    <StatusBadge table={ORDER_STATUS_LABELS} code={o.status} />
                  </Table.Td>
                  <Table.Td>
                    {(o.address_errors ?? []).map((e) => (
                      <Text key={e.field} size="sm">
                        {label(FIELD_LABELS, e.field)}: {e.message}
                      </Text>
                    ))}
                  </Table.Td>
                  <Table.Td>
                    <Button component={Link} to={`/orders/detail/${o.id}`} size="xs" variant="light">
                      Fix address
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedListCard>
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
    </Stack>
  );
}

/** The address fields by their names on screen. */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  name: 'Name',
  line1: 'Address',
  line2: 'Address line 2',
  city: 'City',
  state: 'State or province',
  postal_code: 'Postal code',
  country: 'Country',
  phone: 'Phone',
};
