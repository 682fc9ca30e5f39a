import { Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { Logo } from '../components/Logo';

/** /maintenance: shown in the blank layout while the operator has the platform in maintenance. */
export function MaintenancePage() {
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" gap="md" maw={460}>
        <Logo size={34} />
        <ThemeIcon size={64} radius="xl" variant="light">
          <IconTool size={32} stroke={1.5} />
        </ThemeIcon>
        <Title order={1} fz="h2" ta="center">
          We are down for maintenance
        </Title>
        <Text c="dimmed" ta="center">
          Pressroom is being updated and will be back shortly. Please try again in a few minutes.
        </Text>
      </Stack>
    </Center>
  );
}
