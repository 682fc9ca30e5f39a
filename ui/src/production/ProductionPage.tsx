import { Alert, Button, Card, Code, FileButton, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTruckDelivery, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, isApiError } from '../api';
import { produceOrder, productionBatch, productionQueue, shipItem, uploadTracking, type QueueItem, type TrackingRow } from '../api/production';
import { DownloadButton } from '../components/DownloadButton';
import { ListPager, ListTotal, PagedListCard } from '../components/PagedList';
import { formatDateTime } from '../format/dateTime';
import { ORDER_STATUS_LABELS } from '../orders/labels';
import { StatusBadge } from '../orders/StatusBadge';
import { useSessionUser } from '../session/useSessionUser';
import { plural } from '../format/plural';

const PRODUCTION_KEY = ['production'] as const;

const failure = (e: unknown) => notifications.show({ color: 'red', message: isApiError(e) ? e.message : String(e) });

/** Carrier and tracking for one item, shipped through the admin's ship action. */
function ShipDialog({ item, onClose }: { item: QueueItem; onClose: () => void }) {
  const client = useQueryClient();
  const [carrier, setCarrier] = useState('');
  const [tracking, setTracking] = useState('');
  const [url, setUrl] = useState('');
  const [error, setError] = useState<{ field?: string; message: string } | null>(null);
  const ship = useMutation({
    mutationFn: () => shipItem(api, item.order_id, item.item_id, { carrier: carrier.trim(), tracking_number: tracking.trim(), tracking_url: url.trim() }),
    onSuccess: ({ message }) => {
      notifications.show({ color: 'green', message });
      void client.invalidateQueries({ queryKey: PRODUCTION_KEY });
      onClose();
    },
    onError: (e) => {
      if (!isApiError(e)) return setError({ message: String(e) });
      const field = ['carrier', 'tracking_number', 'tracking_url'].find((f) => e.fieldMessage(f));
      setError({ field, message: (field && e.fieldMessage(field)) || e.message });
    },
  });
  const fieldError = (f: string) => (error?.field === f ? error.message : undefined);
  return (
    <Modal opened onClose={onClose} title={`Ship ${item.product_name} of order #${item.order_number}`}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          ship.mutate();
        }}
      >
        <Stack>
          <TextInput label="Carrier" value={carrier} onChange={(e) => setCarrier(e.currentTarget.value)} error={fieldError('carrier')} />
          <TextInput
            label="Tracking number"
            value={tracking}
            onChange={(e) => setTracking(e.currentTarget.value)}
            error={fieldError('tracking_number')}
          />
          <TextInput label="Tracking link" placeholder="https://" value={url} onChange={(e) => setUrl(e.currentTarget.value)} error={fieldError('tracking_url')} />
          {error && !error.field && <Alert color="red">{error.message}</Alert>}
          <Group justify="flex-end">
            <Button type="submit" loading={ship.isPending}>
              Ship
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A tracking CSV sent for shipping, and the report of each of its lines. */
function TrackingUpload() {
  const client = useQueryClient();
  const [report, setReport] = useState<TrackingRow[] | null>(null);
  const upload = useMutation({
    mutationFn: async (file: File) => uploadTracking(api, await file.text()),
    onSuccess: (rows) => {
      setReport(rows);
      void client.invalidateQueries({ queryKey: PRODUCTION_KEY });
    },
    onError: failure,
  });
  const shipped = report?.filter((r) => r.ok).length ?? 0;
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Group justify="space-between">
          <div>
            <Title order={2} fz="h4">
              Tracking by CSV
            </Title>
            <Text size="sm" c="dimmed">
              Columns <Code>order_number</Code>, <Code>carrier</Code>, <Code>tracking_number</Code> and optionally{' '}
              <Code>tracking_url</Code>; each line ships its order.
            </Text>
          </div>
          <FileButton onChange={(file) => file && upload.mutate(file)} accept=".csv,text/csv">
            {(props) => (
              <Button {...props} variant="light" leftSection={<IconUpload size={16} />} loading={upload.isPending}>
                Upload tracking CSV
              </Button>
            )}
          </FileButton>
        </Group>
        {report && (
          <>
            <Text size="sm" data-testid="tracking-summary">
              {shipped} of {plural(report.length, 'line')} shipped.
            </Text>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Line</Table.Th>
                  <Table.Th>Order</Table.Th>
                  <Table.Th>Result</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {report.map((r) => (
                  <Table.Tr key={r.line} data-testid="tracking-line">
                    <Table.Td>{r.line}</Table.Td>
                    <Table.Td>{r.order_number}</Table.Td>
                    <Table.Td c={r.ok ? 'green' : 'red'}>{r.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </>
        )}
      </Stack>
    </Card>
  );
}

/**
 * `/system/production`: the admins' print room. The items ready to print (paid, every print file approved, not
 * shipped; an empty queue says "No entries found"), the day's batch of print files with its manifest, moving orders into production, and shipping by item
 * or by a tracking CSV.
 */
export function ProductionPage() {
  const user = useSessionUser();
  const client = useQueryClient();
  const [page, setPage] = useState(1);
  const [day, setDay] = useState('');
  const [shipping, setShipping] = useState<QueueItem | null>(null);
  const list = useQuery({ queryKey: [...PRODUCTION_KEY, page], queryFn: ({ signal }) => productionQueue(api, page, signal) });
  const produce = useMutation({
    mutationFn: (orderId: number) => produceOrder(api, orderId),
    onSuccess: ({ message }) => {
      notifications.show({ color: 'green', message });
      void client.invalidateQueries({ queryKey: PRODUCTION_KEY });
    },
    onError: failure,
  });
  return (
    <Stack gap="lg" maw={1300}>
      <Title order={1} fz="h2">
        Production
      </Title>
      <Group align="flex-end">
        <TextInput
          type="date"
          label="Day of the orders"
          description="Empty: everything ready to print"
          value={day}
          onChange={(e) => setDay(e.currentTarget.value)}
          w={220}
        />
        <DownloadButton
          label="Download print files"
          load={() => productionBatch(api, day)}
          fileName={() => `production-${day || new Date().toISOString().slice(0, 10)}.zip`}
        />
      </Group>
      <PagedListCard list={list} loadingLabel="Loading the production queue">
        {(rows) => (
            <Table verticalSpacing="sm" horizontalSpacing="md">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Order</Table.Th>
                  <Table.Th>Seller</Table.Th>
                  <Table.Th>Ordered</Table.Th>
                  <Table.Th>Product</Table.Th>
                  <Table.Th>Colour · size</Table.Th>
                  <Table.Th ta="right">Quantity</Table.Th>
                  <Table.Th ta="right">Print files</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((it) => (
                  <Table.Tr key={it.item_id} data-testid="production-item">
                    <Table.Td>#{it.order_number}</Table.Td>
                    <Table.Td>{it.seller_name}</Table.Td>
                    <Table.Td>{formatDateTime(it.created_at, user.timezone)}</Table.Td>
                    <Table.Td>{it.product_name}</Table.Td>
                    <Table.Td>{[it.color, it.size].filter(Boolean).join(' · ')}</Table.Td>
                    <Table.Td ta="right">{it.quantity}</Table.Td>
                    <Table.Td ta="right">{it.print_files}</Table.Td>
                    <Table.Td>
                      <StatusBadge table={ORDER_STATUS_LABELS} code={it.order_status} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap" justify="flex-end">
                        {it.order_status === 'pending' && (
                          <Button
                            size="compact-sm"
                            variant="light"
                            loading={produce.isPending && produce.variables === it.order_id}
                            onClick={() => produce.mutate(it.order_id)}
                          >
                            Start production
                          </Button>
                        )}
                        <Button size="compact-sm" variant="subtle" leftSection={<IconTruckDelivery size={14} />} onClick={() => setShipping(it)}>
                          Ship
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
        )}
      </PagedListCard>
      <ListTotal total={list.data?.total} one="item ready to print" many="items ready to print" />
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
      <TrackingUpload />
      {shipping && <ShipDialog item={shipping} onClose={() => setShipping(null)} />}
    </Stack>
  );
}
