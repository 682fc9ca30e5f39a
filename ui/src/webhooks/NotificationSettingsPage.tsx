import {
  Alert,
  Button,
  Card,
  Checkbox,
  Code,
  Group,
  Modal,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { formErrorsOf } from '../pages/auth/formErrors';
import {
  deliveryAttempts,
  endpointDeliveries,
  listEndpoints,
  removeEndpoint,
  replayDelivery,
  saveEndpoint,
  sendTest,
  type Delivery,
  type Endpoint,
  type EndpointInput,
  type EndpointKind,
} from '../api/webhooks';
import { ListPager, PagedListCard } from '../components/PagedList';
import { formatDateTime } from '../format/dateTime';
import { plural } from '../format/plural';
import { useSessionUser } from '../session/useSessionUser';
import { LabelBadge } from '../components/LabelBadge';

const ENDPOINTS_KEY = ['notification-endpoints'];
const DELIVERIES_KEY = ['notification-deliveries'];

const KIND_LABELS: Record<EndpointKind, string> = {
  custom: 'Webhook',
  slack: 'Slack',
  discord: 'Discord',
  ms_teams: 'Microsoft Teams',
  telegram: 'Telegram',
};

const EVENT_LABELS: Record<string, string> = {
  'order.created': 'Order created',
  'order.tracking_changed': 'Order tracking changed',
  'order.status_changed': 'Order status changed',
  'webhook.test': 'Test message',
};

const STATUS: Record<Delivery['status'], { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'yellow' },
  succeeded: { label: 'Delivered', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
};

const URL_HINTS: Record<Exclude<EndpointKind, 'telegram'>, string> = {
  custom: 'Your server receives each event as signed JSON (see the signing secret once saved).',
  slack: 'An incoming webhook address from your Slack workspace, https://hooks.slack.com/…',
  discord: 'A channel webhook address from Discord, https://discord.com/api/webhooks/…',
  ms_teams: 'An incoming webhook address from your Teams channel.',
};

/** `/settings/notification`: the seller's webhook endpoints and chat channels, each with its delivery log. */
export function NotificationSettingsPage() {
  const [editing, setEditing] = useState<Endpoint | 'new' | null>(null);
  const [logOf, setLogOf] = useState<Endpoint | null>(null);
  const client = useQueryClient();
  const list = useQuery({ queryKey: ENDPOINTS_KEY, queryFn: ({ signal }) => listEndpoints(api, signal) });
  const remove = useMutation({
    mutationFn: (id: number) => removeEndpoint(api, id),
    onSuccess: (_, id) => {
      notifications.show({ message: 'The endpoint was deleted.' });
      if (logOf?.id === id) setLogOf(null);
      return client.invalidateQueries({ queryKey: ENDPOINTS_KEY });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  const test = useMutation({
    mutationFn: (e: Endpoint) => sendTest(api, e.id),
    onSuccess: (_, e) => {
      notifications.show({ message: 'A test message will be sent in a moment.' });
      setLogOf(e);
      return client.invalidateQueries({ queryKey: DELIVERIES_KEY });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz="h2">
            Notification settings
          </Title>
          <Text c="dimmed" size="sm">
            Send your order events to your own systems (signed webhooks) or to Slack, Discord, Microsoft Teams and Telegram.
          </Text>
        </Stack>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          Add endpoint
        </Button>
      </Group>
      {list.isError && <Alert color="red">{list.error.message}</Alert>}
      {list.data && list.data.length === 0 && (
        <Card withBorder radius="lg" padding="lg">
          <Text c="dimmed">No endpoints yet. Add one to receive your order events.</Text>
        </Card>
      )}
      {list.data && list.data.length > 0 && (
        <Card withBorder radius="lg" padding={0}>
          <Table verticalSpacing="sm" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Endpoint</Table.Th>
                <Table.Th>Events</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((e) => (
                <Table.Tr key={e.id} data-testid="endpoint">
                  <Table.Td>
                    <Text fw={600}>{e.name || KIND_LABELS[e.kind]}</Text>
                    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                      {KIND_LABELS[e.kind]} · {e.kind === 'telegram' ? `chat ${e.chat_id}` : e.url}
                    </Text>
                    {e.kind === 'custom' && (
                      <Text size="xs" c="dimmed">
                        Signing secret: <Code style={{ wordBreak: 'break-all' }}>{e.secret}</Code>
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={2}>
                      {e.events.map((ev) => (
                        <Text key={ev} size="sm">
                          {EVENT_LABELS[ev] ?? ev}
                        </Text>
                      ))}
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    {e.enabled ? (
                      <LabelBadge color="green">
                        On
                      </LabelBadge>
                    ) : (
                      <Stack gap={2}>
                        <LabelBadge color="gray">
                          Off
                        </LabelBadge>
                        {e.disabled_reason && (
                          <Text size="xs" c="red">
                            {e.disabled_reason}
                          </Text>
                        )}
                      </Stack>
                    )}
                  </Table.Td>
                  <Table.Td w={220}>
                    <Group gap={4} justify="flex-end">
                      <Button size="xs" variant="subtle" loading={test.isPending && test.variables?.id === e.id} onClick={() => test.mutate(e)}>
                        Send test
                      </Button>
                      <Button size="xs" variant="subtle" onClick={() => setLogOf(e)}>
                        Delivery log
                      </Button>
                      <Button size="xs" variant="subtle" onClick={() => setEditing(e)}>
                        Edit
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        loading={remove.isPending && remove.variables === e.id}
                        onClick={() => remove.mutate(e.id)}
                      >
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      )}
      {logOf && <DeliveryLog key={logOf.id} endpoint={logOf} />}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? 'Add endpoint' : 'Edit endpoint'} size="lg">
        {editing !== null && <EndpointForm endpoint={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Modal>
    </Stack>
  );
}

function EndpointForm({ endpoint, onDone }: { endpoint: Endpoint | null; onDone: () => void }) {
  const client = useQueryClient();
  const [input, setInput] = useState<EndpointInput>(() => ({
    kind: endpoint?.kind ?? 'custom',
    name: endpoint?.name ?? '',
    url: endpoint?.url ?? '',
    bot_token: endpoint?.bot_token ?? '',
    chat_id: endpoint?.chat_id ?? '',
    events: endpoint?.events ?? ['order.created', 'order.tracking_changed', 'order.status_changed'],
    enabled: endpoint?.enabled ?? true,
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (patch: Partial<EndpointInput>) => setInput((i) => ({ ...i, ...patch }));
  const save = useMutation({
    mutationFn: () => saveEndpoint(api, endpoint?.id ?? null, input),
    onSuccess: () => {
      notifications.show({ message: endpoint ? 'The endpoint was saved.' : 'The endpoint was added.' });
      onDone();
      return client.invalidateQueries({ queryKey: ENDPOINTS_KEY });
    },
    onError: (error) => setErrors(formErrorsOf(error)),
  });
  return (
    <Stack>
      {errors.form && <Alert color="red">{errors.form}</Alert>}
      <Select
        label="Channel"
        data={(Object.keys(KIND_LABELS) as EndpointKind[]).map((k) => ({ value: k, label: KIND_LABELS[k] }))}
        value={input.kind}
        onChange={(v) => v && set({ kind: v })}
        allowDeselect={false}
        error={errors.kind}
      />
      <TextInput label="Name" description="Optional, to tell your endpoints apart." value={input.name} onChange={(e) => set({ name: e.currentTarget.value })} error={errors.name} />
      {input.kind === 'telegram' ? (
        <>
          <TextInput
            label="Bot token"
            description="From @BotFather, like 123456:ABC-DEF…"
            value={input.bot_token}
            onChange={(e) => set({ bot_token: e.currentTarget.value })}
            error={errors.bot_token}
          />
          <TextInput
            label="Chat id"
            description="The chat's number, or @channelname for a public channel."
            value={input.chat_id}
            onChange={(e) => set({ chat_id: e.currentTarget.value })}
            error={errors.chat_id}
          />
        </>
      ) : (
        <TextInput label="URL" description={URL_HINTS[input.kind]} value={input.url} onChange={(e) => set({ url: e.currentTarget.value })} error={errors.url} />
      )}
      <Checkbox.Group label="Events" value={input.events} onChange={(events) => set({ events })} error={errors.events}>
        <Stack gap={6} mt={6}>
          {['order.created', 'order.tracking_changed', 'order.status_changed'].map((ev) => (
            <Checkbox key={ev} value={ev} label={EVENT_LABELS[ev]} />
          ))}
        </Stack>
      </Checkbox.Group>
      <Switch label="On" checked={input.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button loading={save.isPending} onClick={() => save.mutate()}>
          Save endpoint
        </Button>
      </Group>
    </Stack>
  );
}

function DeliveryLog({ endpoint }: { endpoint: Endpoint }) {
  const user = useSessionUser();
  const client = useQueryClient();
  const [page, setPage] = useState(1);
  const [tries, setTries] = useState<Delivery | null>(null);
  const list = useQuery({
    queryKey: [...DELIVERIES_KEY, endpoint.id, page],
    queryFn: ({ signal }) => endpointDeliveries(api, endpoint.id, page, signal),
    // While a delivery waits, the log follows it.
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === 'pending') ? 2000 : false),
  });
  const replay = useMutation({
    mutationFn: (d: Delivery) => replayDelivery(api, endpoint.id, d.id),
    onSuccess: () => {
      notifications.show({ message: 'The delivery will be sent again in a moment.' });
      return client.invalidateQueries({ queryKey: DELIVERIES_KEY });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  return (
    <Stack gap="sm" data-testid="delivery-log">
      <Title order={2} fz="h4">
        Delivery log: {endpoint.name || KIND_LABELS[endpoint.kind]}
      </Title>
      <PagedListCard list={list} loadingLabel="Loading deliveries">
        {(rows) => (
          <Table verticalSpacing="xs" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Event</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Last answer</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((d) => (
                <Table.Tr key={d.id} data-testid="delivery">
                  <Table.Td>
                    {EVENT_LABELS[d.event_type] ?? d.event_type}
                    {d.event_id !== null && (
                      <Text size="xs" c="dimmed">
                        evt_{d.event_id}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{formatDateTime(d.created_at, user.timezone)}</Table.Td>
                  <Table.Td>
                    <LabelBadge color={STATUS[d.status].color}>
                      {STATUS[d.status].label}
                    </LabelBadge>
                    <Text size="xs" c="dimmed">
                      {plural(d.attempts, 'try', 'tries')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{d.last_status !== null ? `HTTP ${d.last_status}` : d.attempts > 0 ? 'No answer' : '—'}</Text>
                    {d.last_error && d.last_status === null && (
                      <Text size="xs" c="red" lineClamp={2}>
                        {d.last_error}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="subtle" onClick={() => setTries(d)} disabled={d.attempts === 0}>
                        Tries
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        loading={replay.isPending && replay.variables?.id === d.id}
                        disabled={d.status === 'pending'}
                        onClick={() => replay.mutate(d)}
                      >
                        Replay
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
              {rows.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Text c="dimmed">Nothing sent to this endpoint yet.</Text>
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        )}
      </PagedListCard>
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
      <Modal opened={tries !== null} onClose={() => setTries(null)} title="Tries of this delivery" size="xl">
        {tries && <Tries endpoint={endpoint} delivery={tries} />}
      </Modal>
    </Stack>
  );
}

function Tries({ endpoint, delivery }: { endpoint: Endpoint; delivery: Delivery }) {
  const user = useSessionUser();
  const tries = useQuery({
    queryKey: [...DELIVERIES_KEY, endpoint.id, 'tries', delivery.id],
    queryFn: ({ signal }) => deliveryAttempts(api, endpoint.id, delivery.id, signal),
  });
  if (tries.isError) return <Alert color="red">{tries.error.message}</Alert>;
  return (
    <Table verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Time</Table.Th>
          <Table.Th>Answer</Table.Th>
          <Table.Th>Took</Table.Th>
          <Table.Th>Body (first kilobyte)</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {(tries.data ?? []).map((a) => (
          <Table.Tr key={a.id}>
            <Table.Td>{formatDateTime(a.attempted_at, user.timezone)}</Table.Td>
            <Table.Td>{a.status_code !== null ? `HTTP ${a.status_code}` : a.error}</Table.Td>
            <Table.Td>{a.latency_ms} ms</Table.Td>
            <Table.Td>
              <Code block style={{ maxHeight: 120, overflow: 'auto', whiteSpace: 'pre-wrap' }}>
                {a.response || '(empty)'}
              </Code>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
