import { Button, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, isApiError } from '../api';
import { PRICE_MODES, setProductPrices, type PriceMode, type PricedProduct } from '../api/pricing';
import { FormError } from '../components/FormError';
import { formatMoney } from '../orders/labels';
import { PRICING_KEY } from './keys';
import { amountText, MODE_HELP, MODE_LABELS } from './labels';
import { SizeTable } from './SizeTable';

/**
 * "Edit prices" of one product in a store: the mode, and its margin, its one price or a price per size. The sizes'
 * costs, fees and earnings are the bff's (commerce/pricing); a refusal shows next to its field.
 */
export function ProductPriceDialog({ storeId, product, onClose }: { storeId: number; product: PricedProduct | null; onClose: () => void }) {
  if (!product) return null;
  return (
    <Modal opened onClose={onClose} title={`Prices of ${product.campaign} — ${product.name}`} size="xl">
      <PriceForm key={product.product_id} storeId={storeId} product={product} onClose={onClose} />
    </Modal>
  );
}

/** The form of one product's prices, starting from those saved now. */
function PriceForm({ storeId, product, onClose }: { storeId: number; product: PricedProduct; onClose: () => void }) {
  const queryClient = useQueryClient();
  const q = product.quote;
  const [mode, setMode] = useState<PriceMode>(q.mode);
  const [margin, setMargin] = useState(amountText(q.margin));
  const [price, setPrice] = useState(amountText(q.price));
  const [sizes, setSizes] = useState<Record<string, string>>(() => Object.fromEntries(q.sizes.map((s) => [s.size, amountText(s.price)])));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const currency = q.price.currency;

  async function save() {
    setErrors({});
    setError(null);
    setSaving(true);
    try {
      const { message } = await setProductPrices(api, product.product_id, {
        store_id: storeId,
        mode,
        margin: mode === 'adjust_price' ? margin.trim() : undefined,
        price: mode === 'fixed_price' ? price.trim() : undefined,
        sizes: mode === 'custom_price' ? Object.fromEntries(Object.entries(sizes).map(([k, v]) => [k, v.trim()])) : undefined,
      });
      notifications.show({ color: 'green', message });
      await queryClient.invalidateQueries({ queryKey: PRICING_KEY });
      onClose();
    } catch (e) {
      if (isApiError(e) && e.fieldErrors.length > 0) {
        setErrors(Object.fromEntries(e.fieldErrors.map((f) => [f.field ?? '', f.message])));
        if (e.fieldErrors.every((f) => f.field === 'mode')) setError(e.message);
      } else {
        setError(isApiError(e) ? e.message : String(e));
      }
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Base cost {formatMoney(product.quote.base_cost)}
        {product.quote.extra_print_cost.amount > 0 && <> · extra print spaces {formatMoney(product.quote.extra_print_cost)}</>}
        {product.quote.compare_at_price && <> · compare-at price {formatMoney(product.quote.compare_at_price)}</>}. Prices are in {currency};
        what you earn is for one item bought alone, before shipping and tip.
      </Text>
      <Radio.Group label="How it is priced" value={mode} onChange={setMode} error={errors.mode}>
        <Stack gap={6} mt={6}>
          {PRICE_MODES.map((m) => (
            <Radio key={m} value={m} label={MODE_LABELS[m]} description={MODE_HELP[m]} />
          ))}
        </Stack>
      </Radio.Group>
      {mode === 'adjust_price' && (
        <TextInput label={`Margin (${currency})`} value={margin} onChange={(e) => setMargin(e.currentTarget.value)} error={errors.margin} w={200} />
      )}
      {mode === 'fixed_price' && (
        <TextInput label={`Price (${currency})`} value={price} onChange={(e) => setPrice(e.currentTarget.value)} error={errors.price} w={200} />
      )}
      <SizeTable
        quote={product.quote}
        price={
          mode === 'custom_price'
            ? (size) => (
                <TextInput
                  aria-label={`Price of size ${size}`}
                  size="xs"
                  w={100}
                  ml="auto"
                  value={sizes[size] ?? ''}
                  onChange={(e) => {
                    const v = e.currentTarget.value;
                    setSizes((cur) => ({ ...cur, [size]: v }));
                  }}
                  error={errors[`sizes.${size}`]}
                />
              )
            : undefined
        }
      />
      <Text size="xs" c="dimmed">
        The table shows the prices saved now; saving shows the new ones.
      </Text>
      <FormError message={error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => void save()} loading={saving}>
          Save prices
        </Button>
      </Group>
    </Stack>
  );
}
