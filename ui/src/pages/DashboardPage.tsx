import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { User } from '../api';
import { useSessionUser } from '../session/useSessionUser';

function memberSince(user: User): string {
  const created = new Date(user.created_at);
  if (Number.isNaN(created.getTime())) return '';
  return created.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}

function greeting(now: Date): string {
  const hour = now.getHours();
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

interface FactProps {
  label: string;
  children: ReactNode;
}

function Fact({ label, children }: FactProps) {
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/** `/`: who is signed in, from `GET /api/me` only. */
export function DashboardPage() {
  const user = useSessionUser();
  const since = memberSince(user);
  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={4}>
        <Title order={1} fz="h2" data-testid="greeting">
          {greeting(new Date())}, {user.name}
        </Title>
        <Text c="dimmed">Welcome to your Pressroom seller dashboard.</Text>
      </Stack>
      <Card withBorder radius="lg" padding="lg">
        <Title order={2} fz="h4" mb="md">
          Your account
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Fact label="Email">
            <Text data-testid="user-email">{user.email}</Text>
          </Fact>
          <Fact label="Roles">
            <Group gap={6} data-testid="user-roles">
              {user.roles.length > 0 ? (
                user.roles.map((role) => (
                  <Badge key={role} variant="light" tt="capitalize">
                    {role}
                  </Badge>
                ))
              ) : (
                <Text c="dimmed">No roles</Text>
              )}
            </Group>
          </Fact>
          <Fact label="Status">
            <Text tt="capitalize">{user.status}</Text>
          </Fact>
          {since && (
            <Fact label="Member since">
              <Text>{since}</Text>
            </Fact>
          )}
        </SimpleGrid>
      </Card>
    </Stack>
  );
}
