import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import {
  IconArrowBackUp,
  IconCash,
  IconChevronDown,
  IconLogout,
  IconMailbox,
  IconSwitchHorizontal,
  IconUser,
  IconUserShield,
  IconWallet,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import type { User } from '../api';
import { backToAdmin, switchBack } from '../api/account';
import { isAdmin, type MenuItemId } from '../access';
import { formatPrice } from '../format/price';
import { LOGOUT_PATH } from '../session/redirects';
import { useAccountReturn } from '../session/switching';
import { secondBalance } from './balances';

interface UserMenuProps {
  user: User;
  /** The menu items the user sees (access rules). */
  visible: readonly MenuItemId[];
  onSwitchAccount: () => void;
}

/** The signed-in user's name and email with the balances and the account actions. */
export function UserMenu({ user, visible, onSwitchAccount }: UserMenuProps) {
  const shows = (item: MenuItemId) => visible.includes(item);
  const second = secondBalance(user);

  const goBack = useAccountReturn();

  return (
    <Menu position="bottom-end" width={240} withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label="Account menu" data-testid="user-menu">
          <Group gap="xs" wrap="nowrap">
            <Avatar src={user.avatar} alt={user.name} name={user.name} color="initials" size={32} radius="xl" />
            <Text size="sm" fw={500} visibleFrom="sm" lineClamp={1} maw={180}>
              {user.name}
            </Text>
            <IconChevronDown size={14} stroke={1.6} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)" lineClamp={1}>
            {user.name}
          </Text>
          <Text size="xs" c="dimmed" lineClamp={1}>
            {user.email}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        {shows('topbar.balance') && (
          <>
            <Menu.Item component={Link} to="/payouts" leftSection={<IconWallet size={16} stroke={1.6} />}>
              Balance: {formatPrice(user.balance)}
            </Menu.Item>
            {second > 0 && (
              <Menu.Item component={Link} to="/payouts" leftSection={<IconWallet size={16} stroke={1.6} />}>
                Balance 2: {formatPrice(second)}
              </Menu.Item>
            )}
            <Menu.Divider />
          </>
        )}
        {shows('user.my_account') && (
          <Menu.Item component={Link} to="/settings/account" leftSection={<IconUser size={16} stroke={1.6} />}>
            My Account
          </Menu.Item>
        )}
        {shows('user.back_to_my_account') && (
          <Menu.Item
            onClick={() => void goBack(switchBack, 'Cannot switch to main account. Please try again!')}
            leftSection={<IconArrowBackUp size={16} stroke={1.6} />}
          >
            Back To My Account
          </Menu.Item>
        )}
        {shows('user.back_to_admin') && (
          <Menu.Item
            onClick={() => void goBack(backToAdmin, 'Cannot go back to your admin account. Please try again!')}
            leftSection={<IconArrowBackUp size={16} stroke={1.6} />}
            data-testid="back-to-admin"
          >
            Back to admin
          </Menu.Item>
        )}
        {shows('user.switch_account') && (
          <Menu.Item onClick={onSwitchAccount} leftSection={<IconSwitchHorizontal size={16} stroke={1.6} />}>
            Switch Account
          </Menu.Item>
        )}
        {isAdmin(user) && (
          <>
            <Menu.Item component={Link} to="/system/mail" leftSection={<IconMailbox size={16} stroke={1.6} />}>
              Mail outbox
            </Menu.Item>
            <Menu.Item component={Link} to="/system/payouts" leftSection={<IconCash size={16} stroke={1.6} />}>
              Payouts to process
            </Menu.Item>
            <Menu.Item component={Link} to="/auth/login-as-seller" leftSection={<IconUserShield size={16} stroke={1.6} />}>
              Sign in as a seller
            </Menu.Item>
          </>
        )}
        <Menu.Item component={Link} to={LOGOUT_PATH} leftSection={<IconLogout size={16} stroke={1.6} />}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
