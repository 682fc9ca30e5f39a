import { Alert, Anchor, Button, Code, CopyButton, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { deletePaymentGateway, paymentGateways, type PaymentGateway } from '../api/paymentGateways';
import { can } from '../access/rules';
import { LabelBadge } from '../components/LabelBadge';
import { ListPager, PagedListCard } from '../components/PagedList';
import { ConfirmDelete } from '../feedback/ConfirmDelete';
import { useSessionUser } from '../session/useSessionUser';
import { deleteGatewayText, GATEWAYS_KEY, storesOf } from './model';

/** Why the page shows nothing: the account takes no custom payment, or the caller may not see payments. */
export function GatewaysRefused({ customPayment }: { customPayment: boolean }) {
  return (
    <Alert color="gray" title="Payment gateways are not available here">
      {customPayment
        ? 'Seeing the payment gateways needs the permission to see balance and payouts. Ask the account owner for it.'
        : 'Your stores take their payments through Pressroom. Connecting your own Stripe account is for accounts with custom payment.'}
    </Alert>
  );
}

/** Test or live, as Stripe's keys say. */
export function ModeBadge({ testMode }: { testMode: boolean }) {
  return testMode ? (
    <LabelBadge color="yellow" code="test">
      Test mode
    </LabelBadge>
  ) : (
    <LabelBadge color="green" code="live">
      Live
    </LabelBadge>
  );
}

/** The address Stripe sends a gateway's events to, with a button that copies it. */
export function WebhookAddress({ url }: { url: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="center">
      <Code style={{ wordBreak: 'break-all' }}>{url}</Code>
      <CopyButton value={url}>
        {({ copied, copy }) => (
          <Button size="compact-xs" variant="light" color={copied ? 'green' : undefined} onClick={copy}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/** `/settings/payment-gateways`: the seller's own Stripe accounts and the stores that pay into each. */
export function PaymentGatewaysPage() {
  const user = useSessionUser();
  const allowed = user.custom_payment && can(user, 'get_payments');
  const canEdit = allowed && can(user, 'update_payments');
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<PaymentGateway | null>(null);
  const list = useQuery({
    queryKey: [...GATEWAYS_KEY, page],
    queryFn: ({ signal }) => paymentGateways(api, page, signal),
    enabled: allowed,
  });
  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz="h2">
            Payment Gateways
          </Title>
          <Text c="dimmed" size="sm">
            Take your stores&apos; payments into your own Stripe account. Stores without a gateway take payments through Pressroom.
          </Text>
        </Stack>
        {canEdit && (
          <Button leftSection={<IconPlus size={16} />} component={Link} to="/settings/payment-gateways/create">
            Connect Stripe
          </Button>
        )}
      </Group>
      {!allowed ? (
        <GatewaysRefused customPayment={user.custom_payment} />
      ) : (
        <>
          <PagedListCard list={list} loadingLabel="Loading payment gateways">
            {(rows) => (
              <Table verticalSpacing="sm" horizontalSpacing="md">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Gateway</Table.Th>
                    <Table.Th>Keys</Table.Th>
                    <Table.Th>Stores</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((g) => (
                    <Table.Tr key={g.id} data-testid="payment-gateway">
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Anchor component={Link} to={`/settings/payment-gateways/edit/${g.id}`} fw={600}>
                            {g.name}
                          </Anchor>
                          <ModeBadge testMode={g.test_mode} />
                        </Group>
                        <Text size="xs" c="dimmed">
                          Stripe account {g.account_id}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs" ff="monospace">
                          {g.publishable_key}
                        </Text>
                        <Text size="xs" ff="monospace" c="dimmed">
                          {g.secret_key}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{storesOf(g.stores)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <Button size="xs" variant="light" component={Link} to={`/settings/payment-gateways/edit/${g.id}`}>
                            {canEdit ? 'Edit' : 'View'}
                          </Button>
                          {canEdit && (
                            <Button size="xs" color="red" variant="subtle" onClick={() => setDeleting(g)}>
                              Delete
                            </Button>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </PagedListCard>
          {list.data?.data[0] && (
            <Stack gap={4}>
              <Text size="sm" c="dimmed">
                Each of your Stripe accounts sends its payment events to this address (its webhook endpoint in Stripe&apos;s dashboard):
              </Text>
              <WebhookAddress url={list.data.data[0].webhook_url} />
            </Stack>
          )}
          <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
        </>
      )}
      <ConfirmDelete
        item={deleting}
        onClose={() => setDeleting(null)}
        remove={async (id) => (await deletePaymentGateway(api, id)).message}
        queryKey={GATEWAYS_KEY}
        texts={{ text: deleting ? deleteGatewayText(deleting) : '' }}
      />
    </Stack>
  );
}
