import { Alert, Button, Card, Group, Loader, Modal, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, isApiError } from '../api';
import {
  confirmPaymentAccount,
  deletePaymentAccount,
  makeDefaultAccount,
  paymentAccounts,
  payoutMethods,
  resendConfirmation,
  savePaymentAccount,
  type MethodField,
  type PaymentAccount,
  type PayoutMethod,
  type PayoutMethodForm,
} from '../api/paymentAccounts';
import { can } from '../access/rules';
import { LabelBadge } from '../components/LabelBadge';
import { ConfirmDelete } from '../feedback/ConfirmDelete';
import { formatDateTime } from '../format/dateTime';
import { formErrorsOf } from '../pages/auth/formErrors';
import { useSessionUser } from '../session/useSessionUser';
import { systemConfigsQuery } from '../systemconfig/systemConfigs';
import { ACCOUNT_STATUS, ACCOUNTS_KEY } from './model';

/** Spends the confirmation link the page was opened with (`?token=`), once, and says how it went. */
function useConfirmLink(): { message: string; ok: boolean } | null {
  const [params, setParams] = useSearchParams();
  const token = params.get('token');
  const client = useQueryClient();
  const spent = useRef<string | null>(null);
  const [result, setResult] = useState<{ message: string; ok: boolean } | null>(null);
  const confirm = useMutation({
    mutationFn: (t: string) => confirmPaymentAccount(api, t),
    onSuccess: ({ message }) => {
      setResult({ message, ok: true });
      void client.invalidateQueries({ queryKey: ACCOUNTS_KEY });
    },
    onError: (e) => setResult({ message: isApiError(e) ? e.message : String(e), ok: false }),
  });
  useEffect(() => {
    if (!token || spent.current === token) return;
    spent.current = token;
    confirm.mutate(token);
    setParams({}, { replace: true });
  }, [token, confirm, setParams]);
  return result;
}

/** `/settings/payment-account`: where the seller's payouts go, each account confirmed from an e-mailed link. */
export function PaymentAccountsPage() {
  const user = useSessionUser();
  const allowed = can(user, 'update_payments');
  const confirmed = useConfirmLink();
  const client = useQueryClient();
  const [editing, setEditing] = useState<PaymentAccount | 'new' | null>(null);
  const [deleting, setDeleting] = useState<PaymentAccount | null>(null);
  const list = useQuery({ queryKey: ACCOUNTS_KEY, queryFn: ({ signal }) => paymentAccounts(api, signal), enabled: allowed });
  const methods = useQuery({ queryKey: [...ACCOUNTS_KEY, 'methods'], queryFn: ({ signal }) => payoutMethods(api, signal), enabled: allowed });
  const act = useMutation({
    mutationFn: async ({ kind, id }: { kind: 'default' | 'resend'; id: number }) =>
      (kind === 'default' ? await makeDefaultAccount(api, id) : await resendConfirmation(api, id)).message,
    onSuccess: (message) => {
      notifications.show({ color: 'green', message });
      void client.invalidateQueries({ queryKey: ACCOUNTS_KEY });
    },
    onError: (e) => notifications.show({ color: 'red', message: isApiError(e) ? e.message : String(e) }),
  });
  return (
    <Stack gap="lg" maw={1000}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz="h2">
            Payment Accounts
          </Title>
          <Text c="dimmed" size="sm">
            Where your payouts go. A new or changed account is confirmed from the link we e-mail you; payouts go only to confirmed accounts.
          </Text>
        </Stack>
        {allowed && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            Add account
          </Button>
        )}
      </Group>
      {confirmed && (
        <Alert color={confirmed.ok ? 'green' : 'red'} data-testid="confirm-result">
          {confirmed.message}
        </Alert>
      )}
      {!allowed && (
        <Alert color="gray" title="Payment accounts are not available here">
          Managing payment accounts needs the permission to manage payment accounts. Ask the account owner for it.
        </Alert>
      )}
      {allowed && list.isPending && <Loader aria-label="Loading payment accounts" />}
      {list.isError && <Alert color="red">{list.error.message}</Alert>}
      {list.data?.length === 0 && <Text c="dimmed">You have no payment account yet. Add one to be paid.</Text>}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {list.data?.map((a) => (
          <Card key={a.id} withBorder radius="lg" padding="lg" data-testid="payment-account">
            <Stack gap="xs">
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <Stack gap={0}>
                  <Text fw={600}>{a.method_label}</Text>
                  <Text size="sm">{a.label}</Text>
                </Stack>
                <Group gap={6} wrap="nowrap">
                  {a.is_default && (
                    <LabelBadge color="blue" code="default">
                      Default
                    </LabelBadge>
                  )}
                  <LabelBadge color={ACCOUNT_STATUS[a.status].color} code={a.status}>
                    {ACCOUNT_STATUS[a.status].label}
                  </LabelBadge>
                </Group>
              </Group>
              <AccountFields account={a} methods={methods.data ?? []} />
              {a.status === 'new' && a.confirm_sent_at && (
                <Text size="xs" c="dimmed">
                  We e-mailed a confirmation link to {user.email} on {formatDateTime(a.confirm_sent_at, user.timezone)}.
                </Text>
              )}
              {a.status === 'invalid' && (
                <Alert color="red" p="xs">
                  {a.status_note} Change its details to confirm it again.
                </Alert>
              )}
              <Group gap="xs">
                {a.status === 'valid' && !a.is_default && (
                  <Button size="xs" variant="light" onClick={() => act.mutate({ kind: 'default', id: a.id })}>
                    Make default
                  </Button>
                )}
                {a.status === 'new' && (
                  <Button size="xs" variant="light" onClick={() => act.mutate({ kind: 'resend', id: a.id })}>
                    Send a new link
                  </Button>
                )}
                <Button size="xs" variant="subtle" onClick={() => setEditing(a)}>
                  Edit
                </Button>
                <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(a)}>
                  Delete
                </Button>
              </Group>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? 'Add a payment account' : 'Change the payment account'} size="lg">
        {editing !== null && methods.data && (
          <AccountForm existing={editing === 'new' ? undefined : editing} methods={methods.data} onDone={() => setEditing(null)} />
        )}
      </Modal>
      <ConfirmDelete
        item={deleting && { id: deleting.id, name: deleting.label }}
        onClose={() => setDeleting(null)}
        remove={async (id) => (await deletePaymentAccount(api, id)).message}
        queryKey={ACCOUNTS_KEY}
      />
    </Stack>
  );
}

