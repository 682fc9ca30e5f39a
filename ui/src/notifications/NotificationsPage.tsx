import { Alert, Button, Card, Group, Loader, Pagination, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { notifications as toasts } from '@mantine/notifications';
import { IconChecks } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, isApiError } from '../api';
import { markAllAsRead, notificationKeys, notificationsPage } from '../api/notifications';
import { PostedAt, Subject } from './NotificationContent';
import { LabelBadge } from '../components/LabelBadge';

/** `/notifications`: the account's notifications, 15 to a page, newest first, with "Mark all as read". */
export function NotificationsPage() {
  const [page, setPage] = useState(1);
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: notificationKeys.page(page),
    queryFn: ({ signal }) => notificationsPage(api, page, signal),
    placeholderData: keepPreviousData,
  });
  const markAll = useMutation({
    mutationFn: () => markAllAsRead(api),
    onSuccess: (message) => toasts.show({ color: 'green', message }),
    onError: (error) =>
      toasts.show({ color: 'red', message: isApiError(error) ? error.message : 'Something went wrong.' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
  const anyNew = list.data?.data.some((n) => n.is_new) ?? false;

  return (
    <Stack gap="lg" maw={960}>
      <Group justify="space-between" align="flex-end">
        <Title order={1} fz="h2">
          Notifications
        </Title>
        <Button
          variant="light"
          leftSection={<IconChecks size={16} />}
          onClick={() => markAll.mutate()}
          loading={markAll.isPending}
          disabled={!list.data || list.data.total === 0}
        >
          Mark all as read
        </Button>
      </Group>
      {list.isError && <Alert color="red">{list.error.message}</Alert>}
      {list.isPending ? (
        <Loader />
      ) : list.data && list.data.data.length > 0 ? (
        <>
          <Card withBorder radius="lg" padding={0} data-any-new={anyNew || undefined}>
            {list.data.data.map((n, i) => (
              <UnstyledButton
                key={n.id}
                component={Link}
                to={`/notifications/${n.id}`}
                px="lg"
                py="sm"
                data-testid="notification-row"
                data-new={n.is_new || undefined}
                style={{ borderTop: i === 0 ? undefined : '1px solid var(--mantine-color-default-border)' }}
              >
                <Group justify="space-between" wrap="nowrap">
                  <Stack gap={2}>
                    <Subject notification={n} strong={n.is_new} />
                    <PostedAt notification={n} />
                  </Stack>
                  {n.is_new && (
                    <LabelBadge color="blue">
                      New
                    </LabelBadge>
                  )}
                </Group>
              </UnstyledButton>
            ))}
          </Card>
          {list.data.last_page > 1 && <Pagination value={page} onChange={setPage} total={list.data.last_page} />}
        </>
      ) : (
        <Text c="dimmed">You don&apos;t have any notifications.</Text>
      )}
    </Stack>
  );
}
