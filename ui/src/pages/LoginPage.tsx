import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../api';
import { login, type Credentials } from '../api/auth';
import { loginVariant, otherVariantSearch } from '../session/loginVariant';
import { meQuery } from '../session/queries';
import { afterLoginPath } from '../session/redirects';
import { LoginForm } from './LoginForm';

const copy = {
  seller: {
    title: 'Sign in to your dashboard',
    subtitle: 'Manage your stores, campaigns and orders.',
    switchTo: 'Designer or admin? Use the designer sign-in',
  },
  designer: {
    title: 'Designer sign in',
    subtitle: 'Review the print files of the design orders assigned to you.',
    switchTo: 'Seller? Use the seller sign-in',
  },
} as const;

/** The page after login, marked ref=login so the layout may offer the select-account modal. */
function withLoginMarker(path: string): string {
  const url = new URL(path, 'http://pressroom.invalid');
  url.searchParams.set('ref', 'login');
  return `${url.pathname}${url.search}${url.hash}`;
}

/** `/auth/login`: signs in, loads the user and continues to the `redirect` page or home. */
export function LoginPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { hostname } = window.location;
  const variant = loginVariant(hostname, search);
  const other = otherVariantSearch(hostname, search);
  const text = copy[variant];

  const signIn = useMutation({
    mutationFn: async (credentials: Credentials) => {
      const token = await login(api, variant, credentials);
      api.tokens.set(token.access_token);
      return queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
    },
    onSuccess: () => navigate(withLoginMarker(afterLoginPath(search)), { replace: true }),
  });

  return (
    <Paper withBorder shadow="md" radius="lg" p="xl" w="100%">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={2} fz="h3">
            {text.title}
          </Title>
          <Text size="sm" c="dimmed">
            {text.subtitle}
          </Text>
        </Stack>
        <LoginForm key={variant} onSubmit={signIn.mutateAsync} />
        <Group justify="space-between">
          <Anchor component={Link} to="/auth/forgot-password" size="sm">
            Forgot password?
          </Anchor>
          {variant === 'seller' && (
            <Anchor component={Link} to="/auth/register" size="sm">
              Create an account
            </Anchor>
          )}
        </Group>
        {other && (
          <Anchor component={Link} to={{ search: other.toString() }} size="sm" ta="center">
            {text.switchTo}
          </Anchor>
        )}
      </Stack>
    </Paper>
  );
}
