import { Alert, Button, Code, Group, Image, List, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api';
import { tfaDisable, tfaEnable, tfaSetup, type TfaSetup } from '../../api/account';
import { FormError } from '../../components/FormError';
import { meQuery } from '../../session/queries';
import { useSessionUser } from '../../session/useSessionUser';
import { applyServerError } from '../auth/formErrors';
import { LabelBadge } from '../../components/LabelBadge';

const codeRule = (value: string) =>
  /^\d{6}$/.test(value.trim()) ? null : 'Enter the 6-digit code from your authenticator app.';
const passwordRule = (value: string) => (value ? null : 'Enter your current password.');

/**
 * Two-factor settings: enrolment with a QR code, confirmation with a code, recovery codes, turning it
 * off. Every change asks for the current password (the one typed to start enrolment confirms it too),
 * and the account's address is e-mailed about it.
 */
export function TwoFactorSettings() {
  const user = useSessionUser();
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<TfaSetup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { code: '', current_password: '' },
    validate: { code: codeRule, current_password: passwordRule },
  });

  const refreshUser = () => queryClient.invalidateQueries({ queryKey: meQuery.queryKey });

  const start = async () => {
    setServerError(null);
    if (form.validateField('current_password').hasError) return;
    setStarting(true);
    try {
      setSetup(await tfaSetup(api, form.getValues().current_password));
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    } finally {
      setStarting(false);
    }
  };

  const confirm = form.onSubmit(async ({ code, current_password }) => {
    setServerError(null);
    try {
      const answer = await tfaEnable(api, code.trim(), current_password);
      setRecoveryCodes(answer.recovery_codes);
      setSetup(null);
      form.reset();
      await refreshUser();
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    }
  });

  const disable = form.onSubmit(async ({ code, current_password }) => {
    setServerError(null);
    try {
      const message = await tfaDisable(api, code.trim(), current_password);
      notifications.show({ color: 'green', message });
      form.reset();
      await refreshUser();
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    }
  });

  if (recoveryCodes) {
    return (
      <Stack gap="md" maw={520}>
        <Alert color="green" variant="light" role="status" title="Two-factor authentication is on">
          Save these recovery codes somewhere safe. Each signs you in once if you lose your phone; they are not shown
          again.
        </Alert>
        <List data-testid="recovery-codes" spacing={4} listStyleType="none">
          {recoveryCodes.map((code) => (
            <List.Item key={code}>
              <Code fz="md">{code}</Code>
            </List.Item>
          ))}
        </List>
        <Button onClick={() => setRecoveryCodes(null)} w="fit-content">
          I have saved them
        </Button>
      </Stack>
    );
  }

  if (user.tfa_enable) {
    return (
      <Stack gap="md" maw={520}>
        <Group gap="xs">
          <Title order={3} fz="h4">
            Two-factor authentication
          </Title>
          <LabelBadge color="green">
            On
          </LabelBadge>
        </Group>
        <Text size="sm" c="dimmed">
          Signing in asks for a code from your authenticator app. Enter your password and a current code to turn it
          off.
        </Text>
        <form onSubmit={disable} noValidate aria-label="Turn off two-factor">
          <Stack gap="sm">
            <PasswordInput label="Current password" autoComplete="current-password" key={form.key('current_password')} {...form.getInputProps('current_password')} />
            <TextInput label="Authentication code" inputMode="numeric" maxLength={6} key={form.key('code')} {...form.getInputProps('code')} />
            <Button type="submit" color="red" variant="light" loading={form.submitting} w="fit-content">
              Turn off two-factor
            </Button>
            <FormError message={serverError} />
          </Stack>
        </form>
      </Stack>
    );
  }

  return (
    <Stack gap="md" maw={520}>
      <Group gap="xs">
        <Title order={3} fz="h4">
          Two-factor authentication
        </Title>
        <LabelBadge color="gray">
          Off
        </LabelBadge>
      </Group>
      <Text size="sm" c="dimmed">
        Protect your account with a time-based code from an authenticator app (Google Authenticator, 1Password,
        Authy...).
      </Text>
      {!setup ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void start();
          }}
          noValidate
          aria-label="Set up two-factor"
        >
          <Stack gap="sm">
            <PasswordInput label="Current password" autoComplete="current-password" key={form.key('current_password')} {...form.getInputProps('current_password')} />
            <Button type="submit" loading={starting} w="fit-content">
              Set up two-factor authentication
            </Button>
          </Stack>
        </form>
      ) : (
        <form onSubmit={confirm} noValidate aria-label="Turn on two-factor">
          <Stack gap="sm">
            <Text size="sm">1. Scan this QR code with your authenticator app.</Text>
            <Image src={setup.qr_code} alt="Two-factor QR code" w={200} h={200} radius="md" />
            <Text size="sm">
              Or enter this key by hand: <Code data-testid="tfa-secret">{setup.secret}</Code>
            </Text>
            <Text size="sm">2. Enter the 6-digit code the app shows.</Text>
            <TextInput label="Authentication code" inputMode="numeric" maxLength={6} key={form.key('code')} {...form.getInputProps('code')} />
            <Button type="submit" loading={form.submitting} w="fit-content">
              Turn on two-factor
            </Button>
          </Stack>
        </form>
      )}
      <FormError message={serverError} />
    </Stack>
  );
}
