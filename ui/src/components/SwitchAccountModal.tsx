import { Avatar, Button, Checkbox, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api';
import { switchAccount, TfaDiffError } from '../api/account';
import { adoptSession, authorizedAccountsQuery, dismissAccountModal } from '../session/switching';
import { label } from '../format/labels';

interface SwitchAccountModalProps {
  opened: boolean;
  onClose: () => void;
  /** Shown after login (ref=login): offers "Never show again". */
  afterLogin?: boolean;
}

/** The select-account modal: the seller accounts the user may switch into. */
export function SwitchAccountModal({ opened, onClose, afterLogin = false }: SwitchAccountModalProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const accounts = useQuery({ ...authorizedAccountsQuery, enabled: opened });
  const [switching, setSwitching] = useState<number | null>(null);
  const [neverShow, setNeverShow] = useState(false);

  const close = () => {
    if (neverShow) dismissAccountModal();
    onClose();
  };

  const choose = async (sellerId: number) => {
    setSwitching(sellerId);
    try {
      const { message, token } = await switchAccount(api, sellerId);
      await adoptSession(queryClient, token);
      close();
      notifications.show({ color: 'green', message });
      await navigate('/', { replace: true });
    } catch (error) {
      if (error instanceof TfaDiffError) {
        close();
        notifications.show({ color: 'yellow', message: error.message });
        await navigate('/settings/general?current_tab=2fa');
        return;
      }
      const message = error instanceof Error && error.message ? error.message : 'Cannot switch to new account.';
      notifications.show({ color: 'red', title: 'Cannot switch to new account.', message });
    } finally {
      setSwitching(null);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Select account" centered>
      <Stack gap="sm">
        {accounts.isPending && <Loader aria-label="Loading accounts" mx="auto" />}
        {accounts.isSuccess && accounts.data.length === 0 && (
          <Text c="dimmed" ta="center" py="md">
            Oops! No entries found.
          </Text>
        )}
        {accounts.data?.map((account) => (
          <Group key={account.seller_id} justify="space-between" wrap="nowrap" data-testid="authorized-account">
            <Group gap="sm" wrap="nowrap">
              <Avatar src={account.avatar} name={account.name} color="initials" radius="xl" />
              <Stack gap={0}>
                <Text fw={500}>{account.name}</Text>
                <Text size="xs" c="dimmed" title={account.role}>
                  {label({}, account.role)}
                </Text>
              </Stack>
            </Group>
            <Button
              size="xs"
              loading={switching === account.seller_id}
              disabled={switching !== null && switching !== account.seller_id}
              onClick={() => void choose(account.seller_id)}
              aria-label={`Switch to ${account.name}`}
            >
              Switch
            </Button>
          </Group>
        ))}
        {afterLogin && (
          <Checkbox
            label="Never show again"
            checked={neverShow}
            onChange={(event) => setNeverShow(event.currentTarget.checked)}
            mt="sm"
          />
        )}
      </Stack>
    </Modal>
  );
}
