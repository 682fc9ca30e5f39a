import { Alert, Anchor, Button, Loader, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api';
import { resendVerification, verifyEmail } from '../../api/account';
import { AuthCard } from '../../components/AuthCard';
import { FormError } from '../../components/FormError';
import { meQuery } from '../../session/queries';
import { HOME_PATH, LOGIN_PATH, LOGOUT_PATH } from '../../session/redirects';

function errorText(error: unknown): string | null {
  return error instanceof Error ? error.message : null;
}

/** Spends the e-mailed link (it proves the address, so it works in any browser). */
function VerifyWithToken({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const signedIn = api.tokens.get() !== null;
  const result = useQuery({
    queryKey: ['verify-email', token],
    queryFn: async () => {
      const message = await verifyEmail(api, token);
      // The guards read the cached user: load it afresh so the dashboard lets the user in.
      if (api.tokens.get()) await queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
      return message;
    },
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
  if (result.isPending) return <Loader aria-label="Verifying" mx="auto" />;
  return (
    <Stack gap="md">
      {result.isSuccess ? (
        <Alert color="green" variant="light" role="status">
          {result.data}
        </Alert>
      ) : (
        <FormError message={errorText(result.error)} />
      )}
      <Button component={Link} to={signedIn ? HOME_PATH : LOGIN_PATH} fullWidth>
        {signedIn ? 'Continue to the dashboard' : 'Sign in'}
      </Button>
    </Stack>
  );
}

/** Signed-in users who must verify: the rule's explanation and a resend button. */
function AskToVerify() {
  const signedIn = api.tokens.get() !== null;
  const me = useQuery({ ...meQuery, enabled: signedIn });
  const resend = useMutation({ mutationFn: () => resendVerification(api) });
  if (!signedIn) {
    return (
      <Button component={Link} to={LOGIN_PATH} fullWidth>
        Sign in
      </Button>
    );
  }
  if (me.data?.email_verified_at) {
    return (
      <Stack gap="md">
        <Alert color="green" variant="light" role="status">
          Your email has been verified.
        </Alert>
        <Button component={Link} to={HOME_PATH} fullWidth>
          Continue to the dashboard
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Text size="sm">
        We have sent a verification link to <b>{me.data?.email ?? 'your e-mail address'}</b>. Open it to continue.
      </Text>
      <Button onClick={() => resend.mutate()} loading={resend.isPending} fullWidth>
        Resend verification email
      </Button>
      {resend.isSuccess && (
        <Alert color="green" variant="light" role="status">
          {resend.data}
        </Alert>
      )}
      <FormError message={errorText(resend.error)} />
      <Anchor component={Link} to={LOGOUT_PATH} size="sm" ta="center">
        Sign out
      </Anchor>
    </Stack>
  );
}

/** `/auth/verify-email`: with `?token=` spends the link; without, asks the user to verify. */
export function VerifyEmailPage() {
  const [search] = useSearchParams();
  const token = search.get('token');
  return (
    <AuthCard title="Verify your email" subtitle="You need to verify your email before using the dashboard.">
      {token ? <VerifyWithToken token={token} /> : <AskToVerify />}
    </AuthCard>
  );
}
