import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api';
import { loginAsSeller } from '../../api/account';
import { AuthCard } from '../../components/AuthCard';
import { FormError } from '../../components/FormError';
import { HOME_PATH } from '../../session/redirects';
import { applyServerError } from './formErrors';
import { forgotSchema } from './schemas';

/**
 * `/auth/login-as-seller`: an admin signs in as a seller (impersonation). The new session acts as
 * the seller with access_user set; every request it makes is audited, and password, e-mail and
 * two-factor changes are refused. Signing out ends it.
 */
export function LoginAsSellerPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '' },
    validate: schemaResolver(forgotSchema, { sync: true }),
  });

  const submit = form.onSubmit(async ({ email }) => {
    setServerError(null);
    try {
      const token = await loginAsSeller(api, email.trim());
      api.tokens.set(token.access_token);
      queryClient.clear();
      await navigate(HOME_PATH, { replace: true });
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    }
  });

  return (
    <AuthCard title="Sign in as a seller" subtitle="Admins only. Everything you do as the seller is audited.">
      <Alert color="yellow" variant="light">
        Password, e-mail and two-factor changes are refused while you act as the seller.
      </Alert>
      <form onSubmit={submit} noValidate aria-label="Sign in as a seller">
        <Stack gap="md">
          <TextInput
            label="Seller email"
            type="email"
            withAsterisk
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <Button type="submit" fullWidth loading={form.submitting}>
            Sign in as seller
          </Button>
          <FormError message={serverError} />
        </Stack>
      </form>
    </AuthCard>
  );
}
