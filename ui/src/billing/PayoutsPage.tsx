import { Alert, Anchor, Button, Card, Group, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, isApiError } from '../api';
import { newIdempotencyKey } from '../api/ApiClient';
import {
  type BillingSummary,
  billingSummary,
  exportTransactions,
  NO_TRANSACTION_FILTERS,
  type Payout,
  requestPayout,
  sellerPayouts,
  transactions,
  type TransactionFilters,
  withdrawPayout,
} from '../api/billing';
import { DateRangeFilter } from '../components/DateRangeFilter';
import { DownloadButton } from '../components/DownloadButton';
import { ListPager, ListTotal, PagedListCard } from '../components/PagedList';
import { formatDateTime } from '../format/dateTime';
import { formatMoney } from '../orders/labels';
import { StatusBadge } from '../orders/StatusBadge';
import { can } from '../access/rules';
import { formErrorsOf } from '../pages/auth/formErrors';
import { meQuery } from '../session/queries';
import { useSessionUser } from '../session/useSessionUser';
import { exportFileName, PAYOUT_STATUS_LABELS, TRANSACTION_TYPE_LABELS } from './labels';

const BILLING_KEY = ['billing'];

/** A signed amount: "+$12.50", "−$3.00", "$0.00". */
function signed(amount: number, currency: string): string {
  const text = formatMoney({ amount: Math.abs(amount), currency });
  if (amount > 0) return `+${text}`;
  if (amount < 0) return `−${text}`;
  return text;
}

function BalanceCard({ label, amount, currency, hint }: { label: string; amount: number; currency: string; hint: string }) {
  return (
    <Card withBorder padding="lg" data-testid={`balance-${label.toLowerCase()}`}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700}>
        {formatMoney({ amount, currency })}
      </Text>
      <Text size="xs" c="dimmed">
        {hint}
      </Text>
    </Card>
  );
}

/** The payout request: an amount between the minimum and what is available, to a confirmed account, one payout at a time. */
function PayoutRequest({ summary }: { summary: BillingSummary }) {
  const { available, payout_min: minimum, currency, payment_accounts: accounts } = summary;
  const user = useSessionUser();
  const client = useQueryClient();
  const [amount, setAmount] = useState('');
  const [account, setAccount] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [key, setKey] = useState(newIdempotencyKey);
  const chosen = account ?? String(accounts.find((a) => a.is_default)?.id ?? accounts[0]?.id ?? '');
  const send = useMutation({
    mutationFn: () => requestPayout(api, amount.trim(), Number(chosen), key),
    onSuccess: ({ message }) => {
      notifications.show({ color: 'green', message });
      setAmount('');
      setErrors({});
      setKey(newIdempotencyKey());
      void client.invalidateQueries({ queryKey: BILLING_KEY });
      void client.invalidateQueries({ queryKey: meQuery.queryKey });
    },
    onError: (e) => setErrors(formErrorsOf(e)),
  });
  if (summary.open_payout !== null) {
    return <Text size="sm">You can ask for another payout once the one in progress is completed or cancelled.</Text>;
  }
  if (available < minimum || available === 0) {
    return (
      <Text size="sm" c="dimmed">
        Payouts start at {formatMoney({ amount: minimum, currency })}. You have {formatMoney({ amount: available, currency })} available.
      </Text>
    );
  }
  if (accounts.length === 0) {
    return (
      <Text size="sm" data-testid="no-payout-account">
        Payouts are sent to a confirmed payment account.{' '}
        {can(user, 'update_payments') ? (
          <Anchor component={Link} to="/settings/payment-account">
            Add one in Payment Accounts
          </Anchor>
        ) : (
          'Ask the account owner to add one.'
        )}
      </Text>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        send.mutate();
      }}
    >
      <Group align="flex-start">
        <TextInput
          label="Amount"
          placeholder={(available / 100).toFixed(2)}
          description={`From ${formatMoney({ amount: minimum, currency })} to ${formatMoney({ amount: available, currency })}`}
          value={amount}
          onChange={(event) => setAmount(event.currentTarget.value)}
          error={errors.amount ?? errors.form}
          w={260}
        />
        <Select
          label="Pay to"
          data={accounts.map((a) => ({ value: String(a.id), label: a.label }))}
          value={chosen}
          onChange={setAccount}
          allowDeselect={false}
          error={errors.payment_account_id}
          w={360}
        />
        <Button type="submit" mt={24} loading={send.isPending} disabled={amount.trim() === ''}>
          Request payout
        </Button>
      </Group>
    </form>
  );
}

/** Cancels the seller's pending payout request, which gives its amount back to the available balance. */
function WithdrawPayoutButton({ payout }: { payout: Payout }) {
  const client = useQueryClient();
  const withdraw = useMutation({
    mutationFn: () => withdrawPayout(api, payout.id),
    onSuccess: ({ message }) => notifications.show({ color: 'green', message }),
    onError: (e) => notifications.show({ color: 'red', message: isApiError(e) ? e.message : String(e) }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: BILLING_KEY });
      void client.invalidateQueries({ queryKey: meQuery.queryKey });
    },
  });
  return (
    <Button size="compact-sm" variant="subtle" color="red" loading={withdraw.isPending} onClick={() => withdraw.mutate()}>
      Cancel request
    </Button>
  );
}

