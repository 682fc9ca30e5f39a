import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { isApiError } from '../api';
import { confirmText, type ConfirmText } from './confirm';

/**
 * The "Are you sure?" dialog before a list row is deleted: open while item is set. remove deletes the row by id and
 * answers the message to show; the list under queryKey is read afresh after it. texts overrides the dialog's words
 * (a revocation is not a deletion).
 */
export function ConfirmDelete({
  item,
  onClose,
  remove,
  queryKey,
  texts,
}: {
  item: { id: number; name: string } | null;
  onClose: () => void;
  remove: (id: number) => Promise<string>;
  queryKey: QueryKey;
  texts?: Partial<ConfirmText>;
}) {
  const queryClient = useQueryClient();
  const text = confirmText(texts);
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: async (message) => {
      notifications.show({ color: 'green', message });
      onClose();
      await queryClient.invalidateQueries({ queryKey });
    },
    onError: (error) => notifications.show({ color: 'red', message: isApiError(error) ? error.message : String(error) }),
  });
  return (
    <Modal opened={item !== null} onClose={onClose} title={text.title}>
      <Stack gap="md">
        <Text>
          {item?.name}: {text.text}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {text.cancelLabel}
          </Button>
          <Button color="red" loading={mutation.isPending} onClick={() => item && mutation.mutate(item.id)}>
            {text.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
