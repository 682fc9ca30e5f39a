import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { User } from '../api';
import { LOGOUT_PATH } from '../session/redirects';

interface UserMenuProps {
  user: User;
}

/** The signed-in user's name and email with the account actions. */
export function UserMenu({ user }: UserMenuProps) {
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
        <Menu.Item component={Link} to={LOGOUT_PATH} leftSection={<IconLogout size={16} stroke={1.6} />}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
