import { Card, Stack, Tabs, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { ApiKeysPanel } from '../../apikeys/ApiKeysPanel';
import { GeneralSettingsForm } from './GeneralSettingsForm';
import { TwoFactorSettings } from './TwoFactorSettings';

const TABS = ['general', 'api-key', '2fa'] as const;
type Tab = (typeof TABS)[number];

/**
 * `/settings/general`: the time zone and display currency, the API keys (the same panel as `/settings/api-keys`),
 * and two-factor authentication; `current_tab=api-key` or `current_tab=2fa` selects those tabs.
 */
export function GeneralSettingsPage() {
  const [search, setSearch] = useSearchParams();
  const current = search.get('current_tab');
  const tab: Tab = (TABS as readonly string[]).includes(current ?? '') ? (current as Tab) : 'general';
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} fz="h2">
        General settings
      </Title>
      <Tabs
        value={tab}
        onChange={(value) => setSearch(value && value !== 'general' ? { current_tab: value } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="general">General</Tabs.Tab>
          <Tabs.Tab value="api-key">API key</Tabs.Tab>
          <Tabs.Tab value="2fa">Two-factor authentication</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="general" pt="lg">
          <Card withBorder radius="lg" padding="lg">
            <GeneralSettingsForm />
          </Card>
        </Tabs.Panel>
        <Tabs.Panel value="api-key" pt="lg">
          <Card withBorder radius="lg" padding="lg">
            <ApiKeysPanel />
          </Card>
        </Tabs.Panel>
        <Tabs.Panel value="2fa" pt="lg">
          <Card withBorder radius="lg" padding="lg">
            <TwoFactorSettings />
          </Card>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
