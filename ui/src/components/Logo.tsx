import { Group, Text } from '@mantine/core';

interface LogoProps {
  size?: number;
}

/** The Pressroom mark and word. */
export function Logo({ size = 28 }: LogoProps) {
  return (
    <Group gap={10} wrap="nowrap">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="7" fill="var(--mantine-color-indigo-6)" />
        <path d="M10 24V8h7.2c3.6 0 5.8 2 5.8 5.1s-2.2 5.1-5.8 5.1H14V24z" fill="#fff" />
        <path d="M14 11.3v3.7h3c1.3 0 2-.7 2-1.85S18.3 11.3 17 11.3z" fill="var(--mantine-color-indigo-6)" />
      </svg>
      <Text component="span" fw={700} fz={size * 0.7} lh={1} style={{ letterSpacing: '-0.02em' }}>
        Pressroom
      </Text>
    </Group>
  );
}
