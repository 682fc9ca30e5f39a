import { Tooltip } from '@mantine/core';
import type { Quality } from '../editor/model';
import { LabelBadge } from '../components/LabelBadge';
import { QUALITY_LOOK } from '../print/quality';

interface ResolutionBadgeProps {
  /** model.resolution of the print space's document; null when it holds no image of known size. */
  value: { quality: Quality; minDpi: number } | null;
  dpi: number;
  minDpi: number;
}

/** The resolution check of the current print space (docs/editor.md): good, normal or low, with the lowest effective DPI. */
export function ResolutionBadge({ value, dpi, minDpi }: ResolutionBadgeProps) {
  if (!value) return null;
  const look = QUALITY_LOOK[value.quality];
  return (
    <Tooltip label={`Good from ${(dpi + minDpi) / 2} DPI, low below ${minDpi} DPI (print at ${dpi} DPI)`}>
      <LabelBadge color={look.color} size="lg" data-testid="resolution-badge" data-quality={value.quality}>
        {look.label} resolution · {Math.floor(value.minDpi)} DPI
      </LabelBadge>
    </Tooltip>
  );
}
