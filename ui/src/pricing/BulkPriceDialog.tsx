import { Alert, Button, Group, Modal, ScrollArea, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { api, isApiError } from '../api';
import { applyChange, CHANGE_KINDS, previewChange, type ChangeKind, type ChangeView } from '../api/pricing';
import { FormError } from '../components/FormError';
import { plural } from '../format/plural';
import { formatMoney } from '../orders/labels';
import { PRICING_KEY } from './keys';
import { CHANGE_LABELS } from './labels';

/**
 * "Change prices" of the chosen campaigns in a store: a margin, one price or a percent, previewed size by size (the
 * price now, the new price, what each earns) before it is applied. A change some product cannot take (it would sell
 * below its cost) names each such product and cannot be applied.
 */
export function BulkPriceDialog({
  storeId,
  currency,
  campaignIds,
  opened,
  onClose,
  onApplied,
}: {
  storeId: number;
  currency: string;
  campaignIds: number[];
  opened: boolean;
  onClose: () => void;
  onApplied: () => void;
}) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<ChangeKind>('margin');
  const [value, setValue] = useState('');
  const [preview, setPreview] = useState<ChangeView | null>(null);
  const [valueError, setValueError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = () => ({ store_id: storeId, campaign_ids: campaignIds, change: { kind, value: value.trim() } });

  function fail(e: unknown) {
    const field = isApiError(e) ? e.fieldErrors.find((f) => f.field === 'change.value') : undefined;
    if (field) setValueError(field.message);
    else setError(isApiError(e) ? e.message : String(e));
  }

  async function showPreview() {
    setError(null);
    setValueError(null);
    setBusy(true);
    try {
      setPreview(await previewChange(api, input()));
    } catch (e) {
      setPreview(null);
      fail(e);
    } finally {
      setBusy(false);
    }
  }

  async function apply() {
    setError(null);
    setBusy(true);
    try {
      const { message } = await applyChange(api, input());
      notifications.show({ color: 'green', message });
      await queryClient.invalidateQueries({ queryKey: PRICING_KEY });
      setPreview(null);
      setValue('');
      onApplied();
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  }

  const edit = (next: () => void) => {
    next();
    setPreview(null);
  };
  const what = CHANGE_LABELS[kind];

  return (
    <Modal opened={opened} onClose={onClose} title={`Change the prices of ${plural(campaignIds.length, 'campaign')}`} size="90rem">
      <Stack gap="md">
        <SegmentedControl
          value={kind}
          onChange={(v) => edit(() => setKind(v))}
          data={CHANGE_KINDS.map((k) => ({ value: k, label: CHANGE_LABELS[k].label }))}
          w="fit-content"
        />
        <Group align="flex-end">
          <TextInput
            label={kind === 'percent' ? `${what.value} (%)` : `${what.value} (${currency})`}
            description={what.hint}
            value={value}
            onChange={(e) => {
              const v = e.currentTarget.value;
              edit(() => setValue(v));
            }}
            error={valueError}
            w={380}
          />
          <Button variant="light" onClick={() => void showPreview()} loading={busy && !preview} disabled={value.trim() === ''}>
            Preview
          </Button>
        </Group>
        {preview && <PreviewTable view={preview} />}
        {preview && preview.refused > 0 && (
          <Alert color="red" role="alert" title={`${plural(preview.refused, 'product')} would sell below cost`}>
            Nothing can be changed while they would: choose a higher value, or leave their campaigns out.
          </Alert>
        )}
        <FormError message={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void apply()} loading={busy && preview !== null} disabled={!preview || preview.refused > 0 || preview.changed === 0}>
            {preview ? `Apply new prices to ${plural(preview.changed, 'product')}` : 'Apply new prices'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The preview: each product, size by size, its price now and after, and what it would earn. */
function PreviewTable({ view }: { view: ChangeView }) {
  return (
    <ScrollArea.Autosize mah={440} type="auto">
      <Table verticalSpacing={4} horizontalSpacing="sm" fz="sm" withTableBorder data-testid="price-preview">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Product</Table.Th>
            <Table.Th>Size</Table.Th>
            <Table.Th ta="right">Price now</Table.Th>
            <Table.Th ta="right">New price</Table.Th>
            <Table.Th ta="right">Cost to make</Table.Th>
            <Table.Th ta="right">You earn now</Table.Th>
            <Table.Th ta="right">You will earn</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {view.rows.map((row) => (
            <Fragment key={row.product_id}>
              {row.problem && (
                <Table.Tr data-testid="preview-problem">
                  <Table.Td colSpan={7}>
                    <Text size="sm" c="red">
                      {row.campaign} — {row.name}: {row.problem}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {row.before.sizes.map((before, i) => {
                const after = row.after?.sizes[i];
                return (
                  <Table.Tr key={before.size} data-testid="preview-row">
                    <Table.Td>{i === 0 ? `${row.campaign} — ${row.name}` : ''}</Table.Td>
                    <Table.Td>{before.size}</Table.Td>
                    <Table.Td ta="right">{formatMoney(before.price)}</Table.Td>
                    <Table.Td ta="right" fw={600}>
                      {after ? formatMoney(after.price) : '–'}
                    </Table.Td>
                    <Table.Td ta="right">{formatMoney(before.cost)}</Table.Td>
                    <Table.Td ta="right">{formatMoney(before.earnings)}</Table.Td>
                    <Table.Td ta="right" fw={600}>
                      {after ? formatMoney(after.earnings) : '–'}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Fragment>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}
