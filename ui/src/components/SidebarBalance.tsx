import { Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { IconMessage2, IconWallet } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { User } from '../api';
import { DEFAULT_CURRENCY, formatPrice } from '../format/price';
import { secondBalance } from './balances';

interface SidebarBalanceProps {
  user: User;
  onNavigate?: () => void;
}

/** The sidebar's balance block: Balance, Balance 2 when positive, and the SMS credits. */
export function SidebarBalance({ user, onNavigate }: SidebarBalanceProps) {
  const second = secondBalance(user);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="sidebar-balance">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap={6} wrap="nowrap">
            <IconWallet size={16} stroke={1.6} />
            <Text size="sm" c="dimmed">
              Balance
            </Text>
          </Group>
          <Anchor component={Link} to="/payouts" size="sm" fw={600} onClick={onNavigate}>
            {formatPrice(user.balance, { code: user.currency, locale: DEFAULT_CURRENCY.locale, rate: 1 })}
          </Anchor>
        </Group>
        {second > 0 && (
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm" c="dimmed" pl={22}>
              Balance 2
            </Text>
            <Anchor component={Link} to="/payouts" size="sm" fw={600} onClick={onNavigate}>
              {formatPrice(second)}
            </Anchor>
          </Group>
        )}
        <Group justify="space-between" wrap="nowrap">
          <Group gap={6} wrap="nowrap">
            <IconMessage2 size={16} stroke={1.6} />
            <Text size="sm" c="dimmed">
              SMS credits
            </Text>
          </Group>
          <Anchor component={Link} to="/sms/topup" size="sm" fw={600} onClick={onNavigate}>
            {user.sms_credit.toLocaleString('en-US')}
          </Anchor>
        </Group>
      </Stack>
    </Paper>
  );
}
