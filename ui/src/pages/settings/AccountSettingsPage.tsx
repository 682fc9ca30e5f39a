import { Button, Card, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { api } from '../../api';
import { changePassword, type PasswordChange } from '../../api/account';
import { FormError } from '../../components/FormError';
import { useSessionUser } from '../../session/useSessionUser';
import { applyServerError } from '../auth/formErrors';
import { changePasswordSchema } from '../auth/schemas';

/** `/settings/account`: my account and change password (spec §2.3). */
export function AccountSettingsPage() {
  const user = useSessionUser();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<PasswordChange>({
    mode: 'uncontrolled',
    initialValues: { current_password: '', password: '', password_confirmation: '' },
    validate: schemaResolver(changePasswordSchema, { sync: true }),
  });

  const submit = form.onSubmit(async (values) => {
    setServerError(null);
    try {
      notifications.show({ color: 'green', message: await changePassword(api, values) });
      form.reset();
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    }
  });

  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} fz="h2">
        My account
      </Title>
      <Card withBorder radius="lg" padding="lg">
        <Text fw={600}>{user.name}</Text>
        <Text c="dimmed">{user.email}</Text>
      </Card>
      <Card withBorder radius="lg" padding="lg">
        <Title order={2} fz="h4" mb="md">
          Change password
        </Title>
        <form onSubmit={submit} noValidate aria-label="Change password">
          <Stack gap="sm" maw={420}>
            <PasswordInput label="Current password" autoComplete="current-password" key={form.key('current_password')} {...form.getInputProps('current_password')} />
            <PasswordInput label="New password" autoComplete="new-password" key={form.key('password')} {...form.getInputProps('password')} />
            <PasswordInput label="Confirm new password" autoComplete="new-password" key={form.key('password_confirmation')} {...form.getInputProps('password_confirmation')} />
            <Button type="submit" loading={form.submitting} w="fit-content">
              Change password
            </Button>
            <FormError message={serverError} />
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
