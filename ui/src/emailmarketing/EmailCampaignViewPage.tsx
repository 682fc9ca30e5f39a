import { Alert, Button, Card, Group, Loader, Modal, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, isApiError } from '../api';
import { campaign, deleteCampaign, sendCampaign, type EmailCampaign } from '../api/emailMarketing';
import { confirmText } from '../feedback/confirm';
import { CAMPAIGNS_KEY, previewDocument, sendPercent, STATUS_COLORS } from './campaignSchemas';
import { LabelBadge } from '../components/LabelBadge';
import { CAMPAIGN_STATUS_LABELS } from './labels';

/** How often a sending campaign's progress is read. */
const SEND_POLL_MS = 1000;

const toastError = (error: unknown) =>
  notifications.show({ color: 'red', message: isApiError(error) ? error.message : String(error) });

function Stat({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Text size="xs" c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Text fz="h3" fw={600} data-testid={testId}>
        {value}
      </Text>
    </Card>
  );
}

function DraftActions({ c }: { c: EmailCampaign }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState<'send' | 'delete' | null>(null);
  const del = confirmText();
  const send = useMutation({
    mutationFn: () => sendCampaign(api, c.id),
    onSuccess: ({ message, data }) => {
      notifications.show({ color: 'green', message });
      queryClient.setQueryData([...CAMPAIGNS_KEY, 'one', c.id], data);
      setConfirm(null);
    },
    onError: (e) => {
      setConfirm(null);
      toastError(e);
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteCampaign(api, c.id),
    onSuccess: async ({ message }) => {
      notifications.show({ color: 'green', message });
      await queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
      await navigate('/email-marketing/campaigns');
    },
    onError: toastError,
  });
  return (
    <>
      <Group>
        <Button onClick={() => setConfirm('send')}>Send to subscribers</Button>
        <Button variant="light" component={Link} to={`/email-marketing/campaigns/edit/${c.id}`}>
          Edit
        </Button>
        <Button variant="subtle" color="red" onClick={() => setConfirm('delete')}>
          Delete
        </Button>
      </Group>
      <Modal opened={confirm !== null} onClose={() => setConfirm(null)} title={confirm === 'send' ? 'Send this campaign?' : del.title}>
        <Stack gap="md">
          <Text>
            {confirm === 'send'
              ? `"${c.subject}" goes to every subscribed subscriber of ${c.store_name} now. This cannot be undone.`
              : `${c.name}: ${del.text}`}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(null)}>
              {del.cancelLabel}
            </Button>
            {confirm === 'send' ? (
              <Button loading={send.isPending} onClick={() => send.mutate()}>
                Yes, send it!
              </Button>
            ) : (
              <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
                {del.confirmLabel}
              </Button>
            )}
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** `/email-marketing/campaigns/view/:id`: a campaign's stats, its progress polled while it sends. */
export function EmailCampaignViewPage() {
  const id = Number(useParams().id);
  const current = useQuery({
    queryKey: [...CAMPAIGNS_KEY, 'one', id],
    queryFn: ({ signal }) => campaign(api, id, signal),
    enabled: Number.isInteger(id) && id > 0,
    refetchInterval: (query) => (query.state.data?.status === 'sending' ? SEND_POLL_MS : false),
  });
  if (current.isError) {
    return (
      <Alert color="red" role="alert">
        {isApiError(current.error) ? current.error.message : 'Campaign not found.'}
      </Alert>
    );
  }
  if (!current.data) return <Loader />;
  const c = current.data;
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between">
        <Stack gap={2}>
          <Title order={1} fz="h2">
            {c.name}
          </Title>
          <Text c="dimmed" size="sm">
            {c.store_name} · {c.sender_email || 'no sender'}
          </Text>
        </Stack>
        <LabelBadge size="lg" color={STATUS_COLORS[c.status]} data-testid="campaign-status" code={c.status}>
          {CAMPAIGN_STATUS_LABELS[c.status]}
        </LabelBadge>
      </Group>
      {c.status === 'draft' && <DraftActions c={c} />}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Stat label="Recipients" value={c.recipients} testId="stat-recipients" />
        <Stat label="Sent" value={c.sent} testId="stat-sent" />
        <Stat label="Failed" value={c.failed} testId="stat-failed" />
      </SimpleGrid>
      {c.status !== 'draft' && (
        <Progress value={sendPercent(c)} animated={c.status === 'sending'} aria-label="Send progress" size="lg" />
      )}
      {c.error && (
        <Alert color="red" variant="light">
          {c.error}
        </Alert>
      )}
      <Card withBorder radius="lg" padding="lg">
        <Text fw={500}>{c.subject}</Text>
        {c.preheader && (
          <Text size="sm" c="dimmed">
            {c.preheader}
          </Text>
        )}
        <iframe
          title="Campaign preview"
          sandbox=""
          srcDoc={previewDocument(c.body_html, c.preheader)}
          style={{ width: '100%', minHeight: 420, border: 0, marginTop: 12, background: '#fff' }}
        />
      </Card>
    </Stack>
  );
}
