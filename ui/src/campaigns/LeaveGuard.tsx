import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { confirmText } from '../feedback/confirm';

const TEXT = confirmText({
  title: 'Leave without saving?',
  text: 'Your changes to this campaign are not saved and will be lost.',
  confirmLabel: 'Leave',
  cancelLabel: 'Stay',
});

/**
 * Asks before leaving a page with unsaved changes: a confirm dialog for navigation inside the app, the
 * browser's own prompt for a reload or a closed tab.
 */
export function LeaveGuard({ when }: { when: boolean }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!when) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [when]);

  return (
    <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title={TEXT.title}>
      <Stack gap="md">
        <Text>{TEXT.text}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => blocker.reset?.()}>
            {TEXT.cancelLabel}
          </Button>
          <Button color="red" onClick={() => blocker.proceed?.()}>
            {TEXT.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