/** An account's fields as the method names them (sensitive ones masked). */
function AccountFields({ account, methods }: { account: PaymentAccount; methods: readonly PayoutMethodForm[] }) {
  const fields = methods.find((m) => m.code === account.method)?.fields ?? [];
  return (
    <Stack gap={0}>
      {fields
        .filter((f) => account.fields[f.name])
        .map((f) => (
          <Text key={f.name} size="xs" c="dimmed">
            {f.label}: {account.fields[f.name]}
          </Text>
        ))}
    </Stack>
  );
}

/** The form of an account: its method, then that method's fields. */
function AccountForm({ existing, methods, onDone }: { existing?: PaymentAccount; methods: readonly PayoutMethodForm[]; onDone: () => void }) {
  const client = useQueryClient();
  const [method, setMethod] = useState<PayoutMethod>(existing?.method ?? 'bank');
  const [values, setValues] = useState<Record<string, string>>(() => {
    const sensitive = new Set(methods.find((m) => m.code === existing?.method)?.fields.filter((f) => f.sensitive).map((f) => f.name));
    return Object.fromEntries(Object.entries(existing?.fields ?? {}).filter(([name]) => !sensitive.has(name)));
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const form = methods.find((m) => m.code === method);
  const save = useMutation({
    mutationFn: () => {
      const fields = Object.fromEntries((form?.fields ?? []).map((f) => [f.name, (values[f.name] ?? '').trim()]));
      return savePaymentAccount(api, existing?.id ?? null, { method, fields });
    },
    onSuccess: async ({ message }) => {
      notifications.show({ color: 'green', message, autoClose: 8000 });
      await client.invalidateQueries({ queryKey: ACCOUNTS_KEY });
      onDone();
    },
    onError: (error) => setErrors(formErrorsOf(error)),
  });
  return (
    <form
      aria-label="Payment account"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        {errors.form && <Alert color="red">{errors.form}</Alert>}
        <Select
          label="Payout method"
          data={methods.map((m) => ({ value: m.code, label: m.label }))}
          value={method}
          onChange={(v) => v && setMethod(v)}
          allowDeselect={false}
          disabled={existing !== undefined}
          error={errors.method}
        />
        {form?.fields.map((f) => (
          <FieldInput
            key={f.name}
            field={f}
            value={values[f.name] ?? ''}
            stored={f.sensitive ? existing?.fields[f.name] : undefined}
            onChange={(v) => setValues((all) => ({ ...all, [f.name]: v }))}
            error={errors[`fields.${f.name}`]}
          />
        ))}
        <Text size="xs" c="dimmed">
          We e-mail you a link to confirm the account; payouts go to it once you have opened it.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {existing ? 'Save and confirm again' : 'Add account'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** One field: the country list for a country, else a text input (a stored sensitive value stays unless retyped). */
function FieldInput({
  field,
  value,
  stored,
  onChange,
  error,
}: {
  field: MethodField;
  value: string;
  stored?: string;
  onChange: (v: string) => void;
  error?: string;
}) {
  const configs = useQuery({ ...systemConfigsQuery, enabled: field.kind === 'country' });
  if (field.kind === 'country') {
    return (
      <Select
        label={field.label}
        withAsterisk={field.required}
        searchable
        data={(configs.data?.countries ?? []).map((c) => ({ value: c.code, label: c.name }))}
        value={value || null}
        onChange={(v) => onChange(v ?? '')}
        error={error}
        nothingFoundMessage="No country found"
      />
    );
  }
  return (
    <TextInput
      label={field.label}
      description={stored ? `Stored: ${stored}. Leave empty to keep it.` : field.description || undefined}
      withAsterisk={field.required && !stored}
      type={field.kind === 'email' ? 'email' : 'text'}
      autoComplete="off"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
    />
  );
}
