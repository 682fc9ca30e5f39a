import { Card, Stack, Title } from '@mantine/core';
import { ApiKeysPanel } from './ApiKeysPanel';

/** `/settings/api-keys`: the seller's API keys. */
export function ApiKeysPage() {
  return (
    <Stack gap="lg" maw={1100}>
      <Title order={1} fz="h2">
        API Keys
      </Title>
      <Card withBorder radius="lg" padding="lg">
        <ApiKeysPanel />
      </Card>
    </Stack>
  );
}
