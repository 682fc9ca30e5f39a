import { Anchor, Card, Stack, Tabs, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { GeneralSettingsForm } from './GeneralSettingsForm';
import { TwoFactorSettings } from './TwoFactorSettings';

const TABS = ['general', 'api-key', '2fa'] as const;
type Tab = (typeof TABS)[number];

/**
 * `/settings/general`: the time zone and display currency, what API keys are, and two-factor
 * authentication; `current_tab=api-key` or `current_tab=2fa` selects those tabs.
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
            <Stack gap="sm" maw={620}>
              <Text>
                An API key lets your own software (a shop backend, an order import script) read and create orders and
                campaigns in your account without your password. Each key is shown once when it is made and can be
                revoked at any time.
              </Text>
              <Text c="dimmed">
                Pressroom does not issue API keys to sellers yet, so there is no key to create or revoke for this
                account. Your keys will be listed on the{' '}
                <Anchor component={Link} to="/settings/api-keys">
                  API Keys
                </Anchor>{' '}
                page.
              </Text>
            </Stack>
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
