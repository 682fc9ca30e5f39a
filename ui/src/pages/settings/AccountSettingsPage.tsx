import { Button, Card, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { api } from '../../api';
import { changeEmail, changePassword, type EmailChange, type PasswordChange } from '../../api/account';
import { FormError } from '../../components/FormError';
import { useSessionUser } from '../../session/useSessionUser';
import { applyServerError } from '../auth/formErrors';
import { changeEmailSchema, changePasswordSchema } from '../auth/schemas';

/** The change of address: the confirmation link goes to the new address, which changes when it is opened. */
function ChangeEmailCard() {
  const [serverError, setServerError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const form = useForm<EmailChange>({
    mode: 'uncontrolled',
    initialValues: { email: '', current_password: '' },
    validate: schemaResolver(changeEmailSchema, { sync: true }),
  });
  const submit = form.onSubmit(async (values) => {
    setServerError(null);
    setSent(null);
    try {
      setSent(await changeEmail(api, values));
      form.reset();
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    }
  });
  return (
    <Card withBorder radius="lg" padding="lg">
      <Title order={2} fz="h4" mb="md">
        Change email address
      </Title>
      <form onSubmit={submit} noValidate aria-label="Change email address">
        <Stack gap="sm" maw={420}>
          <TextInput label="New email address" type="email" autoComplete="email" key={form.key('email')} {...form.getInputProps('email')} />
          <PasswordInput label="Current password" autoComplete="current-password" key={form.key('current_password')} {...form.getInputProps('current_password')} />
          <Button type="submit" loading={form.submitting} w="fit-content">
            Send confirmation link
          </Button>
          {sent && (
            <Text size="sm" c="green" role="status">
              {sent}
            </Text>
          )}
          <FormError message={serverError} />
        </Stack>
      </form>
    </Card>
  );
}

/** `/settings/account`: my account, change password and change e-mail address. */
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
      <ChangeEmailCard />
    </Stack>
  );
}
