import { Anchor, Button, PasswordInput, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api';
import { resetPassword } from '../../api/account';
import { AuthCard } from '../../components/AuthCard';
import { FormError } from '../../components/FormError';
import { LOGIN_PATH } from '../../session/redirects';
import { applyServerError } from './formErrors';
import { resetSchema } from './schemas';

/** `/auth/reset-password?token=`: spends the e-mailed link and sets a new password. */
export function ResetPasswordPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const token = search.get('token') ?? '';
  const [serverError, setServerError] = useState<string | null>(
    token ? null : 'This password reset link is invalid or has expired.',
  );
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { password: '', password_confirmation: '' },
    validate: schemaResolver(resetSchema, { sync: true }),
  });

  const submit = form.onSubmit(async (values) => {
    setServerError(null);
    try {
      const message = await resetPassword(api, { token, ...values });
      notifications.show({ color: 'green', title: 'Password reset', message });
      await navigate(LOGIN_PATH, { replace: true });
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    }
  });

  return (
    <AuthCard title="Choose a new password" subtitle="The link works once; all your other sessions end.">
      <form onSubmit={submit} noValidate aria-label="Reset password">
        <Stack gap="md">
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            withAsterisk
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            withAsterisk
            key={form.key('password_confirmation')}
            {...form.getInputProps('password_confirmation')}
          />
          <Button type="submit" fullWidth loading={form.submitting} disabled={!token}>
            Reset password
          </Button>
          <FormError message={serverError} />
        </Stack>
      </form>
      <Anchor component={Link} to="/auth/forgot-password" size="sm" ta="center">
        Send a new link
      </Anchor>
    </AuthCard>
  );
}
