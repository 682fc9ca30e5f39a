import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api';
import { forgotPassword } from '../../api/account';
import { AuthCard } from '../../components/AuthCard';
import { FormError } from '../../components/FormError';
import { LOGIN_PATH } from '../../session/redirects';
import { applyServerError } from './formErrors';
import { forgotSchema } from './schemas';

/** `/auth/forgot-password`: e-mails a single-use reset link. */
export function ForgotPasswordPage() {
  const [serverError, setServerError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '' },
    validate: schemaResolver(forgotSchema, { sync: true }),
  });

  const submit = form.onSubmit(async (values) => {
    setServerError(null);
    try {
      setSent(await forgotPassword(api, values.email.trim()));
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    }
  });

  return (
    <AuthCard title="Forgot your password?" subtitle="Enter your e-mail address and we will send you a reset link.">
      {sent ? (
        <Alert color="green" variant="light" role="status">
          {sent}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate aria-label="Forgot password">
          <Stack gap="md">
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              withAsterisk
              key={form.key('email')}
              {...form.getInputProps('email')}
            />
            <Button type="submit" fullWidth loading={form.submitting}>
              Send reset link
            </Button>
            <FormError message={serverError} />
          </Stack>
        </form>
      )}
      <Anchor component={Link} to={LOGIN_PATH} size="sm" ta="center">
        Back to sign in
      </Anchor>
    </AuthCard>
  );
}
