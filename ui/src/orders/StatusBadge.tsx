import { Badge } from '@mantine/core';
import { label, statusColor } from './labels';

/** A status in words, in full: the badge grows with its label and is never cut. */
export function StatusBadge({ table, code }: { table: Readonly<Record<string, string>>; code: string }) {
  return (
    <Badge
      variant="light"
      color={statusColor(code)}
      miw="max-content"
      styles={{ root: { flexShrink: 0 }, label: { overflow: 'visible', textOverflow: 'clip' } }}
    >
      {label(table, code)}
    </Badge>
  );
}
