import { Alert, Anchor, Button, Card, Checkbox, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, isApiError } from '../../api';
import { inviteMember, removeMember, sentInvitations, setMemberPermissions, teamMembers, type TeamMember } from '../../api/team';
import { currentAccessContext, isAuthorizedAccount, PERMISSIONS, visibleMenu } from '../../access';
import { useSessionUser } from '../../session/useSessionUser';
import { FormError } from '../../components/FormError';
import { applyServerError } from '../auth/formErrors';
import { PERMISSION_LABELS, permissionNames } from './permissionLabels';

function PermissionPicker({ value, onChange }: { value: string[]; onChange: (value: string[]) => void }) {
  return (
    <Checkbox.Group value={value} onChange={onChange} label="Permissions">
      <Stack gap={6} mt="xs">
        {PERMISSIONS.map((p) => (
          <Checkbox key={p} value={p} label={PERMISSION_LABELS[p]} />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}

function toast(error: unknown) {
  notifications.show({ color: 'red', message: isApiError(error) ? error.message : 'Something went wrong.' });
}

/**
 * `/team`: the seller's team members and their permissions, invitations by e-mail, removal. The same rule as the
 * API's decides who may use it (the team menu item's); anyone else is told so instead of shown a form that fails.
 */
export function TeamPage() {
  const user = useSessionUser();
  if (!visibleMenu(user, currentAccessContext()).includes('settings.team')) {
    return (
      <Stack gap="lg" maw={900}>
        <Title order={1} fz="h2">
          Team
        </Title>
        <Alert color="yellow" role="alert" data-testid="team-not-allowed">
          {isAuthorizedAccount(user)
            ? 'Only the account owner manages its team. Ask them to change your permissions.'
            : 'You do not have permission to see the team. Ask the account owner for the “See the team” permission.'}
        </Alert>
      </Stack>
    );
  }
  return <TeamScreen />;
}

function TeamScreen() {
  const queryClient = useQueryClient();
  const members = useQuery({ queryKey: ['team', 'members'], queryFn: ({ signal }) => teamMembers(api, signal) });
  const invitations = useQuery({ queryKey: ['team', 'sent'], queryFn: ({ signal }) => sentInvitations(api, signal) });
  const [editing, setEditing] = useState<TeamMember | null>(null);
  const [permissions, setPermissions] = useState<string[]>([]);
  const [serverError, setServerError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['team'] });
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '', permissions: [] as string[] },
    validate: { email: (v: string) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'The email must be a valid email address.') },
  });

  const invite = form.onSubmit(async (values) => {
    setServerError(null);
    try {
      notifications.show({ color: 'green', message: await inviteMember(api, values.email.trim(), values.permissions) });
      form.reset();
      await refresh();
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    }
  });
  const save = useMutation({
    mutationFn: () => setMemberPermissions(api, editing!.id, permissions),
    onSuccess: async (message) => {
      notifications.show({ color: 'green', message });
      setEditing(null);
      await refresh();
    },
    onError: toast,
  });
  const remove = useMutation({
    mutationFn: (id: number) => removeMember(api, id),
    onSuccess: async (message) => {
      notifications.show({ color: 'green', message });
      await refresh();
    },
    onError: toast,
  });

  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between">
        <Title order={1} fz="h2">
          Team
        </Title>
        <Anchor component={Link} to="/team/invitations">
          Invitations to other teams
        </Anchor>
      </Group>
      <Card withBorder radius="lg" padding={0}>
        {members.isSuccess && members.data.length === 0 ? (
          <Text c="dimmed" ta="center" py="xl">
            Oops! No entries found.
          </Text>
        ) : (
          <Table verticalSpacing="sm" horizontalSpacing="lg">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Member</Table.Th>
                <Table.Th>Permissions</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.data?.map((m) => (
                <Table.Tr key={m.id} data-testid="team-member">
                  <Table.Td>
                    <Text fw={500}>{m.name}</Text>
                    <Text size="xs" c="dimmed">
                      {m.email}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{permissionNames(m.permissions) || 'None'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => {
                          setEditing(m);
                          setPermissions(m.permissions);
                        }}
                      >
                        Permissions
                      </Button>
                      <Button size="xs" color="red" variant="subtle" onClick={() => remove.mutate(m.id)}>
                        Remove
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      <Card withBorder radius="lg" padding="lg">
        <Title order={2} fz="h4" mb="md">
          Invite a team member
        </Title>
        <form onSubmit={invite} noValidate aria-label="Invite a team member">
          <Stack gap="sm" maw={480}>
            <TextInput label="Email" type="email" {...form.getInputProps('email')} />
            <PermissionPicker value={form.values.permissions} onChange={(v) => form.setFieldValue('permissions', v)} />
            <Button type="submit" loading={form.submitting} w="fit-content">
              Send invitation
            </Button>
            <FormError message={serverError} />
          </Stack>
        </form>
        {invitations.isSuccess && invitations.data.length > 0 && (
          <Stack gap={4} mt="lg">
            <Text fw={500}>Open invitations</Text>
            {invitations.data.map((i) => (
              <Text key={i.id} size="sm" c="dimmed">
                {i.email} · {permissionNames(i.permissions) || 'no permissions'}
              </Text>
            ))}
          </Stack>
        )}
      </Card>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={`Permissions of ${editing?.name ?? ''}`}>
        <Stack gap="md">
          <PermissionPicker value={permissions} onChange={setPermissions} />
          <Button onClick={() => save.mutate()} loading={save.isPending} w="fit-content">
            Save
          </Button>
        </Stack>
      </Modal>
    </Stack>
  );
}
