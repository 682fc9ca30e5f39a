import { Alert, Anchor, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { DesignExport, ExportStatus, Product } from '../api/campaigns';
import { formatBytes, type ExportProgress } from './editorState';
import { LabelBadge } from '../components/LabelBadge';
import { QUALITY_LOOK } from '../print/quality';

const STATUS_COLOR: Readonly<Record<ExportStatus, string>> = {
  none: 'gray',
  pending: 'blue',
  rendering: 'blue',
  done: 'green',
  failed: 'red',
};

const STATUS_LABEL: Readonly<Record<ExportStatus, string>> = {
  none: 'Not exported',
  pending: 'Waiting',
  rendering: 'Rendering',
  done: 'Ready',
  failed: 'Failed',
};

/** A finished print file: size, declared DPI, weight, the DPI report per image, font fallbacks and warnings. */
function PrintFile({ file }: { file: DesignExport }) {
  const report = file.report;
  return (
    <Stack gap={6}>
      <Group gap="md">
        <Text size="sm" data-testid="print-file-meta">
          {file.width}×{file.height} px · {file.dpi} DPI · {formatBytes(file.file_size)}
        </Text>
        {file.download_url && (
          <Anchor href={file.download_url} download size="sm" title={file.file_name}>
            <Group gap={4} component="span">
              <IconDownload size={14} />
              Download
            </Group>
          </Anchor>
        )}
      </Group>
      {report && report.dpi.objects.length > 0 && (
        <Table withRowBorders={false} verticalSpacing={2} fz="xs" data-testid="dpi-report">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Image</Table.Th>
              <Table.Th>Source</Table.Th>
              <Table.Th>Placed</Table.Th>
              <Table.Th>Effective DPI</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.dpi.objects.map((o) => (
              <Table.Tr key={o.id}>
                <Table.Td>{o.id}</Table.Td>
                <Table.Td>
                  {o.source_width}×{o.source_height}
                </Table.Td>
                <Table.Td>
                  {Math.round(o.placed_width)}×{Math.round(o.placed_height)}
                </Table.Td>
                <Table.Td>
                  <LabelBadge size="xs" color={QUALITY_LOOK[o.quality].color} code={o.quality}>
                    {Math.floor(o.effective_dpi)} · {QUALITY_LOOK[o.quality].label}
                  </LabelBadge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {report?.font_fallbacks.map((f) => (
        <Text key={`font-${f.object_id}`} size="xs" c="orange">
          {f.object_id}: drawn in Roboto instead of {f.requested} ({f.reason})
        </Text>
      ))}
      {report?.warnings.map((w, i) => (
        <Text key={`warning-${i}`} size="xs" c="orange">
          {w.object_id}: {w.message}
        </Text>
      ))}
    </Stack>
  );
}

interface ExportPanelProps {
  exports: readonly DesignExport[];
  products: readonly Product[];
  progress: ExportProgress;
  error: Error | null;
}

/** The print files of the campaign's designs, as the export after each save makes them. */
export function ExportPanel({ exports, products, progress, error }: ExportPanelProps) {
  return (
    <Card withBorder radius="lg" padding="lg">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h4">
          Print files
        </Title>
        {progress.total > 0 && (
          <Group gap="xs" data-testid="export-progress">
            {!progress.settled && <Loader size="xs" />}
            <Text size="sm" c="dimmed">
              {progress.done} of {progress.total} ready{progress.failed > 0 ? `, ${progress.failed} failed` : ''}
            </Text>
          </Group>
        )}
      </Group>
      {error && (
        <Alert color="red" mb="sm">
          {error.message}
        </Alert>
      )}
      {exports.length === 0 ? (
        <Text c="dimmed" size="sm">
          Save the campaign to make its print files.
        </Text>
      ) : (
        <Stack gap="md">
          {exports.map((e) => {
            const product = products.find((p) => p.id === e.product_id)?.name ?? `Product ${e.product_id}`;
            return (
              <Stack key={e.design_id} gap={4} data-testid="export-row" data-print-space={e.print_space} data-status={e.status}>
                <Group gap="sm">
                  <Text fw={500} size="sm">
                    {product} · {e.print_space}
                  </Text>
                  <LabelBadge size="sm" color={STATUS_COLOR[e.status]}>
                    {STATUS_LABEL[e.status]}
                  </LabelBadge>
                  {(e.status === 'pending' || e.status === 'rendering') && <Loader size="xs" />}
                </Group>
                {e.status === 'failed' && (
                  <Text size="sm" c="red">
                    {e.error}
                  </Text>
                )}
                {e.status === 'done' && (
                  <PrintFile file={e} />
                )}
              </Stack>
            );
          })}
        </Stack>
      )}
    </Card>
  );
}
