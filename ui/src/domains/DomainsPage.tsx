import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { formErrorsOf } from '../pages/auth/formErrors';
import { addDomain, checkDomain, domains, removeDomain, type CustomDomain, type DomainStatus } from '../api/domains';
import { can } from '../access/rules';
import { ConfirmDelete } from '../feedback/ConfirmDelete';
import { formatDateTime } from '../format/dateTime';
import { useSessionUser } from '../session/useSessionUser';
import { STORES_KEY } from '../storefronts/keys';
import { LabelBadge } from '../components/LabelBadge';

const DOMAINS_KEY = ['domains'];

/** What each status reads as on screen (the code stays in the tooltip). */
const STATUS: Record<DomainStatus, { label: string; color: string; hint: string }> = {
  pending: { label: 'Waiting for DNS', color: 'yellow', hint: 'Not checked yet: create the record, then check it.' },
  verified: { label: 'Verified', color: 'green', hint: 'The record was found: the store answers on this domain.' },
  failed: { label: 'Not verified', color: 'red', hint: 'The last check did not find the record.' },
};

/** `/domains`: the domains the seller's stores answer on, each proven by a DNS TXT record. */
export function DomainsPage() {
  const user = useSessionUser();
  const canEdit = can(user, 'update_campaign');
  const [removing, setRemoving] = useState<CustomDomain | null>(null);
  const list = useQuery({ queryKey: DOMAINS_KEY, queryFn: ({ signal }) => domains(api, signal) });
  return (
    <Stack gap="lg" maw={1100}>
      <Stack gap={2}>
        <Title order={1} fz="h2">
          Domains
        </Title>
        <Text c="dimmed" size="sm">
          A store can answer on a domain of your own. Add the domain, create the TXT record shown at your DNS provider, then
          check it. Once verified, point the domain at the platform as your operator tells you.
        </Text>
      </Stack>
      {canEdit && <AddDomain />}
      {list.isPending && <Loader aria-label="Loading domains" />}
      {list.isError && <Alert color="red">{list.error.message}</Alert>}
      {list.data?.length === 0 && (
        <Card withBorder padding="lg">
          <Text c="dimmed">No domain yet.</Text>
        </Card>
      )}
      {list.data?.map((d) => (
        <DomainCard key={d.id} domain={d} canEdit={canEdit} onRemove={() => setRemoving(d)} timeZone={user.timezone} />
      ))}
      <ConfirmDelete
        item={removing && { id: removing.id, name: removing.domain }}
        onClose={() => setRemoving(null)}
        remove={async (id) => (await removeDomain(api, id)).message}
        queryKey={DOMAINS_KEY}
      />
    </Stack>
  );
}

function AddDomain() {
  const client = useQueryClient();
  const [store, setStore] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const stores = useQuery({
    queryKey: [...STORES_KEY, 'all'],
    queryFn: ({ signal }) => api.getPage<{ id: number; name: string }>('/seller/stores', { query: { page: 1, per_page: 100 }, signal }),
  });
  const options = (stores.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name }));
  const chosen = store ?? (options.length === 1 ? (options[0]?.value ?? null) : null);
  const add = useMutation({
    mutationFn: () => addDomain(api, { store_id: Number(chosen ?? 0), domain: name }),
    onSuccess: ({ message }) => {
      notifications.show({ color: 'green', message });
      setName('');
      setErrors({});
      return client.invalidateQueries({ queryKey: DOMAINS_KEY });
    },
    onError: (error) => setErrors(formErrorsOf(error)),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate();
  };
  return (
    <Card withBorder padding="lg" component="form" onSubmit={submit} aria-label="Add a domain">
      <Stack gap="sm">
        {errors.form && <Alert color="red">{errors.form}</Alert>}
        <Group align="flex-start" grow>
          <Select
            label="Store"
            placeholder="Choose a store"
            data={options}
            value={chosen}
            onChange={setStore}
            error={errors.store_id}
            nothingFoundMessage="No store yet"
          />
          <TextInput
            label="Domain"
            placeholder="shop.example.com"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.domain}
          />
        </Group>
        <Group justify="flex-end">
          <Button type="submit" leftSection={<IconPlus size={16} />} loading={add.isPending}>
            Add domain
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function Copyable({ label, value }: { label: string; value: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Code style={{ wordBreak: 'break-all' }}>{value}</Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : `Copy the ${label}`} withArrow>
            <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copy the ${label}`}>
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

function DomainCard({
  domain: d,
  canEdit,
  onRemove,
  timeZone,
}: {
  domain: CustomDomain;
  canEdit: boolean;
  onRemove: () => void;
  timeZone: string;
}) {
  const client = useQueryClient();
  const check = useMutation({
    mutationFn: () => checkDomain(api, d.id),
    onSuccess: ({ message, data }) => {
      notifications.show({ color: data.status === 'verified' ? 'green' : 'red', message });
      return client.invalidateQueries({ queryKey: DOMAINS_KEY });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  const status = STATUS[d.status];
  return (
    <Card withBorder padding="lg" data-testid="domain" aria-label={d.domain}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Stack gap={0}>
            <Group gap="xs">
              <Text fw={600} size="lg">
                {d.domain}
              </Text>
              <Tooltip label={`${status.hint} (${d.status})`} withArrow>
                <LabelBadge color={status.color}>
                  {status.label}
                </LabelBadge>
              </Tooltip>
            </Group>
            <Text size="sm" c="dimmed">
              {d.store_name}
              {d.checked_at
                ? ` · last checked ${formatDateTime(d.checked_at, timeZone)}`
                : d.verified_at
                  ? ` · verified ${formatDateTime(d.verified_at, timeZone)}`
                  : ' · not checked yet'}
            </Text>
          </Stack>
          <Group gap="xs" wrap="nowrap">
            {d.status === 'verified' && (
              <Anchor href={`https://${d.domain}/`} target="_blank" rel="noreferrer" size="sm">
                Open store
              </Anchor>
            )}
            {canEdit && (
              <>
                <Button size="xs" variant="light" loading={check.isPending} onClick={() => check.mutate()}>
                  Check now
                </Button>
                <Button size="xs" variant="subtle" color="red" onClick={onRemove}>
                  Remove
                </Button>
              </>
            )}
          </Group>
        </Group>
        {d.check_error && (
          <Alert color={d.status === 'verified' ? 'yellow' : 'red'} variant="light">
            {d.check_error}
          </Alert>
        )}
        <Table withTableBorder verticalSpacing="xs" aria-label={`DNS record for ${d.domain}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={80}>Type</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Value</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>TXT</Table.Td>
              <Table.Td>
                <Copyable label="record name" value={d.record_name} />
              </Table.Td>
              <Table.Td>
                <Copyable label="record value" value={d.record_value} />
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}