/** `/payouts`: Billing & Payouts. Balances, the payout request and history, and every transaction. */
export function PayoutsPage() {
  const user = useSessionUser();
  const summary = useQuery({ queryKey: [...BILLING_KEY, 'summary'], queryFn: ({ signal }) => billingSummary(api, signal) });
  const [filters, setFilters] = useState<TransactionFilters>(NO_TRANSACTION_FILTERS);
  const [page, setPage] = useState(1);
  const [payoutPage, setPayoutPage] = useState(1);
  const setFilter = (change: Partial<TransactionFilters>) => {
    setFilters((f) => ({ ...f, ...change }));
    setPage(1);
  };
  const list = useQuery({
    queryKey: [...BILLING_KEY, 'transactions', filters, page],
    queryFn: ({ signal }) => transactions(api, page, filters, signal),
  });
  const payouts = useQuery({
    queryKey: [...BILLING_KEY, 'payouts', payoutPage],
    queryFn: ({ signal }) => sellerPayouts(api, payoutPage, signal),
  });
  const s = summary.data;
  return (
    <Stack gap="lg" maw={1300}>
      <Title order={1} fz="h2">
        Billing & Payouts
      </Title>
      {summary.isError && (
        <Alert color="red">{isApiError(summary.error) ? summary.error.message : 'The balances could not be loaded.'}</Alert>
      )}
      {s && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <BalanceCard label="Available" amount={s.available} currency={s.currency} hint="Yours to pay out" />
            <BalanceCard label="Held" amount={s.held} currency={s.currency} hint="Earned on orders not shipped yet" />
            <BalanceCard label="Total" amount={s.total} currency={s.currency} hint="Available and held" />
          </SimpleGrid>
          {s.owed > 0 && (
            <Alert color="orange" title="Refunds after a payout">
              {formatMoney({ amount: s.owed, currency: s.currency })} of refunds came after the money was paid out. It is taken from your next
              earnings, as the transactions below show.
            </Alert>
          )}
          <Card withBorder padding="lg">
            <Stack gap="sm">
              <Title order={2} fz="h4">
                Request a payout
              </Title>
              {s.open_payout && (
                <Group gap="xs" data-testid="open-payout">
                  <Text size="sm">
                    Payout #{s.open_payout.id} of {formatMoney({ amount: s.open_payout.amount, currency: s.open_payout.currency })}
                  </Text>
                  <StatusBadge table={PAYOUT_STATUS_LABELS} code={s.open_payout.status} />
                  {s.open_payout.withdrawable && <WithdrawPayoutButton payout={s.open_payout} />}
                </Group>
              )}
              <PayoutRequest summary={s} />
            </Stack>
          </Card>
        </>
      )}
      <Group justify="space-between" align="flex-end">
        <Title order={2} fz="h4">
          Transactions
        </Title>
        <DownloadButton load={() => exportTransactions(api, filters)} fileName={() => exportFileName(new Date(), user.utc_offset)} />
      </Group>
      <Group gap="sm" align="flex-end">
        <Select
          aria-label="Type"
          placeholder="Type"
          data={Object.entries(TRANSACTION_TYPE_LABELS).map(([value, text]) => ({ value, label: text }))}
          value={filters.type || null}
          onChange={(value) => setFilter({ type: value ?? '' })}
          clearable
          w={190}
        />
        <DateRangeFilter filters={filters} setFilter={setFilter} />
      </Group>
      <PagedListCard list={list} loadingLabel="Loading transactions">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Date</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Description</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
                <Table.Th ta="right">Available</Table.Th>
                <Table.Th ta="right">Held</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((t) => (
                <Table.Tr key={t.id} data-testid="transaction">
                  <Table.Td>{formatDateTime(t.created_at, user.timezone)}</Table.Td>
                  <Table.Td>{TRANSACTION_TYPE_LABELS[t.type] ?? t.type}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{t.description}</Text>
                    {t.order_id !== null && (
                      <Text size="xs" component={Link} to={`/orders/detail/${t.order_id}`} c="blue">
                        View order
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td ta="right" c={t.amount < 0 ? 'red' : undefined} style={{ whiteSpace: 'nowrap' }}>
                    {signed(t.amount, t.currency)}
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    <Text size="sm">{signed(t.available, t.currency)}</Text>
                    <Text size="xs" c="dimmed">
                      {formatMoney({ amount: t.available_after, currency: t.currency })}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    <Text size="sm">{signed(t.held, t.currency)}</Text>
                    <Text size="xs" c="dimmed">
                      {formatMoney({ amount: t.held_after, currency: t.currency })}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedListCard>
      <ListTotal total={list.data?.total} one="transaction" many="transactions" />
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
      <Title order={2} fz="h4">
        Payouts
      </Title>
      <PagedListCard list={payouts} loadingLabel="Loading payouts">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Payout</Table.Th>
                <Table.Th>Requested</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
                <Table.Th>Paid to</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Reference</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((p) => (
                <Table.Tr key={p.id} data-testid="payout">
                  <Table.Td>#{p.id}</Table.Td>
                  <Table.Td>{formatDateTime(p.created_at, user.timezone)}</Table.Td>
                  <Table.Td ta="right">{formatMoney({ amount: p.amount, currency: p.currency })}</Table.Td>
                  <Table.Td>{p.payment_account_label}</Table.Td>
                  <Table.Td>
                    <StatusBadge table={PAYOUT_STATUS_LABELS} code={p.status} />
                  </Table.Td>
                  <Table.Td>{p.reference}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedListCard>
      <ListPager page={payoutPage} lastPage={payouts.data?.last_page} onChange={setPayoutPage} />
    </Stack>
  );
}
