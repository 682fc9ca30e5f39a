import { Card, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';

interface SectionPageProps {
  /** The page's name, as the menu or the route list calls it. */
  title: string;
  icon: Icon;
}

/** The honest placeholder of a section whose screens a later issue builds. */
export function SectionPage({ title, icon: PageIcon }: SectionPageProps) {
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} fz="h2">
        {title}
      </Title>
      <Card withBorder radius="lg" padding="xl">
        <Stack align="center" gap="sm" py="xl">
          <ThemeIcon size={56} radius="xl" variant="light">
            <PageIcon size={28} stroke={1.5} />
          </ThemeIcon>
          <Title order={2} fz="h4">
            Coming soon
          </Title>
          <Text c="dimmed" ta="center" maw={420}>
            {title} is not available in Pressroom yet. It will appear here as soon as it ships.
          </Text>
        </Stack>
      </Card>
    </Stack>
  );
}
