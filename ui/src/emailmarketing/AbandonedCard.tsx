import { Autocomplete, Button, Card, Group, NumberInput, Stack, Switch, Tabs, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, isApiError } from '../api';
import {
  abandonedSettings,
  discountCodes,
  saveAbandonedDiscount,
  saveAbandonedEmails,
  type AbandonedEmail,
  type AbandonedSettings,
} from '../api/emailMarketing';
import { FormError } from '../components/FormError';

/** Searches wait 200 ms after the last keystroke. */
const SEARCH_DEBOUNCE_MS = 200;

function EmailsForm({ storeId, initial }: { storeId: number; initial: AbandonedSettings }) {
  const queryClient = useQueryClient();
  const [emails, setEmails] = useState<AbandonedEmail[]>(initial.emails);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = (step: number, patch: Partial<AbandonedEmail>) =>
    setEmails((all) => all.map((e) => (e.step === step ? { ...e, ...patch } : e)));
  const save = async () => {
    setSaving(true);
    setError(null);
    setErrors({});
    try {
      const { message, data } = await saveAbandonedEmails(api, storeId, emails);
      notifications.show({ color: 'green', message });
      queryClient.setQueryData(['email-marketing', 'abandoned', storeId], data);
    } catch (e) {
      if (isApiError(e)) {
        setErrors(Object.fromEntries(e.fieldErrors.flatMap((f) => (f.field ? [[f.field, f.message]] : []))));
        setError(e.message);
      } else {
        setError(String(e));
      }
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap="sm">
      <Tabs defaultValue="1">
        <Tabs.List>
          {emails.map((e) => (
            <Tabs.Tab key={e.step} value={String(e.step)}>
              Email {e.step}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {emails.map((e) => {
          const err = (f: string) => errors[`emails.${e.step}.${f}`];
          return (
            <Tabs.Panel key={e.step} value={String(e.step)} pt="md">
              <Stack gap="sm">
                <Switch
                  label={`Send email ${e.step}`}
                  checked={e.enabled}
                  onChange={(ev) => set(e.step, { enabled: ev.currentTarget.checked })}
                />
                <NumberInput
                  label="Delay (minutes after the checkout was left)"
                  min={1}
                  max={10080}
                  value={e.delay_minutes}
                  onChange={(v) => set(e.step, { delay_minutes: typeof v === 'number' ? v : Number(v) || 0 })}
                  error={err('delay_minutes')}
                  w={320}
                />
                <TextInput label="Subject" value={e.subject} onChange={(ev) => set(e.step, { subject: ev.currentTarget.value })} error={err('subject')} />
                <Textarea
                  label="HTML body"
                  rows={6}
                  value={e.body_html}
                  onChange={(ev) => set(e.step, { body_html: ev.currentTarget.value })}
                  error={err('body_html')}
                  styles={{ input: { fontFamily: 'monospace', fontSize: 13 } }}
                />
              </Stack>
            </Tabs.Panel>
          );
        })}
      </Tabs>
      <Button w="fit-content" loading={saving} onClick={() => void save()}>
        Save emails
      </Button>
      <FormError message={error} />
    </Stack>
  );
}

function CouponPicker({ storeId, current }: { storeId: number; current: string }) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState(current);
  const [debounced] = useDebouncedValue(value.trim(), SEARCH_DEBOUNCE_MS);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const codes = useQuery({
    queryKey: ['email-marketing', 'discount-codes', storeId, debounced],
    queryFn: ({ signal }) => discountCodes(api, storeId, debounced, signal),
  });
  const save = async (coupon: string) => {
    setSaving(true);
    setError(null);
    try {
      const { message } = await saveAbandonedDiscount(api, storeId, coupon);
      notifications.show({ color: 'green', message });
      await queryClient.invalidateQueries({ queryKey: ['email-marketing', 'abandoned', storeId] });
    } catch (e) {
      setError(isApiError(e) ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap="sm">
      <Group align="flex-end">
        <Autocomplete
          label="Discount code"
          placeholder="Search the store's codes"
          value={value}
          onChange={setValue}
          data={(codes.data ?? []).map((c) => c.code)}
          w={320}
        />
        <Button loading={saving} onClick={() => void save(value.trim())}>
          Save coupon
        </Button>
        {current && (
          <Button
            variant="subtle"
            color="red"
            onClick={() => {
              setValue('');
              void save('');
            }}
          >
            Remove
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed" data-testid="coupon-current">
        {current ? `The emails offer ${current}.` : 'The emails offer no discount.'}
      </Text>
      <FormError message={error} />
    </Stack>
  );
}

/** The store's abandoned-checkout e-mails 1 to 3 and the discount code they offer. */
export function AbandonedCard({ storeId }: { storeId: number }) {
  const settings = useQuery({
    queryKey: ['email-marketing', 'abandoned', storeId],
    queryFn: ({ signal }) => abandonedSettings(api, storeId, signal),
  });
  if (!settings.data) return null;
  return (
    <Card withBorder radius="lg" padding="lg">
      <Title order={2} fz="h4" mb="md">
        Abandoned checkout emails
      </Title>
      <Stack gap="xl">
        <EmailsForm key={storeId} storeId={storeId} initial={settings.data} />
        <CouponPicker key={`${storeId}-${settings.data.coupon_code}`} storeId={storeId} current={settings.data.coupon_code} />
      </Stack>
    </Card>
  );
}
