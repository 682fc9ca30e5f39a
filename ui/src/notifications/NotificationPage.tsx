import { Alert, Anchor, Card, Loader, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { api, type Page } from '../api';
import { notification, notificationKeys, type Notification } from '../api/notifications';
import { NotificationBody, SubjectLine } from './NotificationContent';

/** `/notifications/:id`: one notification; opening it marks it read, so the bell and the list refresh. */
export function NotificationPage() {
  const id = Number(useParams().id);
  const queryClient = useQueryClient();
  const one = useQuery({
    queryKey: notificationKeys.one(id),
    queryFn: ({ signal }) => notification(api, id, signal),
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });
  const opened = one.isSuccess;
  useEffect(() => {
    if (!opened) return;
    // The cached pages show it read at once; the refetch brings the rest up to date.
    queryClient.setQueriesData<Page<Notification>>({ queryKey: notificationKeys.pages }, (page) =>
      page && { ...page, data: page.data.map((n) => (n.id === id ? { ...n, is_new: false } : n)) },
    );
    void queryClient.invalidateQueries({ queryKey: notificationKeys.bell });
    void queryClient.invalidateQueries({ queryKey: notificationKeys.pages });
  }, [opened, id, queryClient]);

  return (
    <Stack gap="lg" maw={860}>
      <Anchor component={Link} to="/notifications" size="sm">
        <IconArrowLeft size={14} style={{ verticalAlign: 'middle' }} /> All notifications
      </Anchor>
      {one.isError || !(Number.isInteger(id) && id > 0) ? (
        <Alert color="red">{one.error?.message ?? 'Notification not found.'}</Alert>
      ) : one.isPending ? (
        <Loader />
      ) : (
        <Card withBorder radius="lg" padding="xl">
          <Stack gap="md">
            <Title order={1} fz="h3">
              <SubjectLine notification={one.data} />
            </Title>
            <NotificationBody notification={one.data} />
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
