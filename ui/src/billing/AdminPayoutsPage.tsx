import { Button, Card, Group, Modal, SegmentedControl, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, isApiError } from '../api';
import { newIdempotencyKey } from '../api/ApiClient';
import { adjustBalance, adminPayouts, releaseOrder, stepPayout, type Adjustment, type Payout, type PayoutStep } from '../api/billing';
import { ListPager, PagedListCard } from '../components/PagedList';
import { formatMoney } from '../orders/labels';
import { formatDateTime } from '../format/dateTime';
import { StatusBadge } from '../orders/StatusBadge';
import { useSessionUser } from '../session/useSessionUser';
import { PAYOUT_STATUS_LABELS, PAYOUT_STEP_LABELS } from './labels';
import { PayoutAccountDetails } from './PayoutAccountDetails';

const ADMIN_PAYOUTS_KEY = ['admin-payouts'];

const errorText = (e: unknown) => (isApiError(e) ? e.message : String(e));

/** One payout's steps; completing asks for the payment's reference. */
function PayoutSteps({ payout }: { payout: Payout }) {
  const client = useQueryClient();
  const [completing, setCompleting] = useState(false);
  const [reference, setReference] = useState('');
  const [error, setError] = useState('');
  const step = useMutation({
    mutationFn: ({ name, ref }: { name: PayoutStep; ref?: string }) => stepPayout(api, payout.id, name, { reference: ref }),
    onSuccess: (p) => {
      notifications.show({ color: 'green', message: `Payout #${p.id} is ${(PAYOUT_STATUS_LABELS[p.status] ?? p.status).toLowerCase()}.` });
      setCompleting(false);
      void client.invalidateQueries({ queryKey: ADMIN_PAYOUTS_KEY });
    },
    onError: (e) => {
      if (completing) setError(errorText(e));
      else notifications.show({ color: 'red', message: errorText(e) });
    },
  });
  return (
    <Group gap="xs">
      {payout.allowed_steps.map((name) => (
        <Button
          key={name}
          size="xs"
          variant={name === 'cancel' ? 'subtle' : 'light'}
          color={name === 'cancel' ? 'red' : undefined}
          loading={step.isPending && step.variables.name === name}
          onClick={() => (name === 'complete' ? setCompleting(true) : step.mutate({ name }))}
        >
          {PAYOUT_STEP_LABELS[name]}
        </Button>
      ))}
      <Modal opened={completing} onClose={() => setCompleting(false)} title={`Complete payout #${payout.id}`}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            step.mutate({ name: 'complete', ref: reference });
          }}
        >
          <Stack>
            <Text size="sm">
              Pay {formatMoney({ amount: payout.amount, currency: payout.currency })} to {payout.seller_name}, then enter the payment's reference.
            </Text>
            <TextInput label="Reference" value={reference} onChange={(e) => setReference(e.currentTarget.value)} error={error || undefined} />
            <Button type="submit" loading={step.isPending}>
              Complete payout
            </Button>
          </Stack>
        </form>
      </Modal>
    </Group>
  );
}

const NO_ADJUSTMENT: Adjustment = { seller_email: '', direction: 'credit', amount: '', reason: '' };

