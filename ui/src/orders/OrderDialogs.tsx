import { Alert, Button, Checkbox, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, isApiError } from '../api';
import { newIdempotencyKey } from '../api/ApiClient';
import { refundable, refundOrder, shipOrder, updateAddress, type OrderDetail, type ShippingAddress } from '../api/orders';
import { formatMoney, parseAmount } from './labels';

/** What a dialog hands back when its action went through: the server's message and the order as it is now. */
export type Done = (result: { message: string; data: OrderDetail }) => void;

interface DialogProps {
  order: OrderDetail;
  opened: boolean;
  onClose: () => void;
  onDone: Done;
}

/** Money back, all or part, in the order's currency; the server refuses more than is left and says how much is. */
export function RefundDialog({ order, opened, onClose, onDone }: DialogProps) {
  const left = refundable(order);
  const currency = order.total.currency;
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  // One key per refund the seller means: kept while the dialog retries the same amount, new after a change.
  const [key, setKey] = useState(newIdempotencyKey);
  const cents = parseAmount(amount);
  const refund = useMutation({
    mutationFn: () => refundOrder(api, order.id, cents ?? 0, reason.trim(), key),
    onSuccess: (result) => {
      setAmount('');
      setReason('');
      setKey(newIdempotencyKey());
      onDone(result);
    },
  });
  const fieldError = (field: string) => (isApiError(refund.error) ? refund.error.fieldMessage(field) : undefined);
  const amountError =
    amount !== '' && cents === null
      ? 'Write an amount such as 12.50.'
      : cents !== null && cents > left
        ? `At most ${formatMoney({ amount: left, currency })} is left to refund.`
        : fieldError('amount');
  const otherError = refund.isError && !fieldError('amount') && !fieldError('reason') ? refund.error.message : undefined;
  const change = (set: (v: string) => void) => (v: string) => {
    set(v);
    setKey(newIdempotencyKey());
    refund.reset();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={`Refund order #${order.number}`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (cents !== null && cents <= left) refund.mutate();
        }}
      >
        <Stack gap="md">
          <Text size="sm">
            Paid {formatMoney(order.total)}; {formatMoney({ amount: left, currency })} can still be refunded. The money goes back through the
            payment the buyer made.
          </Text>
          <Group gap="xs" align="flex-end">
            <TextInput
              label={`Amount (${currency})`}
              inputMode="decimal"
              placeholder="0.00"
              value={amount}
              onChange={(e) => change(setAmount)(e.currentTarget.value)}
              error={amountError}
              data-autofocus
              style={{ flex: 1 }}
            />
            <Button variant="default" onClick={() => change(setAmount)((left / 100).toFixed(2))}>
              Refund all that is left
            </Button>
          </Group>
          <Textarea
            label="Reason (optional, shown in the timeline)"
            value={reason}
            onChange={(e) => change(setReason)(e.currentTarget.value)}
            error={fieldError('reason')}
            maxLength={500}
          />
          {otherError && (
            <Alert color="red" role="alert">
              {otherError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" color="red" loading={refund.isPending} disabled={cents === null || cents > left}>
              {cents !== null && cents <= left ? `Refund ${formatMoney({ amount: cents, currency })}` : 'Refund'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Tracking for some or all items: carrier, number and the link the buyer's e-mail carries. */
export function TrackingDialog({ order, opened, onClose, onDone }: DialogProps) {
  const shipped = new Set(order.shipments.map((s) => s.order_item_id));
  const [carrier, setCarrier] = useState('');
  const [tracking, setTracking] = useState('');
  const [url, setUrl] = useState('');
  const [items, setItems] = useState<number[]>(() => order.items.filter((it) => !shipped.has(it.id)).map((it) => it.id));
  const ship = useMutation({
    mutationFn: () => shipOrder(api, order.id, { carrier: carrier.trim(), tracking_number: tracking.trim(), tracking_url: url.trim(), item_ids: items }),
    onSuccess: (result) => {
      setCarrier('');
      setTracking('');
      setUrl('');
      onDone(result);
    },
  });
  const fieldError = (field: string) => (isApiError(ship.error) ? ship.error.fieldMessage(field) : undefined);
  const known = ['carrier', 'tracking_number', 'tracking_url', 'item_ids'];
  const otherError = ship.isError && !known.some((f) => fieldError(f)) ? ship.error.message : undefined;
  return (
    <Modal opened={opened} onClose={onClose} title={`Add tracking to order #${order.number}`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          ship.mutate();
        }}
      >
        <Stack gap="md">
          <TextInput label="Carrier" placeholder="DHL, UPS, USPS…" value={carrier} onChange={(e) => setCarrier(e.currentTarget.value)} error={fieldError('carrier')} required maxLength={100} data-autofocus />
          <TextInput label="Tracking number" value={tracking} onChange={(e) => setTracking(e.currentTarget.value)} error={fieldError('tracking_number')} required maxLength={100} />
          <TextInput
            label="Tracking link (optional)"
            description="The buyer's shipping e-mail links here."
            placeholder="https://"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={fieldError('tracking_url')}
          />
          <Checkbox.Group label="Items in this parcel" value={items.map(String)} onChange={(v) => setItems(v.map(Number))} error={fieldError('item_ids')}>
            <Stack gap={6} mt={6}>
              {order.items.map((it) => (
                <Checkbox
                  key={it.id}
                  value={String(it.id)}
                  label={`${it.product_name} · ${[it.color, it.size].filter(Boolean).join(' / ')} × ${it.quantity}${shipped.has(it.id) ? ' (shipped: replaces its tracking)' : ''}`}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          {otherError && (
            <Alert color="red" role="alert">
              {otherError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" loading={ship.isPending} disabled={items.length === 0}>
              Save tracking
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

const ADDRESS_FIELDS: { key: keyof ShippingAddress; label: string; description?: string; required?: boolean }[] = [
  { key: 'name', label: 'Full name', required: true },
  { key: 'line1', label: 'Address', required: true },
  { key: 'line2', label: 'Address line 2 (optional)' },
  { key: 'city', label: 'City', required: true },
  { key: 'state', label: 'State or province', description: 'Its code where the country has a list, such as US-NY.' },
  { key: 'postal_code', label: 'Postal code' },
  { key: 'country', label: 'Country', description: 'Two-letter code, such as US or DE.', required: true },
  { key: 'phone', label: 'Phone (optional)' },
];

/**
 * The buyer's name and shipping address, editable until production; the server checks it by the country's rules
 * and names each refused field. The fields the rules refused before show their message until the seller edits them.
 */
export function AddressDialog({ order, opened, onClose, onDone }: DialogProps) {
  const [address, setAddress] = useState<ShippingAddress>(() => {
    const a = order.shipping_address;
    return {
      name: a.name ?? order.customer_name,
      line1: a.line1 ?? '',
      line2: a.line2 ?? '',
      city: a.city ?? '',
      state: a.state ?? '',
      postal_code: a.postal_code ?? '',
      country: a.country ?? '',
      phone: a.phone ?? '',
    };
  });
  const [touched, setTouched] = useState<Set<string>>(() => new Set());
  const save = useMutation({ mutationFn: () => updateAddress(api, order.id, address), onSuccess: onDone });
  const fieldError = (field: string) => {
    if (isApiError(save.error)) return save.error.fieldMessage(field);
    if (touched.has(field)) return undefined;
    return order.address_errors?.find((e) => e.field === field)?.message;
  };
  const otherError = save.isError && !ADDRESS_FIELDS.some((f) => fieldError(f.key)) ? save.error.message : undefined;
  return (
    <Modal opened={opened} onClose={onClose} title={`Edit the shipping address of order #${order.number}`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Stack gap="sm">
          {ADDRESS_FIELDS.map((f, i) => (
            <TextInput
              key={f.key}
              label={f.label}
              description={f.description}
              required={f.required}
              value={address[f.key]}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setAddress((a) => ({ ...a, [f.key]: value }));
                setTouched((t) => new Set(t).add(f.key));
                save.reset();
              }}
              error={fieldError(f.key)}
              data-autofocus={i === 0 || undefined}
            />
          ))}
          {otherError && (
            <Alert color="red" role="alert">
              {otherError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save address
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
