import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, isApiError } from '../../api';
import { acceptInvitation, receivedInvitations } from '../../api/team';
import { authorizedAccountsQuery } from '../../session/switching';
import { permissionNames } from './permissionLabels';

/** `/team/invitations`: invitations to other sellers' teams, to accept. */
export function InvitationsPage() {
  const queryClient = useQueryClient();
  const invitations = useQuery({
    queryKey: ['team', 'received'],
    queryFn: ({ signal }) => receivedInvitations(api, signal),
  });
  const accept = useMutation({
    mutationFn: (id: number) => acceptInvitation(api, id),
    onSuccess: async (message) => {
      notifications.show({ color: 'green', message });
      await queryClient.invalidateQueries({ queryKey: ['team'] });
      await queryClient.invalidateQueries({ queryKey: authorizedAccountsQuery.queryKey });
    },
    onError: (error) =>
      notifications.show({ color: 'red', message: isApiError(error) ? error.message : 'Something went wrong.' }),
  });
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} fz="h2">
        Team invitations
      </Title>
      <Card withBorder radius="lg" padding="lg">
        {invitations.isSuccess && invitations.data.length === 0 && (
          <Text c="dimmed" ta="center" py="md">
            Oops! No entries found.
          </Text>
        )}
        <Stack gap="md">
          {invitations.data?.map((i) => (
            <Group key={i.id} justify="space-between" data-testid="invitation">
              <Stack gap={0}>
                <Text fw={500}>{i.seller_name}</Text>
                <Text size="xs" c="dimmed">
                  {permissionNames(i.permissions) || 'no permissions'}
                </Text>
              </Stack>
              <Button size="xs" onClick={() => accept.mutate(i.id)} loading={accept.isPending}>
                Accept
              </Button>
            </Group>
          ))}
        </Stack>
      </Card>
    </Stack>
  );
}
