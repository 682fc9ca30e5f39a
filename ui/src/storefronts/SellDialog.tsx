import { Button, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, isApiError } from '../api';
import { PRODUCT_STATUSES, publishCampaign, stores } from '../api/stores';
import { FormError } from '../components/FormError';
import { STORES_KEY } from './keys';
import { MARGIN } from './schema';

/**
 * "Sell": publishes a campaign to one of the seller's stores, every product at its template's base cost plus
 * the margin, in the store's currency.
 */
export function SellDialog({ campaign, onClose }: { campaign: { id: number; name: string } | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: [...STORES_KEY, 'sell'],
    queryFn: ({ signal }) => stores(api, 1, '', signal),
    enabled: campaign !== null,
  });
  const [storeId, setStoreId] = useState<string | null>(null);
  const [margin, setMargin] = useState('10.00');
  const [status, setStatus] = useState<string>('active');
  const [error, setError] = useState<string | null>(null);
  const [marginError, setMarginError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const chosen = storeId ?? (list.data?.data[0] ? String(list.data.data[0].id) : null);
  const currency = list.data?.data.find((s) => String(s.id) === chosen)?.currency ?? 'USD';

  async function publish() {
    if (!campaign || !chosen) return;
    setError(null);
    setMarginError(null);
    if (!MARGIN.test(margin.trim())) {
      setMarginError('The margin must be an amount like 10.00, with at most two decimals.');
      return;
    }
    setSaving(true);
    try {
      const { message } = await publishCampaign(api, Number(chosen), { campaign_id: campaign.id, margin: margin.trim(), status });
      notifications.show({ color: 'green', message });
      await queryClient.invalidateQueries({ queryKey: STORES_KEY });
      onClose();
    } catch (e) {
      const field = isApiError(e) ? e.fieldErrors.find((f) => f.field === 'margin') : undefined;
      if (field) setMarginError(field.message);
      else setError(isApiError(e) ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal opened={campaign !== null} onClose={onClose} title={campaign ? `Sell ${campaign.name}` : 'Sell'}>
      <Stack gap="sm">
        {list.data && list.data.data.length === 0 && <Text>Create a store first, under Storefronts → All Stores.</Text>}
        <Select
          label="Store"
          data={(list.data?.data ?? []).map((s) => ({ value: String(s.id), label: `${s.name} (${s.currency})` }))}
          value={chosen}
          onChange={setStoreId}
          allowDeselect={false}
        />
        <TextInput
          label={`Margin per product (${currency})`}
          description="Each product sells at its base cost plus this margin."
          value={margin}
          onChange={(e) => setMargin(e.currentTarget.value)}
          error={marginError}
        />
        <Select
          label="Status"
          data={PRODUCT_STATUSES.map((s) => ({ value: s, label: s.charAt(0).toUpperCase() + s.slice(1) }))}
          value={status}
          onChange={(v) => setStatus(v ?? 'active')}
          allowDeselect={false}
        />
        <Button onClick={() => void publish()} loading={saving} disabled={!chosen} w="fit-content">
          Publish
        </Button>
        <FormError message={error} />
      </Stack>
    </Modal>
  );
}
