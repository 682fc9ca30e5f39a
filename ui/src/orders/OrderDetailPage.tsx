import { describeValues } from '../editor/personalize';
import { Alert, Anchor, Button, Card, Group, Loader, Modal, SimpleGrid, Stack, Table, Text, Textarea, Timeline, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileInvoice } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, isApiError } from '../api';
import { orderAction, sellerOrder, type OrderAction, type OrderDetail, type OrderPayment } from '../api/orders';
import { useSessionUser } from '../session/useSessionUser';
import { ORDERS_KEY } from './keys';
import { AddressDialog, RefundDialog, TrackingDialog, type Done } from './OrderDialogs';
import {
  ACTION_LABELS,
  formatMoney,
  FULFILLMENT_STATUS_LABELS,
  ORDER_STATUS_LABELS,
  ORDER_TYPE_LABELS,
  PAYMENT_STATUS_LABELS,
} from './labels';
import { formatDateTime } from '../format/dateTime';
import { StatusBadge } from './StatusBadge';
import { label } from '../format/labels';

const REVIEW_LABELS: Readonly<Record<string, string>> = {
  designing: 'Waiting for review',
  approved: 'Approved',
  rejected: 'Rejected',
};
const PRINT_LABELS: Readonly<Record<string, string>> = {
  pending: 'Print file queued',
  ready: 'Print file ready',
  failed: 'Print file failed',
};
const REFUND_LABELS: Readonly<Record<string, string>> = {
  pending: 'waiting for the gateway',
  succeeded: 'refunded',
  failed: 'refused',
};
const EVENT_LABELS: Readonly<Record<string, string>> = {
  created: 'Order placed',
  pay: 'Payment received',
  review: 'Sent to review',
  design: 'Sent to a designer',
  approve: 'Print files approved',
  process: 'Sent to production',
  hold: 'Put on hold',
  release: 'Released',
  complete: 'Completed',
  cancel: 'Cancelled',
  refund: 'Refund given',
  refunded: 'Fully refunded',
  ship: 'Tracking added',
  deliver: 'Delivered',
  update_address: 'Shipping address changed',
  archive: 'Archived',
  delete: 'Deleted',
};

/** `/orders/detail/:id`: one order with its items, buyer, money, shipments, timeline and the actions open now. */
export function OrderDetailPage() {
  const id = Number(useParams().id);
  const order = useQuery({
    queryKey: [...ORDERS_KEY, 'detail', id],
    queryFn: ({ signal }) => sellerOrder(api, id, signal),
    enabled: Number.isInteger(id) && id > 0,
  });
  if (!Number.isInteger(id) || id <= 0) return <Alert color="red">Order not found.</Alert>;
  if (order.isPending) return <Loader aria-label="Loading order" />;
  if (order.isError) return <Alert color="red" role="alert">{order.error.message}</Alert>;
  return <OrderView order={order.data} />;
}

