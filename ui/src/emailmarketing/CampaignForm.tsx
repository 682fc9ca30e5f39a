import { Alert, Button, Card, Code, Group, Select, SimpleGrid, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import type { CampaignInput, CampaignPreview, EmailCampaign, MergeField, Sender } from '../api/emailMarketing';
import { FormError } from '../components/FormError';
import { applyServerError } from '../pages/auth/formErrors';
import { campaignSchema, previewDocument, testAddressSchema, UNSUBSCRIBE_PLACEHOLDER, type CampaignValues } from './campaignSchemas';

const STARTER_BODY = `<h1>Hello!</h1>
<p>Write your message here.</p>
<p><a href="${UNSUBSCRIBE_PLACEHOLDER}">Unsubscribe</a></p>`;

interface CampaignFormProps {
  initial?: EmailCampaign;
  senders: Sender[];
  submitLabel: string;
  /** Saves; a rejected ApiError is shown under the form and on its fields. */
  onSubmit: (values: Omit<CampaignInput, 'store_id'>) => Promise<unknown>;
  /** Sends a test copy of the saved campaign; absent until the campaign is saved. */
  onTest?: (email: string) => Promise<unknown>;
  /** The merge fields the subject and body may use. */
  mergeFields: MergeField[];
  /** The server's preview of the subject and body with the merge fields' samples; refuses unknown fields. */
  preview: (input: CampaignPreview, signal: AbortSignal) => Promise<CampaignPreview>;
}

/** How long typing rests before the preview is asked again. */
const PREVIEW_DEBOUNCE_MS = 400;

type PreviewState = { kind: 'ready'; preview: CampaignPreview } | { kind: 'refused'; message: string } | { kind: 'waiting' };

/** The server's preview of subject and body, asked again when they rest for a moment. */
function usePreview(subject: string, body: string, preview: CampaignFormProps['preview']): PreviewState {
  const [restingSubject] = useDebouncedValue(subject, PREVIEW_DEBOUNCE_MS);
  const [restingBody] = useDebouncedValue(body, PREVIEW_DEBOUNCE_MS);
  const [state, setState] = useState<PreviewState>({ kind: 'waiting' });
  useEffect(() => {
    const controller = new AbortController();
    preview({ subject: restingSubject, body_html: restingBody }, controller.signal).then(
      (answer) => setState({ kind: 'ready', preview: answer }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ kind: 'refused', message: applyServerError(error, () => undefined) });
      },
    );
    return () => controller.abort();
  }, [restingSubject, restingBody, preview]);
  return state;
}

