import { Button, Group, Image, Stack, Text, Typography } from '@mantine/core';
import { IconAlertTriangle, IconExternalLink } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Notification } from '../api/notifications';

/** When a notification was posted, in the browser's locale. */
export function PostedAt({ notification }: { notification: Pick<Notification, 'created_at'> }) {
  return (
    <Text size="xs" c="dimmed">
      {new Date(notification.created_at).toLocaleString()}
    </Text>
  );
}

/** Whether a call-to-action link stays in the app (a path) rather than leaving it. */
const inApp = (link: string) => link.startsWith('/') && !link.startsWith('//');

/** The call-to-action button: an in-app path opens here, an address in a new tab. */
export function CallToAction({ link }: { link: string }) {
  if (!link) return null;
  if (inApp(link)) {
    return (
      <Button component={Link} to={link} variant="light" size="xs">
        Learn more
      </Button>
    );
  }
  return (
    <Button
      component="a"
      href={link}
      target="_blank"
      rel="noopener noreferrer"
      variant="light"
      size="xs"
      rightSection={<IconExternalLink size={14} />}
    >
      Learn more
    </Button>
  );
}

/** A warning mark for notifications flagged is_warning. */
export function WarningMark() {
  return <IconAlertTriangle size={16} color="var(--mantine-color-orange-6)" aria-label="Warning" role="img" />;
}

/**
 * The body of a notification: image, HTML message and call to action. The message is rendered as
 * HTML because the bff sanitizes it when it is stored and again when it is served
 * (bff/notifications, bluemonday's UGC policy): no scripts, event handlers or javascript: links.
 */
export function NotificationBody({ notification }: { notification: Notification }) {
  return (
    <Stack gap="sm">
      {notification.image && <Image src={notification.image} alt="" radius="md" mah={240} fit="contain" />}
      <Typography>
        <div data-testid="notification-message" dangerouslySetInnerHTML={{ __html: notification.message }} />
      </Typography>
      <Group justify="space-between" align="center">
        <PostedAt notification={notification} />
        <CallToAction link={notification.call_to_action_link} />
      </Group>
    </Stack>
  );
}

/** The subject line with the warning mark. */
export function Subject({ notification, strong = false }: { notification: Notification; strong?: boolean }) {
  return (
    <Group gap={6} wrap="nowrap" align="center">
      {notification.is_warning && <WarningMark />}
      <Text fw={strong ? 600 : 500} size="sm" lineClamp={2}>
        {notification.subject}
      </Text>
    </Group>
  );
}


/** The subject as phrasing content, for inside a heading: the warning mark, then the text. */
export function SubjectLine({ notification }: { notification: Notification }) {
  return (
    <>
      {notification.is_warning && (
        <>
          <WarningMark />{' '}
        </>
      )}
      {notification.subject}
    </>
  );
}
