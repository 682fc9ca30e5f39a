import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { isApiError } from '../api';
import type { Credentials } from '../api/auth';
import { loginSchema } from './loginSchema';


interface LoginFormProps {
  /** Signs in; a rejected ApiError is shown under the form (and its field errors on a 422). */
  onSubmit: (credentials: Credentials) => Promise<unknown>;
}

const fallbackMessage = 'Something went wrong. Please try again.';

export function LoginForm({ onSubmit }: LoginFormProps) {
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<Credentials>({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: schemaResolver(loginSchema, { sync: true }),
  });

  const submit = form.onSubmit(async (values) => {
    setServerError(null);
    try {
      await onSubmit({ email: values.email.trim(), password: values.password });
    } catch (error) {
      if (!isApiError(error)) {
        setServerError(fallbackMessage);
        return;
      }
      if (error.status === 422) {
        form.setErrors(Object.fromEntries(error.fieldErrors.flatMap((e) => (e.field ? [[e.field, e.message]] : []))));
      }
      setServerError(error.message);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Sign in">
      <Stack gap="md">
        <TextInput
          label="Email"
          placeholder="you@example.com"
          type="email"
          autoComplete="username"
          withAsterisk
          key={form.key('email')}
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label="Password"
          placeholder="Your password"
          autoComplete="current-password"
          withAsterisk
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <Button type="submit" fullWidth loading={form.submitting} mt="xs">
          Sign in
        </Button>
        {serverError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {serverError}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
