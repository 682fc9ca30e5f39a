import { Alert, Button, Group, Loader, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, isApiError } from '../api';
import type { Payout } from '../api/billing';
import { invalidatePaymentAccount, revealPaymentAccount } from '../api/paymentAccounts';
import { LabelBadge } from '../components/LabelBadge';
import { ACCOUNT_STATUS } from '../payments/model';

/**
 * The admin's view of the account a payout goes to: its name in the row, and on request its details in the clear (each
 * look is audited) and the way to mark it invalid, with the reason the seller reads.
 */
export function PayoutAccountDetails({ payout }: { payout: Payout }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Text size="sm">{payout.payment_account_label || 'No account named'}</Text>
      {payout.payment_account_id !== null && (
        <Button size="compact-xs" variant="subtle" onClick={() => setOpen(true)}>
          Details
        </Button>
      )}
      <Modal opened={open} onClose={() => setOpen(false)} title={`Payout #${payout.id} is paid to`} size="lg">
        {open && payout.payment_account_id !== null && <Details id={payout.payment_account_id} />}
      </Modal>
    </>
  );
}

function Details({ id }: { id: number }) {
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const account = useQuery({ queryKey: ['admin-payment-account', id], queryFn: ({ signal }) => revealPaymentAccount(api, id, signal) });
  const invalidate = useMutation({
    mutationFn: () => invalidatePaymentAccount(api, id, reason.trim()),
    onSuccess: ({ message }) => {
      notifications.show({ color: 'green', message });
      setError('');
      void client.invalidateQueries({ queryKey: ['admin-payment-account', id] });
    },
    onError: (e) => setError(isApiError(e) ? (e.fieldMessage('reason') ?? e.message) : String(e)),
  });
  if (account.isPending) return <Loader aria-label="Loading the account" />;
  if (account.isError) return <Alert color="red">{account.error.message}</Alert>;
  const a = account.data;
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text fw={600}>
          {a.method_label} of {a.seller_name} ({a.seller_email})
        </Text>
        <LabelBadge color={ACCOUNT_STATUS[a.status].color} code={a.status}>
          {ACCOUNT_STATUS[a.status].label}
        </LabelBadge>
      </Group>
      <Table withRowBorders={false} verticalSpacing={4}>
        <Table.Tbody>
          {Object.entries(a.fields).map(([name, value]) => (
            <Table.Tr key={name}>
              <Table.Td c="dimmed">{name.replace(/_/g, ' ')}</Table.Td>
              <Table.Td ff="monospace">{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {a.status === 'invalid' ? (
        <Alert color="red">Marked invalid: {a.status_note}</Alert>
      ) : (
        <Group align="flex-end">
          <TextInput
            label="Reason the seller reads"
            placeholder="The bank returned the transfer."
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            error={error || undefined}
            style={{ flex: 1 }}
          />
          <Button color="red" variant="light" loading={invalidate.isPending} onClick={() => invalidate.mutate()}>
            Mark invalid
          </Button>
        </Group>
      )}
    </Stack>
  );
}
