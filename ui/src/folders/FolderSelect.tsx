import { Select } from '@mantine/core';
import type { Folder } from '../api/folders';

/** The folder a file is in, as a card's menu: outside any folder (null), or one of the seller's folders. */
export function FolderSelect({
  label,
  folders,
  value,
  onChange,
  testId,
}: {
  label: string;
  folders: readonly Folder[];
  value: number | null;
  onChange: (folderId: number | null) => void;
  testId: string;
}) {
  return (
    <Select
      aria-label={label}
      size="xs"
      data={[{ value: '0', label: 'Not in a folder' }, ...folders.map((f) => ({ value: String(f.id), label: f.name }))]}
      value={String(value ?? 0)}
      onChange={(v) => v !== null && onChange(v === '0' ? null : Number(v))}
      allowDeselect={false}
      data-testid={testId}
    />
  );
}
