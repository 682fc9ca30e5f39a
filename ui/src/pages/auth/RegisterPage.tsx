import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api';
import { register, type Registration } from '../../api/account';
import { AuthCard } from '../../components/AuthCard';
import { FormError } from '../../components/FormError';
import { meQuery } from '../../session/queries';
import { LOGIN_PATH } from '../../session/redirects';
import { applyServerError } from './formErrors';
import { registerSchema } from './schemas';

/** `/auth/register`: a new seller account, signed in at once; the verification e-mail is on its way. */
export function RegisterPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<Registration>({
    mode: 'uncontrolled',
    initialValues: { name: '', email: '', password: '', password_confirmation: '' },
    validate: schemaResolver(registerSchema, { sync: true }),
  });

  const submit = form.onSubmit(async (values) => {
    setServerError(null);
    try {
      const token = await register(api, { ...values, name: values.name.trim(), email: values.email.trim() });
      api.tokens.set(token.access_token);
      await queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
      await navigate('/', { replace: true });
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    }
  });

  return (
    <AuthCard title="Create your seller account" subtitle="Start selling your designs in minutes.">
      <form onSubmit={submit} noValidate aria-label="Register">
        <Stack gap="md">
          <TextInput label="Name" autoComplete="name" withAsterisk key={form.key('name')} {...form.getInputProps('name')} />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            withAsterisk
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            withAsterisk
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label="Confirm password"
            autoComplete="new-password"
            withAsterisk
            key={form.key('password_confirmation')}
            {...form.getInputProps('password_confirmation')}
          />
          <Button type="submit" fullWidth loading={form.submitting}>
            Create account
          </Button>
          <FormError message={serverError} />
        </Stack>
      </form>
      <Text size="sm" ta="center">
        Already have an account?{' '}
        <Anchor component={Link} to={LOGIN_PATH}>
          Sign in
        </Anchor>
      </Text>
    </AuthCard>
  );
}
