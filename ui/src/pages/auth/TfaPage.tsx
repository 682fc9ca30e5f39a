import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api';
import { tfaVerify } from '../../api/account';
import { AuthCard } from '../../components/AuthCard';
import { FormError } from '../../components/FormError';
import { meQuery } from '../../session/queries';
import { HOME_PATH, LOGOUT_PATH } from '../../session/redirects';
import { applyServerError } from './formErrors';

/** `/auth/tfa`: the second factor of a session with two-factor enabled (a TOTP code or a recovery code). */
export function TfaPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [recovery, setRecovery] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { code: '' },
    validate: {
      code: (value: string) =>
        recovery
          ? value.trim() === ''
            ? 'Enter one of your recovery codes.'
            : null
          : /^\d{6}$/.test(value.trim())
            ? null
            : 'Enter the 6-digit code from your authenticator app.',
    },
  });

  const submit = form.onSubmit(async ({ code }) => {
    setServerError(null);
    try {
      await tfaVerify(api, recovery ? { recovery_code: code.trim() } : { code: code.trim() });
      await queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
      await navigate(HOME_PATH, { replace: true });
    } catch (error) {
      setServerError(applyServerError(error, (errors) => form.setErrors(errors)));
    }
  });

  return (
    <AuthCard
      title="Two-factor authentication"
      subtitle={
        recovery
          ? 'Enter one of the recovery codes you saved when you turned two-factor on. Each works once.'
          : 'Enter the 6-digit code from your authenticator app.'
      }
    >
      <form onSubmit={submit} noValidate aria-label="Two-factor code">
        <Stack gap="md">
          <TextInput
            label={recovery ? 'Recovery code' : 'Authentication code'}
            autoComplete="one-time-code"
            inputMode={recovery ? 'text' : 'numeric'}
            maxLength={recovery ? 20 : 6}
            data-autofocus
            key={form.key('code')}
            {...form.getInputProps('code')}
          />
          <Button type="submit" fullWidth loading={form.submitting}>
            Verify
          </Button>
          <FormError message={serverError} />
        </Stack>
      </form>
      <Anchor
        component="button"
        type="button"
        size="sm"
        onClick={() => {
          setRecovery(!recovery);
          form.reset();
          setServerError(null);
        }}
      >
        {recovery ? 'Use a code from the app' : 'Use a recovery code'}
      </Anchor>
      <Anchor component={Link} to={LOGOUT_PATH} size="sm" ta="center">
        Sign out
      </Anchor>
    </AuthCard>
  );
}
