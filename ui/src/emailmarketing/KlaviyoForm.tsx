import { Button, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import { FormError } from '../components/FormError';
import { applyServerError } from '../pages/auth/formErrors';
import { klaviyoSchema, type KlaviyoValues } from './schemas';

interface KlaviyoFormProps {
  /** The stored settings: the masked key and the list, or empty when not connected. */
  initial: KlaviyoValues;
  /** Saves; a rejected ApiError (Klaviyo's refusal) is shown under the form and on its field. */
  onSubmit: (values: KlaviyoValues) => Promise<unknown>;
}

/** The Klaviyo connection: private key and list id, checked by the bff against Klaviyo before saving. */
export function KlaviyoForm({ initial, onSubmit }: KlaviyoFormProps) {
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<KlaviyoValues>({
    mode: 'controlled',
    initialValues: initial,
    validate: schemaResolver(klaviyoSchema, { sync: true }),
  });
  const submit = form.onSubmit(async (values) => {
    setServerError(null);
    try {
      await onSubmit(klaviyoSchema.parse(values));
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Klaviyo connection">
      <Stack gap="sm" maw={480}>
        <TextInput
          label="Private API key"
          description="Klaviyo → Settings → API keys. Stored encrypted; only its last four characters are shown."
          autoComplete="off"
          withAsterisk
          {...form.getInputProps('private_key')}
        />
        <TextInput label="List ID" withAsterisk {...form.getInputProps('list_id')} />
        <Button type="submit" loading={form.submitting} w="fit-content">
          Save
        </Button>
        <FormError message={serverError} />
      </Stack>
    </form>
  );
}
