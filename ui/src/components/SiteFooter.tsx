import { Text } from '@mantine/core';

/** The one-line footer shared by all layouts. */
export function SiteFooter() {
  return (
    <Text size="xs" c="dimmed">
      © {new Date().getFullYear()} Pressroom · Seller Dashboard
    </Text>
  );
}
