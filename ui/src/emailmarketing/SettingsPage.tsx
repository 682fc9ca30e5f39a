import { Alert, Button, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, isApiError } from '../api';
import {
  klaviyoSettings,
  latestProfileSync,
  saveKlaviyoSettings,
  startProfileSync,
  type SyncRun,
} from '../api/emailMarketing';
import { AbandonedCard } from './AbandonedCard';
import { KlaviyoForm } from './KlaviyoForm';
import { StorePicker } from './StorePicker';
import { syncPercent, type KlaviyoValues } from './schemas';
import { LabelBadge } from '../components/LabelBadge';
import { SYNC_STATUS_LABELS } from './labels';

/** How often the progress of a running sync is read. */
const SYNC_POLL_MS = 1000;

const open = (run: SyncRun | null | undefined) => run?.status === 'queued' || run?.status === 'running';

function SyncPanel({ storeId, connected }: { storeId: number; connected: boolean }) {
  const queryClient = useQueryClient();
  const key = ['email-marketing', 'sync', storeId];
  const run = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => latestProfileSync(api, storeId, signal),
    refetchInterval: (query) => (open(query.state.data) ? SYNC_POLL_MS : false),
  });
  const start = useMutation({
    mutationFn: () => startProfileSync(api, storeId),
    onSuccess: ({ message, data }) => {
      notifications.show({ color: 'green', message });
      queryClient.setQueryData(key, data);
    },
    onError: (error) => notifications.show({ color: 'red', message: isApiError(error) ? error.message : String(error) }),
  });
  const r = run.data;
  return (
    <Card withBorder radius="lg" padding="lg">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz="h4">
            Profile sync
          </Title>
          <Button onClick={() => start.mutate()} loading={start.isPending} disabled={!connected || open(r)}>
            Sync profiles
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Copies the store&apos;s subscribed subscribers to the Klaviyo list as profiles.
        </Text>
        {r && (
          <Stack gap={4} data-testid="sync-progress">
            <Group gap="xs">
              <LabelBadge color={r.status === 'failed' ? 'red' : r.status === 'done' ? 'green' : 'blue'} code={r.status}>
                {SYNC_STATUS_LABELS[r.status]}
              </LabelBadge>
              <Text size="sm" data-testid="sync-count">
                {r.done} / {r.total} profiles
              </Text>
            </Group>
            <Progress value={syncPercent(r)} animated={open(r)} aria-label="Sync progress" />
            {r.error && (
              <Alert color="red" variant="light">
                {r.error}
              </Alert>
            )}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

function KlaviyoCard({ storeId }: { storeId: number }) {
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['email-marketing', 'klaviyo', storeId],
    queryFn: ({ signal }) => klaviyoSettings(api, storeId, signal),
  });
  const save = async (values: KlaviyoValues) => {
    const { message, data } = await saveKlaviyoSettings(api, storeId, values);
    notifications.show({ color: 'green', message });
    queryClient.setQueryData(['email-marketing', 'klaviyo', storeId], data);
  };
  if (!settings.data) return null;
  const s = settings.data;
  return (
    <>
      <Card withBorder radius="lg" padding="lg">
        <Group justify="space-between" mb="md">
          <Title order={2} fz="h4">
            Klaviyo
          </Title>
          <LabelBadge color={s.connected ? 'green' : 'gray'} data-testid="klaviyo-state">
            {s.connected ? 'Connected' : 'Not connected'}
          </LabelBadge>
        </Group>
        <KlaviyoForm
          key={`${storeId}-${s.updated_at ?? ''}`}
          initial={{ private_key: s.private_key, list_id: s.list_id }}
          onSubmit={save}
        />
      </Card>
      <SyncPanel storeId={storeId} connected={s.connected} />
    </>
  );
}

/**
 * `/email-marketing/settings`: the store's Klaviyo connection, the profile sync with its progress,
 * and the abandoned-checkout e-mails with their coupon.
 */
export function SettingsPage() {
  const [storeId, setStoreId] = useState<number | null>(null);
  return (
    <Stack gap="lg" maw={900}>
      <Title order={1} fz="h2">
        Email Marketing Settings
      </Title>
      <StorePicker value={storeId} onChange={setStoreId} />
      {storeId !== null && <KlaviyoCard storeId={storeId} />}
      {storeId !== null && <AbandonedCard storeId={storeId} />}
    </Stack>
  );
}
