import { Button, Checkbox, Group, Modal, Stack } from '@mantine/core';
import { notifications as toasts } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, isApiError } from '../api';
import {
  popupNotifications,
  READ_STATUS_DISMISS,
  READ_STATUS_SEEN,
  sendReadStatus,
  type Notification,
} from '../api/notifications';
import { NotificationBody, SubjectLine } from './NotificationContent';
import {
  closeReports,
  hidePopupForADay,
  markPopupShown,
  mayFetchPopup,
  popupStorage,
  readDismissed,
  rememberDismissed,
  withoutDismissed,
  type KeyValue,
} from './popupRules';
import { LabelBadge } from '../components/LabelBadge';

function reportFailure(error: unknown) {
  toasts.show({ color: 'red', message: isApiError(error) ? error.message : 'Something went wrong.' });
}

/** Steps through `list` with Back and Next; the last step shows Close. */
function PopupSteps({ list, storage }: { list: Notification[]; storage: KeyValue | null }) {
  const [opened, setOpened] = useState(true);
  const [step, setStep] = useState(0);
  const [furthest, setFurthest] = useState(0);
  const [ticked, setTicked] = useState<ReadonlySet<number>>(new Set());
  useEffect(() => markPopupShown(storage), [storage]);

  const current = list[step]!;
  const last = step === list.length - 1;
  const close = () => {
    const shown = list.slice(0, furthest + 1);
    const { dismissed, seen } = closeReports(shown, ticked);
    rememberDismissed(storage, shown.filter((n) => ticked.has(n.id)));
    if (dismissed.length > 0) sendReadStatus(api, dismissed, READ_STATUS_DISMISS).catch(reportFailure);
    if (seen.length > 0) sendReadStatus(api, seen, READ_STATUS_SEEN).catch(reportFailure);
    setOpened(false);
  };
  const go = (to: number) => {
    setStep(to);
    setFurthest((f) => Math.max(f, to));
  };
  const tick = (checked: boolean) =>
    setTicked((t) => {
      const next = new Set(t);
      if (checked) next.add(current.id);
      else next.delete(current.id);
      return next;
    });

  return (
    <Modal
      opened={opened}
      onClose={close}
      size="lg"
      centered
      title={<SubjectLine notification={current} />}
      data-testid="notification-popup"
    >
      <Stack gap="md">
        <NotificationBody notification={current} />
        <Checkbox
          label="Don't show this notification"
          checked={ticked.has(current.id)}
          onChange={(event) => tick(event.currentTarget.checked)}
        />
        <Group justify="space-between">
          <Group gap="xs">
            <LabelBadge data-testid="notification-popup-step">
              {step + 1} / {list.length}
            </LabelBadge>
            <Button
              variant="subtle"
              size="xs"
              color="gray"
              onClick={() => {
                hidePopupForADay(storage);
                close();
              }}
            >
              Hide for a day
            </Button>
          </Group>
          <Group gap="xs">
            <Button variant="default" disabled={step === 0} onClick={() => go(step - 1)}>
              Back
            </Button>
            {last ? <Button onClick={close}>Close</Button> : <Button onClick={() => go(step + 1)}>Next</Button>}
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * The new-notifications popup of the default layout. `allowed` is the menu gate
 * `notifications_popup` (false for the hide-notify-modal tag); the cooldown and hide flag are read
 * once per page load, so a closed popup stays closed until the next load after the cooldown.
 */
export function NotificationPopup({ allowed, storage = popupStorage() }: { allowed: boolean; storage?: KeyValue | null }) {
  const [enabled] = useState(() => mayFetchPopup(storage, allowed));
  // Its own key, outside ['notifications']: reading a notification elsewhere must not change the
  // list the user is stepping through.
  const popup = useQuery({
    queryKey: ['notification-popup'],
    queryFn: async ({ signal }) => withoutDismissed(await popupNotifications(api, signal), readDismissed(storage)),
    enabled,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
  });
  // Cached answers outlive a remount; only a load that passed the rules shows them.
  if (!enabled || !popup.data || popup.data.length === 0) return null;
  return <PopupSteps list={popup.data} storage={storage} />;
}
