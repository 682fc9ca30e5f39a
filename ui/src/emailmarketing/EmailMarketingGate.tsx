import { Button, Card, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { can, currentAccessContext, hasTag, TAGS, visibleMenu } from '../access';
import { PERMISSION_LABELS } from '../pages/team/permissionLabels';
import { useSessionUser } from '../session/useSessionUser';
import { LabelBadge } from '../components/LabelBadge';

/** What the area does, said to someone who cannot open it yet. */
const WHAT_IT_DOES = [
  'Keep a list of subscribers for each store: import them from a CSV file, and let them unsubscribe with one click.',
  "Send e-mail campaigns from your own store domain, with each subscriber's name filled in.",
  'Remind buyers of the cart they left with up to three abandoned-checkout e-mails and a discount code.',
  'Copy your subscribers to Klaviyo.',
];

/**
 * The email-marketing pages need the "email marketing" tag and update_campaign: the same rule as the
 * menu item, so a user who cannot see the item cannot open its pages either (the bff checks it again
 * on every call). Instead of a bare refusal, the page says what the area does and what is missing.
 */
export function EmailMarketingGate({ children }: { children: ReactNode }) {
  const user = useSessionUser();
  const allowed = useMemo(() => visibleMenu(user, currentAccessContext()).includes('email_marketing'), [user]);
  if (allowed) return children;
  const needsFeature = !hasTag(user, TAGS.emailMarketing);
  const needsPermission = !can(user, 'update_campaign');
  return (
    <Card withBorder radius="lg" padding="xl" maw={720} data-testid="email-marketing-locked">
      <Stack gap="md">
        <Group gap="sm">
          <ThemeIcon variant="light" size="xl" radius="md">
            <IconMail size={24} stroke={1.6} />
          </ThemeIcon>
          <Title order={1} fz="h2">
            E-mail marketing
          </Title>
          <LabelBadge>Beta</LabelBadge>
        </Group>
        <Text>E-mail marketing lets you talk to the people who bought from your stores or asked to hear from them:</Text>
        <List spacing={4} size="sm">
          {WHAT_IT_DOES.map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
        <Title order={2} fz="h4">
          How to get it
        </Title>
        {needsFeature && (
          <Text data-testid="needs-feature">
            The feature is in beta and is switched on account by account. It is not on for this account yet: ask Pressroom
            support to turn on e-mail marketing for it.
          </Text>
        )}
        {needsPermission && (
          <Text data-testid="needs-permission">
            Your access to this account does not include “{PERMISSION_LABELS.update_campaign}”. Ask the account owner to
            give you that permission on their Team page.
          </Text>
        )}
        <Group>
          <Button component={Link} to="/" variant="light">
            Back to home
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
