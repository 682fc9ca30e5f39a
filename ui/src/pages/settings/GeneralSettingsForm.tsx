import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api } from '../../api';
import { saveGeneralSettings, type GeneralSettings } from '../../api/account';
import { FormError } from '../../components/FormError';
import { formatDateTime, timeZones, zoneOffsetLabel } from '../../format/dateTime';
import { meQuery } from '../../session/queries';
import { useSessionUser } from '../../session/useSessionUser';
import { applyServerError } from '../auth/formErrors';

/** The display currencies Pressroom keeps money in, by their names. */
const CURRENCY_LABELS: Readonly<Record<string, string>> = {
  USD: 'US dollar (USD)',
  EUR: 'Euro (EUR)',
};

/**
 * The general settings form: the time zone every date in the dashboard is shown in, and the display
 * currency of the balance. Saved with `PUT /api/settings/general`; the session user is read again at
 * once, so every date on screen moves with the zone.
 */
export function GeneralSettingsForm() {
  const user = useSessionUser();
  const queryClient = useQueryClient();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<GeneralSettings>({
    initialValues: { timezone: user.timezone, currency: user.currency },
  });
  const zones = useMemo(() => {
    const names = timeZones();
    if (!names.includes(user.timezone)) names.unshift(user.timezone);
    const now = new Date();
    return names.map((z) => ({ value: z, label: `${z.replaceAll('_', ' ')} (${zoneOffsetLabel(z, now)})` }));
  }, [user.timezone]);
  const currencies = Object.entries(CURRENCY_LABELS).map(([value, label]) => ({ value, label }));

  const submit = form.onSubmit(async (values) => {
    setServerError(null);
    try {
      const message = await saveGeneralSettings(api, values);
      await queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
      form.resetDirty(values);
      notifications.show({ color: 'green', message });
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={520}>
        <FormError message={serverError} />
        <Select
          label="Timezone"
          description="Every date in the dashboard is shown in this time zone, and the date filters of your lists count days in it. Daylight saving time is followed."
          data={zones}
          searchable
          allowDeselect={false}
          nothingFoundMessage="No time zone by that name"
          {...form.getInputProps('timezone')}
        />
        <Text size="sm" c="dimmed" data-testid="timezone-preview">
          Right now that is {formatDateTime(new Date().toISOString(), form.getValues().timezone)}.
        </Text>
        <Select
          label="Currency"
          description="The currency your balance is shown in."
          data={currencies}
          allowDeselect={false}
          {...form.getInputProps('currency')}
        />
        <Group>
          <Button type="submit" loading={form.submitting} disabled={!form.isDirty()}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
