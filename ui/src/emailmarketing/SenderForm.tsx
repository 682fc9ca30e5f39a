import { Button, Select, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import type { StoreDomain } from '../api/emailMarketing';
import { FormError } from '../components/FormError';
import { applyServerError } from '../pages/auth/formErrors';
import { senderCreateSchema, senderUpdateSchema, type SenderCreateValues } from './schemas';

interface SenderFormProps {
  /** The domains to choose from when creating; absent when renaming (the domain stays). */
  domains?: StoreDomain[];
  /** The domain of the sender being renamed, shown after the username. */
  domain?: string;
  initial?: { username: string; name: string };
  submitLabel: string;
  /** Saves; a rejected ApiError is shown under the form and on its fields. */
  onSubmit: (values: { store_domain_id?: number; username: string; name: string }) => Promise<unknown>;
}

/** Creates a sender (domain, mailbox name, display name) or renames one (mailbox and display name). */
export function SenderForm({ domains, domain, initial, submitLabel, onSubmit }: SenderFormProps) {
  const creating = domains !== undefined;
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<SenderCreateValues>({
    mode: 'controlled',
    initialValues: { store_domain_id: '', username: initial?.username ?? '', name: initial?.name ?? '' },
    validate: schemaResolver(creating ? senderCreateSchema : senderUpdateSchema, { sync: true }),
  });
  const chosen = domains?.find((d) => String(d.id) === form.values.store_domain_id)?.domain ?? domain;
  const submit = form.onSubmit(async (values) => {
    setServerError(null);
    try {
      const { username, name } = senderUpdateSchema.parse(values);
      await onSubmit(creating ? { store_domain_id: Number(values.store_domain_id), username, name } : { username, name });
      if (creating) form.reset();
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label={submitLabel}>
      <Stack gap="sm">
        {creating && (
          <Select
            label="Domain"
            withAsterisk
            data={domains.map((d) => ({ value: String(d.id), label: d.domain }))}
            nothingFoundMessage="No store domains"
            {...form.getInputProps('store_domain_id')}
          />
        )}
        <TextInput
          label="Username"
          withAsterisk
          description={chosen ? `Sends as ${form.values.username.trim() || '…'}@${chosen}` : undefined}
          {...form.getInputProps('username')}
        />
        <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
        <Button type="submit" loading={form.submitting} w="fit-content">
          {submitLabel}
        </Button>
        <FormError message={serverError} />
      </Stack>
    </form>
  );
}
