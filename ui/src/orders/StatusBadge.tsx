import { LabelBadge } from '../components/LabelBadge';
import { label } from '../format/labels';
import { statusColor } from './labels';

/** A status in words, in full (LabelBadge), its code on hover. */
export function StatusBadge({ table, code }: { table: Readonly<Record<string, string>>; code: string }) {
  return (
    <LabelBadge color={statusColor(code)} code={code}>
      {label(table, code)}
    </LabelBadge>
  );
}