/** The merge fields, as the form lists them beside the body. */
function MergeFieldList({ fields }: { fields: MergeField[] }) {
  return (
    <Card withBorder radius="md" padding="sm">
      <Text size="sm" fw={500}>
        Merge fields
      </Text>
      <Text size="xs" c="dimmed" mb="xs">
        Each recipient's own value goes where the subject or body names a field. Write {'{{first_name|there}}'} for a
        word that stands in when a subscriber has no value. Other names are refused when you save.
      </Text>
      <Table withRowBorders={false} verticalSpacing={2} fz="sm" data-testid="merge-fields">
        <Table.Tbody>
          {fields.map((f) => (
            <Table.Tr key={f.name}>
              <Table.Td>
                <Code>{`{{${f.name}}}`}</Code>
              </Table.Td>
              <Table.Td>{f.label}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

/** The campaign form: name, subject, sender, preheader, HTML body with a sandboxed preview, and a test send. */
export function CampaignForm({ initial, senders, submitLabel, onSubmit, onTest, mergeFields, preview }: CampaignFormProps) {
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<CampaignValues>({
    mode: 'controlled',
    initialValues: {
      name: initial?.name ?? '',
      subject: initial?.subject ?? '',
      sender_id: initial?.sender_id ? String(initial.sender_id) : '',
      preheader: initial?.preheader ?? '',
      body_html: initial?.body_html ?? STARTER_BODY,
    },
    validate: schemaResolver(campaignSchema, { sync: true }),
  });
  const shown = usePreview(form.values.subject, form.values.body_html, preview);
  const submit = form.onSubmit(async (values) => {
    setServerError(null);
    try {
      const v = campaignSchema.parse(values);
      await onSubmit({ ...v, sender_id: Number(v.sender_id) });
      form.resetDirty();
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    }
  });
  return (
    <Stack gap="lg">
      <form onSubmit={submit} noValidate aria-label="Campaign">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Stack gap="sm">
            <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
            <TextInput label="Subject" withAsterisk {...form.getInputProps('subject')} />
            <Select
              label="Sender"
              withAsterisk
              data={senders.map((s) => ({ value: String(s.id), label: `${s.name} <${s.email}>` }))}
              nothingFoundMessage="No senders yet: add one under Senders"
              {...form.getInputProps('sender_id')}
            />
            <TextInput
              label="Preheader"
              description="The line inboxes show after the subject."
              {...form.getInputProps('preheader')}
            />
            <Textarea
              label="HTML body"
              withAsterisk
              description={`Put ${UNSUBSCRIBE_PLACEHOLDER} where the unsubscribe link goes; a footer with it is added when missing. The merge fields below work here and in the subject.`}
              rows={16}
              styles={{ input: { fontFamily: 'monospace', fontSize: 13 } }}
              {...form.getInputProps('body_html')}
            />
            <MergeFieldList fields={mergeFields} />
            <Group>
              <Button type="submit" loading={form.submitting}>
                {submitLabel}
              </Button>
            </Group>
            <FormError message={serverError} />
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Preview
            </Text>
            <Text size="xs" c="dimmed">
              With sample values: {mergeFields.map((f) => `${f.name} “${f.sample}”`).join(', ')}.
            </Text>
            {shown.kind === 'refused' && (
              <Alert color="red" variant="light" role="alert" data-testid="preview-refused">
                {shown.message}
              </Alert>
            )}
            {shown.kind === 'ready' && (
              <Text size="sm" data-testid="preview-subject">
                <Text span fw={500}>
                  Subject:
                </Text>{' '}
                {shown.preview.subject}
              </Text>
            )}
            <iframe
              title="Campaign preview"
              sandbox=""
              srcDoc={previewDocument(shown.kind === 'ready' ? shown.preview.body_html : '', form.values.preheader)}
              style={{ width: '100%', minHeight: 480, border: '1px solid var(--mantine-color-default-border)', borderRadius: 8, background: '#fff' }}
            />
          </Stack>
        </SimpleGrid>
      </form>
      {onTest && <TestSend onTest={onTest} dirty={form.isDirty()} />}
    </Stack>
  );
}

function TestSend({ onTest, dirty }: { onTest: (email: string) => Promise<unknown>; dirty: boolean }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const send = async () => {
    const parsed = testAddressSchema.safeParse(email.trim());
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Enter a valid e-mail address for the test.');
      return;
    }
    setError(null);
    setPending(true);
    try {
      await onTest(parsed.data);
    } catch (e) {
      setError(applyServerError(e, () => undefined));
    } finally {
      setPending(false);
    }
  };
  return (
    <Card withBorder radius="lg" padding="lg" maw={520}>
      <Title order={2} fz="h4" mb="xs">
        Send a test
      </Title>
      {dirty && (
        <Text size="sm" c="dimmed" mb="xs">
          The test uses the saved campaign: save your changes first.
        </Text>
      )}
      <Group align="flex-start">
        <TextInput
          aria-label="Test address"
          placeholder="you@example.com"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={error}
          style={{ flex: 1 }}
        />
        <Button variant="light" loading={pending} onClick={() => void send()}>
          Send test
        </Button>
      </Group>
    </Card>
  );
}
