import { ActionIcon, Indicator, Menu, ScrollArea, Stack, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../api';
import { bellNotifications, notificationKeys } from '../api/notifications';
import { PostedAt, Subject } from './NotificationContent';

/** The bell's dropdown is at most 250px high. */
export const BELL_LIST_MAX_HEIGHT = 250;
/** How often the bell asks for new notifications while the page is open. */
export const BELL_POLL_MS = 60_000;

/** The top bar's bell (tag notify): unread count, the newest notifications, View All → /notifications. */
export function NotificationBell() {
  const bell = useQuery({
    queryKey: notificationKeys.bell,
    queryFn: ({ signal }) => bellNotifications(api, signal),
    refetchInterval: BELL_POLL_MS,
  });
  const unread = bell.data?.unread_count ?? 0;
  const list = bell.data?.notifications ?? [];
  return (
    <Menu position="bottom-end" width={340} shadow="md" withinPortal>
      <Menu.Target>
        <Indicator
          label={unread > 99 ? '99+' : unread}
          size={16}
          color="red"
          disabled={unread === 0}
          offset={4}
          data-testid="notification-count"
        >
          <ActionIcon variant="default" size="lg" aria-label={unread > 0 ? `Notifications (${unread} unread)` : 'Notifications'}>
            <IconBell size={18} stroke={1.6} />
          </ActionIcon>
        </Indicator>
      </Menu.Target>
      <Menu.Dropdown data-testid="notification-dropdown">
        <Menu.Label>Notifications</Menu.Label>
        <ScrollArea.Autosize mah={BELL_LIST_MAX_HEIGHT} type="auto" data-testid="notification-bell-list">
          {bell.isSuccess && list.length === 0 ? (
            <Text size="sm" c="dimmed" px="sm" py="md" ta="center">
              You don&apos;t have any notifications.
            </Text>
          ) : (
            list.map((n) => (
              <Menu.Item key={n.id} component={Link} to={`/notifications/${n.id}`} data-new={n.is_new || undefined}>
                <Stack gap={2}>
                  <Subject notification={n} strong={n.is_new} />
                  <PostedAt notification={n} />
                </Stack>
              </Menu.Item>
            ))
          )}
        </ScrollArea.Autosize>
        <Menu.Divider />
        <Menu.Item component={Link} to="/notifications" ta="center" fw={500} c="blue">
          View All
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
