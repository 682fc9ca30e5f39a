import { Badge, type BadgeProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** What keeps a badge's label whole: the badge is as wide as its words, never shrunk by its row, never cut with "…". */
const UNCUT_STYLES = { root: { flexShrink: 0 }, label: { overflow: 'visible', textOverflow: 'clip' } } as const;

type LabelBadgeProps = Omit<BadgeProps, 'styles' | 'miw' | 'title'> & {
  children: ReactNode;
  /** The code the label stands for, in a tooltip (the label is what the screen says). */
  code?: string;
};

/** Every badge of the app: its whole label in words, whatever room its row leaves; the code it stands for on hover. */
export function LabelBadge({ children, code, variant = 'light', ...props }: LabelBadgeProps) {
  return (
    <Badge variant={variant} miw="max-content" styles={UNCUT_STYLES} title={code} data-code={code} {...props}>
      {children}
    </Badge>
  );
}