/** An adjustment of a seller's balance, with the reason the seller reads. */
function AdjustmentForm() {
  const [form, setForm] = useState<Adjustment>(NO_ADJUSTMENT);
  const [key, setKey] = useState(newIdempotencyKey);
  const send = useMutation({
    mutationFn: () => adjustBalance(api, form, key),
    onSuccess: () => {
      notifications.show({ color: 'green', message: `The balance of ${form.seller_email} was adjusted.` });
      setForm(NO_ADJUSTMENT);
      setKey(newIdempotencyKey());
    },
  });
  const fieldError = (field: string) => (isApiError(send.error) ? send.error.fieldMessage(field) : undefined);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        send.mutate();
      }}
    >
      <Group align="flex-start">
        <TextInput
          label="Seller e-mail"
          value={form.seller_email}
          onChange={(e) => setForm({ ...form, seller_email: e.currentTarget.value })}
          error={fieldError('seller_email')}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Direction
          </Text>
          <SegmentedControl
            value={form.direction}
            onChange={(v) => setForm({ ...form, direction: v })}
            data={[
              { value: 'credit', label: 'Add' },
              { value: 'debit', label: 'Take' },
            ]}
          />
        </Stack>
        <TextInput label="Amount" placeholder="25.00" value={form.amount} onChange={(e) => setForm({ ...form, amount: e.currentTarget.value })} error={fieldError('amount')} w={140} />
        <TextInput label="Reason" value={form.reason} onChange={(e) => setForm({ ...form, reason: e.currentTarget.value })} error={fieldError('reason')} w={300} />
        <Button type="submit" mt={24} loading={send.isPending}>
          Adjust balance
        </Button>
      </Group>
    </form>
  );
}

/** Makes an order's held earnings available (before its shipment does). */
function ReleaseForm() {
  const [orderId, setOrderId] = useState('');
  const send = useMutation({
    mutationFn: () => releaseOrder(api, Number(orderId)),
    onSuccess: ({ message }) => {
      notifications.show({ color: 'green', message });
      setOrderId('');
    },
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        send.mutate();
      }}
    >
      <Group align="flex-start">
        <TextInput
          label="Order id"
          value={orderId}
          onChange={(e) => setOrderId(e.currentTarget.value)}
          error={send.isError ? errorText(send.error) : undefined}
          w={200}
        />
        <Button type="submit" mt={24} variant="light" loading={send.isPending} disabled={!/^\d+$/.test(orderId)}>
          Make earnings available
        </Button>
      </Group>
    </form>
  );
}

/** `/system/payouts`: the admins' payouts to process, balance adjustments and order releases. */
export function AdminPayoutsPage() {
  const user = useSessionUser();
  const [status, setStatus] = useState('pending');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: [...ADMIN_PAYOUTS_KEY, status, page],
    queryFn: ({ signal }) => adminPayouts(api, page, status, signal),
  });
  return (
    <Stack gap="lg" maw={1300}>
      <Title order={1} fz="h2">
        Payouts
      </Title>
      <Select
        aria-label="Status"
        placeholder="Every status"
        data={Object.entries(PAYOUT_STATUS_LABELS).map(([value, text]) => ({ value, label: text }))}
        value={status || null}
        onChange={(v) => {
          setStatus(v ?? '');
          setPage(1);
        }}
        clearable
        w={220}
      />
      <PagedListCard list={list} loadingLabel="Loading payouts">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Payout</Table.Th>
                <Table.Th>Seller</Table.Th>
                <Table.Th>Requested</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
                <Table.Th>Paid to</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Reference</Table.Th>
                <Table.Th>Steps</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((p) => (
                <Table.Tr key={p.id} data-testid="admin-payout">
                  <Table.Td>#{p.id}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{p.seller_name}</Text>
                    <Text size="xs" c="dimmed">
                      {p.seller_email}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(p.created_at, user.timezone)}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {formatMoney({ amount: p.amount, currency: p.currency })}
                  </Table.Td>
                  <Table.Td>
                    <PayoutAccountDetails payout={p} />
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge table={PAYOUT_STATUS_LABELS} code={p.status} />
                  </Table.Td>
                  <Table.Td>{p.reference}</Table.Td>
                  <Table.Td>
                    <PayoutSteps payout={p} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedListCard>
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
      <Card withBorder padding="lg">
        <Stack>
          <Title order={2} fz="h4">
            Adjust a seller's balance
          </Title>
          <AdjustmentForm />
        </Stack>
      </Card>
      <Card withBorder padding="lg">
        <Stack>
          <Title order={2} fz="h4">
            Release an order's earnings
          </Title>
          <ReleaseForm />
        </Stack>
      </Card>
    </Stack>
  );
}
