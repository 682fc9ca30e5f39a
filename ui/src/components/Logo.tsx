import { Group, Text } from '@mantine/core';
import { useBrand, type BrandKind } from '../systemconfig/platform';

interface LogoProps {
  size?: number;
}

/** The mark's colour per brand. */
const MARK_COLOR: Readonly<Record<BrandKind, string>> = {
  default: 'var(--mantine-color-indigo-6)',
  second: 'var(--mantine-color-teal-7)',
  seller_centre: 'var(--mantine-color-orange-7)',
};

/** The mark and name of the brand this host carries: Pressroom, the second brand or the seller centre. */
export function Logo({ size = 28 }: LogoProps) {
  const brand = useBrand();
  const initial = brand.name.trim().charAt(0).toUpperCase();
  return (
    <Group gap={10} wrap="nowrap" data-testid="brand" data-brand={brand.kind}>
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="7" fill={MARK_COLOR[brand.kind]} />
        {brand.kind === 'default' ? (
          <>
            <path d="M10 24V8h7.2c3.6 0 5.8 2 5.8 5.1s-2.2 5.1-5.8 5.1H14V24z" fill="#fff" />
            <path d="M14 11.3v3.7h3c1.3 0 2-.7 2-1.85S18.3 11.3 17 11.3z" fill={MARK_COLOR.default} />
          </>
        ) : (
          <text
            x="16"
            y="17"
            textAnchor="middle"
            dominantBaseline="central"
            fontSize="19"
            fontWeight="800"
            fontFamily="inherit"
            fill="#fff"
          >
            {initial}
          </text>
        )}
      </svg>
      <Text component="span" fw={700} fz={size * 0.7} lh={1} style={{ letterSpacing: '-0.02em' }}>
        {brand.name}
      </Text>
    </Group>
  );
}
