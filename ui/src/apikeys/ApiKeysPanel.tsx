import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  CopyButton,
  Group,
  Modal,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKey, type ApiKeyScope, type CreatedApiKey } from '../api/apiKeys';
import { inAuthorizedAccount, isImpersonated } from '../access';
import { FormError } from '../components/FormError';
import { ConfirmDelete } from '../feedback/ConfirmDelete';
import { formatDateTime } from '../format/dateTime';
import { applyServerError } from '../pages/auth/formErrors';
import { useSessionUser } from '../session/useSessionUser';
import { API_KEYS_KEY, SCOPE_LABELS, scopeNames } from './scopes';
import { LabelBadge } from '../components/LabelBadge';

/** A key's state in words: revoked, expired or active. */
function keyState(key: ApiKey, now: number): { label: string; color: string } {
  if (key.revoked_at) return { label: 'Revoked', color: 'gray' };
  if (key.expires_at && Date.parse(key.expires_at) <= now) return { label: 'Expired', color: 'gray' };
  return { label: 'Active', color: 'green' };
}

/**
 * The seller's API keys: make one (its secret shown once, with a copy button), the list with scopes, expiry and
 * last use, and revocation after a confirmation. A team member working in the account is told only the owner manages
 * keys; an admin acting as the seller sees the list without changing it (as the API decides).
 */
export function ApiKeysPanel() {
  const user = useSessionUser();
  if (inAuthorizedAccount(user)) {
    return (
      <Alert color="yellow" role="alert">
        Only the account owner manages its API keys.
      </Alert>
    );
  }
  return <ApiKeysManager readOnly={isImpersonated(user)} timeZone={user.timezone || 'UTC'} />;
}

function ApiKeysManager({ readOnly, timeZone }: { readOnly: boolean; timeZone: string }) {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: API_KEYS_KEY, queryFn: ({ signal }) => listApiKeys(api, signal) });
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '', scopes: ['store', 'product', 'orders'] as string[], test_mode: false, expires_at: '' },
    validate: {
      name: (v: string) => (v.trim() ? null : 'The name is required.'),
      scopes: (v: string[]) => (v.length ? null : 'Choose at least one scope.'),
    },
  });
  const submit = form.onSubmit(async (values) => {
    setServerError(null);
    try {
      const answer = await createApiKey(api, { ...values, name: values.name.trim(), scopes: values.scopes as ApiKeyScope[] });
      setCreated(answer.data);
      form.reset();
      await queryClient.invalidateQueries({ queryKey: API_KEYS_KEY });
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    }
  });
  // Expiry is judged at the list's reading, so a render never depends on the clock.
  const now = list.dataUpdatedAt;
  const when = (iso: string | null, none: string) => (iso ? formatDateTime(iso, timeZone) : none);

  return (
    <Stack gap="lg">
      <Text maw={720}>
        An API key lets your own software (a shop backend, an order import script) read your stores, campaigns and
        orders through the Pressroom API without your password. Send it as <code>Authorization: Bearer &lt;key&gt;</code>{' '}
        to <code>/api/v1</code>. Each key is shown once when it is made and can be revoked at any time.{' '}
        <Anchor component={Link} to="/settings/api-keys/reference">
          API reference
        </Anchor>
      </Text>
      {readOnly ? (
        <Alert color="blue">You are acting as this seller: only the seller can create or revoke API keys.</Alert>
      ) : (
        <form onSubmit={submit} noValidate aria-label="New API key">
          <Stack gap="sm" maw={620}>
            <Title order={2} fz="h4">
              New API key
            </Title>
            <FormError message={serverError} />
            <TextInput label="Name" placeholder="Shop backend" maxLength={100} withAsterisk {...form.getInputProps('name')} />
            <Checkbox.Group label="Scopes" withAsterisk {...form.getInputProps('scopes')}>
              <Stack gap={6} mt="xs">
                {(list.data?.scopes ?? (Object.keys(SCOPE_LABELS) as ApiKeyScope[])).map((s) => (
                  <Checkbox key={s} value={s} label={SCOPE_LABELS[s].label} description={SCOPE_LABELS[s].description} />
                ))}
              </Stack>
            </Checkbox.Group>
            <TextInput
              type="date"
              label="Expires on"
              description="Leave empty for a key that does not expire."
              {...form.getInputProps('expires_at')}
            />
            <Switch
              label="Test mode"
              description="Marks the key as one for trying out an integration; its secret starts with prk_test_."
              {...form.getInputProps('test_mode', { type: 'checkbox' })}
            />
            <Group>
              <Button type="submit" loading={form.submitting}>
                Create API key
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      <Title order={2} fz="h4">
        Your API keys
      </Title>
      {list.isSuccess && list.data.keys.length === 0 ? (
        <Text c="dimmed">No API keys yet.</Text>
      ) : (
        <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="API keys">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Key</Table.Th>
              <Table.Th>Scopes</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data?.keys.map((k) => {
              const state = keyState(k, now);
              return (
                <Table.Tr key={k.id} data-testid="api-key">
                  <Table.Td>
                    <Text fw={500}>{k.name}</Text>
                    {k.test_mode && (
                      <LabelBadge size="sm" color="orange">
                        Test mode
                      </LabelBadge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text ff="monospace" size="sm">
                      {k.prefix}…
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{scopeNames(k.scopes)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{when(k.expires_at, 'Never')}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{when(k.last_used_at, 'Not used yet')}</Text>
                  </Table.Td>
                  <Table.Td>
                    <LabelBadge color={state.color}>
                      {state.label}
                    </LabelBadge>
                  </Table.Td>
                  <Table.Td>
                    {!readOnly && !k.revoked_at && (
                      <Button size="xs" color="red" variant="subtle" onClick={() => setRevoking(k)}>
                        Revoke
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      <Modal opened={created !== null} onClose={() => setCreated(null)} title="Your new API key" size="lg">
        <Stack gap="md">
          <Alert color="yellow">Copy the secret now and keep it safe: Pressroom does not show it again.</Alert>
          <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }} data-testid="api-key-secret">
            {created?.secret}
          </Text>
          <Group justify="flex-end">
            <CopyButton value={created?.secret ?? ''}>
              {({ copied, copy }) => (
                <Button variant="light" color={copied ? 'green' : undefined} onClick={copy}>
                  {copied ? 'Copied' : 'Copy secret'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={() => setCreated(null)}>Done</Button>
          </Group>
        </Stack>
      </Modal>
      <ConfirmDelete
        item={revoking}
        onClose={() => setRevoking(null)}
        remove={async (id) => (await revokeApiKey(api, id)).message}
        queryKey={API_KEYS_KEY}
        texts={{
          text: 'programs using this key stop working at once. You cannot undo this.',
          confirmLabel: 'Yes, revoke it',
        }}
      />
    </Stack>
  );
}
