import { Anchor, Table, Text, type MantineSpacing } from '@mantine/core';
import { Link } from 'react-router';
import type { CustomerOrder } from '../api/customers';
import type { OrderRow } from '../api/orders';
import { useSessionUser } from '../session/useSessionUser';
import { formatDateTime } from '../format/dateTime';
import { formatMoney, FULFILLMENT_STATUS_LABELS, ORDER_STATUS_LABELS, PAYMENT_STATUS_LABELS } from './labels';
import { StatusBadge } from './StatusBadge';

/** An order's number, linking to its page. */
export function OrderNumberLink({ order }: { order: Pick<OrderRow, 'id' | 'number'> }) {
  return (
    <Anchor component={Link} to={`/orders/detail/${order.id}`}>
      #{order.number}
    </Anchor>
  );
}

/** The buyer's name above their e-mail. */
export function BuyerCell({ order }: { order: Partial<Pick<OrderRow, 'customer_name' | 'email'>> }) {
  return (
    <>
      <Text size="sm">{order.customer_name}</Text>
      <Text size="xs" c="dimmed">
        {order.email}
      </Text>
    </>
  );
}

/** An order as a row shows it: the orders list's rows have the buyer, a customer's orders do not. */
type OrderSummary = CustomerOrder & Partial<Pick<OrderRow, 'customer_name' | 'email'>>;

/**
 * A table of orders: number, date, store, items, total and the three statuses; `withBuyer` adds the buyer's column
 * (a customer's own orders leave it out). Each row is marked `data-testid={testId}`.
 */
export function OrderRowsTable({
  orders,
  withBuyer = false,
  testId,
  horizontalSpacing,
}: {
  orders: readonly OrderSummary[];
  withBuyer?: boolean;
  testId: string;
  horizontalSpacing?: MantineSpacing;
}) {
  const user = useSessionUser();
  return (
    <Table verticalSpacing="sm" horizontalSpacing={horizontalSpacing}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Order</Table.Th>
          <Table.Th>Date</Table.Th>
          {withBuyer && <Table.Th>Buyer</Table.Th>}
          <Table.Th>Store</Table.Th>
          <Table.Th>Items</Table.Th>
          <Table.Th>Total</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Payment</Table.Th>
          <Table.Th>Fulfillment</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {orders.map((o) => (
          <Table.Tr key={o.id} data-testid={testId}>
            <Table.Td>
              <OrderNumberLink order={o} />
            </Table.Td>
            <Table.Td>{formatDateTime(o.created_at, user.timezone)}</Table.Td>
            {withBuyer && (
              <Table.Td>
                <BuyerCell order={o} />
              </Table.Td>
            )}
            <Table.Td>{o.store_name}</Table.Td>
            <Table.Td>{o.items}</Table.Td>
            <Table.Td>{formatMoney(o.total)}</Table.Td>
            <Table.Td>
              <StatusBadge table={ORDER_STATUS_LABELS} code={o.status} />
            </Table.Td>
            <Table.Td>
              <StatusBadge table={PAYMENT_STATUS_LABELS} code={o.payment_status} />
            </Table.Td>
            <Table.Td>
              <StatusBadge table={FULFILLMENT_STATUS_LABELS} code={o.fulfillment_status} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
