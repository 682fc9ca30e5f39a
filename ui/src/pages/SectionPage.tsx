import { Card, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { MenuSection } from '../navigation/sections';

interface SectionPageProps {
  section: MenuSection;
}

/** The honest placeholder of a section whose screens a later issue builds. */
export function SectionPage({ section }: SectionPageProps) {
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} fz="h2">
        {section.label}
      </Title>
      <Card withBorder radius="lg" padding="xl">
        <Stack align="center" gap="sm" py="xl">
          <ThemeIcon size={56} radius="xl" variant="light">
            <section.icon size={28} stroke={1.5} />
          </ThemeIcon>
          <Title order={2} fz="h4">
            Coming soon
          </Title>
          <Text c="dimmed" ta="center" maw={420}>
            {section.label} is not available in Pressroom yet. It will appear here as soon as it ships.
          </Text>
        </Stack>
      </Card>
    </Stack>
  );
}
