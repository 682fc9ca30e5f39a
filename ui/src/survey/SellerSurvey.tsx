import { Button, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, isApiError } from '../api';
import { SALE_VOLUMES, submitSurvey, type SurveyAnswers } from '../api/survey';
import { COOKIE_MAX_AGE_S, writeCookie } from '../cookies';
import { meQuery } from '../session/queries';
import { useSessionUser } from '../session/useSessionUser';
import {
  DISABLE_SURVEY_COOKIE,
  firstFieldErrors,
  MSG_CANNOT_SAVE,
  SURVEY_DELAY_MS,
  SURVEY_RECHECK_MS,
  surveySchema,
} from './rules';
import { markSurveyClosed } from './surveyState';
import { useSurvey } from './useSurvey';

/**
 * The seller survey: about 2 s after the screen opens, for a seller in its own
 * account with no sale volume and no authorized accounts. Facebook and phone are asked only when the
 * account lacks them. Closing it sets disable_seller_survey for the cookie's lifetime; saving it
 * stores the sale volume, which ends it for good (the first save upgrades the account to Tier 2).
 */
export function SellerSurvey() {
  const user = useSessionUser();
  const queryClient = useQueryClient();
  const { wanted } = useSurvey(user);
  const [opened, setOpened] = useState(false);
  const askFacebook = !user.facebook;
  const askPhone = !user.phone;
  const form = useForm<SurveyAnswers>({
    mode: 'uncontrolled',
    initialValues: { sale_volume: '', facebook: '', phone: '' },
    validate: schemaResolver(surveySchema(askPhone), { sync: true }),
  });

  // It waits for any dialog the seller has open (New campaign, a confirmation) to close rather than cover it.
  useEffect(() => {
    if (!wanted) return;
    let timer = 0;
    const openWhenFree = () => {
      if (document.querySelector('[role="dialog"][aria-modal="true"]')) timer = window.setTimeout(openWhenFree, SURVEY_RECHECK_MS);
      else setOpened(true);
    };
    timer = window.setTimeout(openWhenFree, SURVEY_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [wanted]);

  const close = () => {
    writeCookie(DISABLE_SURVEY_COOKIE, '1', { maxAgeSeconds: COOKIE_MAX_AGE_S });
    setOpened(false);
    markSurveyClosed();
  };

  const submit = form.onSubmit(async (values) => {
    try {
      const result = await submitSurvey(api, {
        sale_volume: values.sale_volume,
        facebook: askFacebook ? values.facebook.trim() : '',
        phone: askPhone ? values.phone.trim() : '',
      });
      notifications.show({ color: 'green', message: result.message });
      setOpened(false);
      markSurveyClosed();
      await queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
    } catch (error) {
      if (isApiError(error)) form.setErrors(firstFieldErrors(error.fieldErrors));
      notifications.show({ color: 'red', message: MSG_CANNOT_SAVE });
    }
  });

  return (
    <Modal opened={opened && wanted === true} onClose={close} title="Seller Survey" centered data-testid="seller-survey">
      <form onSubmit={submit} noValidate aria-label="Seller survey">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Tell us a little about your business and we will upgrade your account to Tier 2.
          </Text>
          <Select
            label="How many items do you sell a month?"
            placeholder="Choose your sale volume"
            data={[...SALE_VOLUMES]}
            withAsterisk
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            key={form.key('sale_volume')}
            {...form.getInputProps('sale_volume')}
          />
          {askFacebook && (
            <TextInput
              label="Facebook"
              placeholder="https://facebook.com/your-page"
              key={form.key('facebook')}
              {...form.getInputProps('facebook')}
            />
          )}
          {askPhone && (
            <TextInput
              label="Phone"
              placeholder="+1 555 010 1234"
              type="tel"
              autoComplete="tel"
              withAsterisk
              key={form.key('phone')}
              {...form.getInputProps('phone')}
            />
          )}
          <Button type="submit" loading={form.submitting}>
            Save
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
