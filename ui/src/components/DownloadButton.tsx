import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { isApiError } from '../api';

/**
 * "Export CSV" (or `label`): fetches a file (a list's export with its filters, an invoice's PDF) through `load` and
 * saves it as `fileName` (a function names it when the download starts); a refusal shows its message.
 */
export function DownloadButton({
  load,
  fileName,
  label = 'Export CSV',
  disabled = false,
  size,
}: {
  load: () => Promise<Blob>;
  fileName: string | (() => string);
  label?: string;
  disabled?: boolean;
  /** The button's size where it sits among a row's small buttons (Mantine's default otherwise). */
  size?: 'xs' | 'sm';
}) {
  const [exporting, setExporting] = useState(false);
  const download = async () => {
    setExporting(true);
    try {
      const url = URL.createObjectURL(await load());
      const a = document.createElement('a');
      a.href = url;
      a.download = typeof fileName === 'function' ? fileName() : fileName;
      a.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      notifications.show({ color: 'red', message: isApiError(error) ? error.message : String(error) });
    } finally {
      setExporting(false);
    }
  };
  return (
    <Button leftSection={<IconDownload size={16} />} variant="light" size={size} loading={exporting} disabled={disabled} onClick={() => void download()}>
      {label}
    </Button>
  );
}