function OrderView({ order }: { order: OrderDetail }) {
  const user = useSessionUser();
  const addr = order.shipping_address;
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Anchor component={Link} to="/orders" size="sm">
            ← All orders
          </Anchor>
          <Title order={1} fz="h2">
            Order #{order.number}
          </Title>
          <Text size="sm" c="dimmed">
            {formatDateTime(order.created_at, user.timezone)} · {label(ORDER_TYPE_LABELS, order.order_type)}
            {order.store_name && ` · ${order.store_name}`}
          </Text>
        </Stack>
        <Actions order={order} />
      </Group>
      <Group gap="sm">
        <StatusBadge table={ORDER_STATUS_LABELS} code={order.status} />
        <StatusBadge table={PAYMENT_STATUS_LABELS} code={order.payment_status} />
        <StatusBadge table={FULFILLMENT_STATUS_LABELS} code={order.fulfillment_status} />
      </Group>
      <Card withBorder radius="lg">
        <Title order={2} fz="h4" mb="sm">
          Items
        </Title>
        <Table verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Product</Table.Th>
              <Table.Th>Colour</Table.Th>
              <Table.Th>Size</Table.Th>
              <Table.Th>Quantity</Table.Th>
              <Table.Th>Unit price</Table.Th>
              <Table.Th>Print files</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {order.items.map((it) => (
              <Table.Tr key={it.id} data-testid="order-item">
                <Table.Td>
                  <Text size="sm">{it.product_name}</Text>
                  {describeValues(it.personalization).map((v, i) => (
                    <Text key={`${v.label}:${i}`} size="xs" c="dimmed">
                      {v.label}: {v.value}
                    </Text>
                  ))}
                </Table.Td>
                <Table.Td>{it.color}</Table.Td>
                <Table.Td>{it.size}</Table.Td>
                <Table.Td>{it.quantity}</Table.Td>
                <Table.Td>{formatMoney(it.unit_price)}</Table.Td>
                <Table.Td>
                  {it.print_files.length === 0 && <Text size="xs" c="dimmed">None</Text>}
                  {it.print_files.map((f) => (
                    <Text key={f.id} size="xs">
                      {f.print_space || 'Print'}: {label(REVIEW_LABELS, f.review_status)}, {label(PRINT_LABELS, f.print_status)}
                      {f.designer_comment && ` — “${f.designer_comment}”`}
                    </Text>
                  ))}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Card withBorder radius="lg">
          <Title order={2} fz="h4" mb="sm">
            Buyer
          </Title>
          <Text size="sm">{order.customer_name}</Text>
          <Text size="sm" c="dimmed">
            {order.email}
          </Text>
          <Title order={3} fz="h5" mt="md" mb={4}>
            Shipping address
          </Title>
          {[addr.name, addr.line1, addr.line2, [addr.postal_code, addr.city].filter(Boolean).join(' '), addr.state, addr.country, addr.phone]
            .filter(Boolean)
            .map((line, i) => (
              <Text key={i} size="sm">
                {line}
              </Text>
            ))}
          {order.address_errors && (
            <Alert color="red" mt="sm" title="This address is not valid for its country" data-testid="address-errors">
              {order.address_errors.map((e) => e.message).join(' ')} The order will not be produced until the address is
              fixed.
            </Alert>
          )}
        </Card>
        <Card withBorder radius="lg">
          <Title order={2} fz="h4" mb="sm">
            Payment
          </Title>
          {(
            [
              ['Subtotal', order.subtotal],
              ['Shipping', order.shipping],
              ['Discount', order.discount],
              ['Tip', order.tip],
              ['Total', order.total],
            ] as const
          ).map(([name, m]) => (
            <Group key={name} justify="space-between">
              <Text size="sm" fw={name === 'Total' ? 700 : undefined}>
                {name}
              </Text>
              <Text size="sm" fw={name === 'Total' ? 700 : undefined}>
                {name === 'Discount' && m.amount > 0 ? '−' : ''}
                {formatMoney(m)}
              </Text>
            </Group>
          ))}
          {order.payments.map((p) => (
            <Stack key={p.id} gap={2} mt="sm">
              <Text size="sm">
                {formatMoney(p.amount)} via {paidVia(p)} ·{' '}
                {label({ succeeded: 'Succeeded', pending: 'Pending', authorized: 'Authorized', failed: 'Failed', canceled: 'Canceled' }, p.status)}
              </Text>
              {p.refunds.map((r) => (
                <Text key={r.id} size="xs" c={r.status === 'failed' ? 'red' : 'dimmed'} data-testid="order-refund">
                  {r.status === 'succeeded' ? 'Refunded' : `Refund of`} {formatMoney(r.amount)}
                  {r.status !== 'succeeded' && ` ${label(REFUND_LABELS, r.status)}`} on {formatDateTime(r.created_at, user.timezone)}
                  {r.reason && ` — ${r.reason}`}
                  {r.status === 'failed' && r.message && ` (${r.message})`}
                </Text>
              ))}
            </Stack>
          ))}
        </Card>
        <Card withBorder radius="lg">
          <Title order={2} fz="h4" mb="sm">
            Shipments
          </Title>
          {order.shipments.length === 0 && (
            <Text size="sm" c="dimmed">
              Nothing shipped yet.
            </Text>
          )}
          {order.shipments.map((s) => (
            <Stack key={s.id} gap={0} mb="xs" data-testid="order-shipment">
              <Text size="sm" fw={500}>
                {order.items.find((it) => it.id === s.order_item_id)?.product_name ?? 'Item'}
              </Text>
              <Text size="sm">
                {s.carrier} ·{' '}
                {s.tracking_url ? (
                  <Anchor href={s.tracking_url} target="_blank" rel="noopener noreferrer">
                    {s.tracking}
                  </Anchor>
                ) : (
                  s.tracking
                )}
              </Text>
              <Text size="xs" c="dimmed">
                Shipped {formatDateTime(s.shipped_at, user.timezone)}
                {s.delivered_at && ` · delivered ${formatDateTime(s.delivered_at, user.timezone)}`}
              </Text>
            </Stack>
          ))}
        </Card>
      </SimpleGrid>
      <Card withBorder radius="lg">
        <Title order={2} fz="h4" mb="md">
          Timeline
        </Title>
        <Timeline bulletSize={14} lineWidth={2} active={order.events.length}>
          {order.events.map((e) => (
            <Timeline.Item key={e.id} title={label(EVENT_LABELS, e.action)} data-testid="order-event">
              <Text size="xs" c="dimmed">
                {formatDateTime(e.created_at, user.timezone)} · {e.actor_name || actorWords(e.actor)}
                {e.to_status && e.from_status && e.from_status !== e.to_status && ` · ${label(ORDER_STATUS_LABELS, e.from_status)} → ${label(ORDER_STATUS_LABELS, e.to_status)}`}
              </Text>
              {e.note && <Text size="sm">{e.note}</Text>}
            </Timeline.Item>
          ))}
        </Timeline>
      </Card>
    </Stack>
  );
}

/** The gateway a payment went through, in words: the seller's own by its name, else Pressroom's. */
function paidVia(p: OrderPayment): string {
  if (p.own_gateway !== '') return `your payment gateway “${p.own_gateway}”`;
  return p.gateway === 'test' ? 'the test gateway' : 'Stripe';
}

/** Who acted when no person did: the buyer's checkout, the payment gateway, an API key, the platform. */
function actorWords(actor: string): string {
  if (actor.startsWith('gateway:')) return 'Payment gateway';
  if (actor === 'buyer') return 'Buyer';
  if (actor.startsWith('api_key:')) return 'API key';
  return 'Pressroom';
}

function Actions({ order }: { order: OrderDetail }) {
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'cancel' | 'refund' | 'ship' | 'update_address' | null>(null);
  const [note, setNote] = useState('');
  const done: Done = ({ message, data }) => {
    notifications.show({ color: 'green', message: message || `Order #${order.number} updated.` });
    setDialog(null);
    queryClient.setQueryData([...ORDERS_KEY, 'detail', order.id], data);
    void queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
  };
  const act = useMutation({
    mutationFn: (action: OrderAction) => orderAction(api, order.id, action, note),
    onSuccess: ({ message, data }, action) => {
      setNote('');
      done({ message: message || `Order #${order.number}: ${label(EVENT_LABELS, action).toLowerCase()}.`, data });
    },
    onError: async () => {
      setDialog(null);
      await queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
    },
  });
  const click = (a: OrderAction) => {
    if (a === 'cancel' || a === 'refund' || a === 'ship' || a === 'update_address') setDialog(a);
    else act.mutate(a);
  };
  return (
    <Stack gap="xs" align="flex-end">
      {act.isError && (
        <Alert color="red" role="alert" maw={420}>
          {isApiError(act.error) ? act.error.message : String(act.error)}
        </Alert>
      )}
      <Group gap="xs">
        {order.invoice_number && (
          <Button component={Link} to={`/orders/invoice/${order.id}`} variant="default" leftSection={<IconFileInvoice size={16} />}>
            Invoice
          </Button>
        )}
        {order.allowed_actions.map((a) => (
          <Button
            key={a}
            variant={a === 'cancel' ? 'outline' : 'light'}
            color={a === 'cancel' ? 'red' : undefined}
            loading={act.isPending && act.variables === a}
            disabled={act.isPending}
            onClick={() => click(a)}
          >
            {ACTION_LABELS[a] ?? label({}, a)}
          </Button>
        ))}
        <Modal opened={dialog === 'cancel'} onClose={() => setDialog(null)} title={`Cancel order #${order.number}?`}>
          <Stack gap="md">
            <Text size="sm">The order will not be produced. Money taken is not refunded by cancelling; refund it separately.</Text>
            <Textarea label="Note for the timeline (optional)" value={note} onChange={(e) => setNote(e.currentTarget.value)} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDialog(null)}>
                Keep the order
              </Button>
              <Button color="red" loading={act.isPending} onClick={() => act.mutate('cancel')}>
                Cancel order
              </Button>
            </Group>
          </Stack>
        </Modal>
        <RefundDialog order={order} opened={dialog === 'refund'} onClose={() => setDialog(null)} onDone={done} />
        {dialog === 'ship' && <TrackingDialog order={order} opened onClose={() => setDialog(null)} onDone={done} />}
        {dialog === 'update_address' && <AddressDialog order={order} opened onClose={() => setDialog(null)} onDone={done} />}
      </Group>
    </Stack>
  );
}
