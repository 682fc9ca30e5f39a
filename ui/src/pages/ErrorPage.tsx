import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

interface ErrorPageProps {
  status: number;
  message: string;
  detail?: ReactNode;
}

/** An error with its status code and a way home. */
export function ErrorPage({ status, message, detail }: ErrorPageProps) {
  return (
    <Paper withBorder shadow="md" radius="lg" p="xl" w="100%">
      <Stack align="center" gap="sm" ta="center">
        <Text fz={64} fw={800} lh={1} c="indigo" data-testid="error-status">
          {status}
        </Text>
        <Title order={1} fz="h3">
          {message}
        </Title>
        {detail && (
          <Text size="sm" c="dimmed">
            {detail}
          </Text>
        )}
        <Button component={Link} to="/" variant="light" mt="md">
          Back to home
        </Button>
      </Stack>
    </Paper>
  );
}
