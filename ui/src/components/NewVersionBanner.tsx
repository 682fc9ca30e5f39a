import { Alert, Button, Group, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { fetchVersion } from '../api/version';
import { VERSION_POLL_MS, VersionWatch } from '../app/versionCheck';

/** The build this page load first saw; a new page load starts over. */
const watch = new VersionWatch();

/** "A new version is available!" with "Update Now" once the polled build changes. */
export function NewVersionBanner() {
  const { data: updated } = useQuery({
    queryKey: ['version'],
    queryFn: async ({ signal }) => watch.observe((await fetchVersion(api, signal)).last_update),
    refetchInterval: VERSION_POLL_MS,
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    staleTime: 0,
  });
  if (!updated) return null;
  return (
    <Alert color="blue" variant="light" icon={<IconRefresh size={18} />} mb="md" data-testid="new-version-banner">
      <Group justify="space-between" gap="sm">
        <Text size="sm" fw={500}>
          A new version is available!
        </Text>
        <Button size="xs" onClick={() => window.location.reload()}>
          Update Now
        </Button>
      </Group>
    </Alert>
  );
}
