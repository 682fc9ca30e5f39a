import { describeValues } from '../editor/personalize';
import { Code, Group, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { ReviewEvent, ReviewItem, ReviewStatus } from '../api/review';
import { formatBytes } from '../campaigns/editorState';
import { LabelBadge } from '../components/LabelBadge';
import { QUALITY_LOOK } from '../print/quality';

/** A review item's status in words. */
const REVIEW_STATUS_LABELS: Record<ReviewStatus, string> = {
  designing: 'Being designed',
  reviewing: 'To review',
  approved: 'Approved',
  rejected: 'Rejected',
};

const STATUS_COLOR: Record<ReviewStatus, string> = {
  designing: 'gray',
  reviewing: 'blue',
  approved: 'green',
  rejected: 'red',
};

export function StatusBadge({ status }: { status: ReviewStatus }) {
  return (
    <LabelBadge color={STATUS_COLOR[status]} data-testid="review-status" code={status}>
      {REVIEW_STATUS_LABELS[status]}
    </LabelBadge>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={6}>
      <Title order={3} fz="sm" tt="uppercase" c="dimmed">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} data-testid={testId}>
        {children}
      </Text>
    </Group>
  );
}

/** What the renderer measured of the print file, against what the print space asks for. */
export function FactsPanel({ item }: { item: ReviewItem }) {
  const space = item.print_space;
  const sizeOK = item.width === space.width && item.height === space.height;
  return (
    <Section title="Print file">
      <Fact label="Dimensions" testId="fact-dimensions">
        {item.width !== null && item.height !== null ? `${item.width} × ${item.height} px` : '–'}{' '}
        {item.width !== null && (
          <LabelBadge size="xs" color={sizeOK ? 'green' : 'red'}>
            {sizeOK ? 'matches print area' : `print area ${space.width} × ${space.height}`}
          </LabelBadge>
        )}
      </Fact>
      <Fact label="Declared DPI" testId="fact-dpi">
        {item.declared_dpi !== null ? `${Math.round(item.declared_dpi)} (print space ${space.dpi})` : 'none'}
      </Fact>
      <Fact label="File size" testId="fact-size">
        {item.byte_size !== null ? formatBytes(item.byte_size) : '–'}
      </Fact>
      <Fact label="Metadata stripped" testId="fact-stripped">
        {item.stripped === null ? (
          '–'
        ) : item.stripped ? (
          <Group gap={4} c="green" component="span">
            <IconCheck size={14} /> yes
          </Group>
        ) : (
          <Group gap={4} c="red" component="span">
            <IconX size={14} /> text chunks left
          </Group>
        )}
      </Fact>
    </Section>
  );
}

/** The effective DPI of every placed image, rated good, normal or low (renderer/dpi). */
export function DpiPanel({ item }: { item: ReviewItem }) {
  const report = item.dpi_report;
  return (
    <Section title="Resolution">
      {!report ? (
        <Text size="sm" c="dimmed">
          No report: the print file was uploaded, not rendered from the design.
        </Text>
      ) : report.objects.length === 0 ? (
        <Text size="sm" c="dimmed">
          The design has no images.
        </Text>
      ) : (
        <Table withRowBorders={false} verticalSpacing={2} horizontalSpacing="xs" data-testid="dpi-report">
          <Table.Tbody>
            {report.objects.map((o) => (
              <Table.Tr key={o.id}>
                <Table.Td>
                  <Text size="sm">{o.id}</Text>
                  <Text size="xs" c="dimmed">
                    {o.source_width} × {o.source_height} px placed at {Math.round(o.placed_width)} × {Math.round(o.placed_height)}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" fw={500}>
                    {Math.round(o.effective_dpi)} DPI
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <LabelBadge color={QUALITY_LOOK[o.quality].color} code={o.quality}>
                    {QUALITY_LOOK[o.quality].label}
                  </LabelBadge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Section>
  );
}

export function PersonalizationPanel({ item }: { item: ReviewItem }) {
  const values = describeValues(item.personalization);
  return (
    <Section title="Personalization">
      {values.length === 0 && (
        <Text size="sm" c="dimmed">
          None.
        </Text>
      )}
      {values.map((v, i) => (
        <Fact key={`${v.label}:${i}`} label={v.label}>
          <Code>{v.value}</Code>
        </Fact>
      ))}
    </Section>
  );
}

export function DesignPanel({ item }: { item: ReviewItem }) {
  return (
    <Section title="Design document">
      <ScrollArea.Autosize mah={260}>
        <Code block data-testid="design-document">
          {JSON.stringify(item.design ?? null, null, 2)}
        </Code>
      </ScrollArea.Autosize>
    </Section>
  );
}

const ACTION_LABEL: Record<ReviewEvent['action'], string> = {
  approve: 'approved',
  reject: 'rejected',
  replace: 'replaced the print file',
  rerender: 're-rendered',
};

export function HistoryPanel({ item }: { item: ReviewItem }) {
  const events = item.events ?? [];
  return (
    <Section title="History">
      {events.length === 0 ? (
        <Text size="sm" c="dimmed">
          No actions yet.
        </Text>
      ) : (
        events.map((e) => (
          <Stack key={e.id} gap={0} data-testid="review-event">
            <Text size="sm">
              <strong>{e.user_name || 'Someone'}</strong> {ACTION_LABEL[e.action]} revision {e.revision}
            </Text>
            <Text size="xs" c="dimmed">
              {new Date(e.created_at).toLocaleString()}
            </Text>
            {e.comment && <Text size="sm">“{e.comment}”</Text>}
          </Stack>
        ))
      )}
    </Section>
  );
}
