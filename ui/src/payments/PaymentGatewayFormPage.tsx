import { Alert, Anchor, Button, Card, Group, List, MultiSelect, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api';
import { gatewayStores, gatewaySetup, paymentGateway, savePaymentGateway, type PaymentGateway } from '../api/paymentGateways';
import { can } from '../access/rules';
import { useSessionUser } from '../session/useSessionUser';
import { GATEWAYS_KEY } from './model';
import { GatewaysRefused, ModeBadge, WebhookAddress } from './PaymentGatewaysPage';
import { EditedItem } from '../forms/EditedItem';
import { useFormSave } from '../forms/useFormSave';

/**
 * `/settings/payment-gateways/create` and `/settings/payment-gateways/edit/{id}`: a Stripe account's keys, checked by
 * Stripe when saved, and the stores that pay into it.
 */
export function PaymentGatewayFormPage() {
  const user = useSessionUser();
  const { id } = useParams();
  const gatewayId = id === undefined ? 0 : Number(id);
  const allowed = user.custom_payment && can(user, 'get_payments');
  if (!allowed) return <GatewaysRefused customPayment={user.custom_payment} />;
  return (
    <EditedItem id={gatewayId} area={GATEWAYS_KEY} load={(id, signal) => paymentGateway(api, id, signal)} loading="Loading the payment gateway">
      {(existing) => <GatewayForm existing={existing} />}
    </EditedItem>
  );
}

function GatewayForm({ existing }: { existing?: PaymentGateway }) {
  const user = useSessionUser();
  const readOnly = !can(user, 'update_payments');
  const navigate = useNavigate();
  const [name, setName] = useState(existing?.name ?? '');
  const [secretKey, setSecretKey] = useState('');
  const [publishableKey, setPublishableKey] = useState(existing?.publishable_key ?? '');
  const [webhookSecret, setWebhookSecret] = useState('');
  const [storeIds, setStoreIds] = useState<string[]>(existing?.stores.map((s) => String(s.id)) ?? []);
  const { save, errors } = useFormSave({
    save: () =>
      savePaymentGateway(api, existing?.id ?? null, {
        name: name.trim(),
        secret_key: secretKey.trim(),
        publishable_key: publishableKey.trim(),
        webhook_secret: webhookSecret.trim(),
        store_ids: storeIds.map(Number),
      }),
    invalidate: GATEWAYS_KEY,
    then: (saved) => {
      setSecretKey('');
      setWebhookSecret('');
      if (!existing) void navigate(`/settings/payment-gateways/edit/${saved.id}`);
    },
  });
  const setup = useQuery({ queryKey: [...GATEWAYS_KEY, 'setup'], queryFn: ({ signal }) => gatewaySetup(api, signal) });
  const stores = useQuery({ queryKey: [...GATEWAYS_KEY, 'stores'], queryFn: ({ signal }) => gatewayStores(api, signal) });
  const storeOptions = (stores.data ?? []).map((s) => ({
    value: String(s.id),
    label: s.gateway_id !== null && s.gateway_id !== existing?.id ? `${s.name} (now pays into ${s.gateway_name ?? 'another gateway'})` : s.name,
  }));
  const keep = existing ? 'Leave empty to keep the stored one.' : undefined;
  return (
    <Stack gap="lg" maw={820}>
      <Stack gap={2}>
        <Anchor component={Link} to="/settings/payment-gateways" size="sm">
          ← All payment gateways
        </Anchor>
        <Group gap="sm">
          <Title order={1} fz="h2">
            {existing ? existing.name : 'Connect your Stripe account'}
          </Title>
          {existing && <ModeBadge testMode={existing.test_mode} />}
        </Group>
        {existing && (
          <Text size="sm" c="dimmed">
            Stripe account {existing.account_id}
          </Text>
        )}
      </Stack>
      {!readOnly && (
        <Card withBorder radius="lg" padding="lg">
          <Stack gap="xs">
            <Title order={2} fz="h5">
              In Stripe&apos;s dashboard
            </Title>
            <List type="ordered" size="sm" spacing={6}>
              <List.Item>
                Developers, Webhooks: add an endpoint at the address below, sending{' '}
                {(setup.data?.events ?? ['payment_intent.succeeded', 'payment_intent.payment_failed']).join(' and ')}. Copy its signing secret.
              </List.Item>
              <List.Item>Developers, API keys: copy the publishable key and the secret key.</List.Item>
            </List>
            {setup.data && <WebhookAddress url={setup.data.webhook_url} />}
          </Stack>
        </Card>
      )}
      <Card withBorder radius="lg" padding="lg">
        <form
          aria-label="Payment gateway"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <Stack gap="sm">
            {errors.form && <Alert color="red">{errors.form}</Alert>}
            <TextInput
              label="Name"
              description="Yours to tell your gateways apart, such as My Stripe account."
              withAsterisk
              disabled={readOnly}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.name}
            />
            <PasswordInput
              label="Secret key"
              description={keep ?? 'Starts with sk_live_ or sk_test_. Stripe checks it when you save; it is stored encrypted.'}
              placeholder={existing?.secret_key ?? 'sk_live_...'}
              withAsterisk={!existing}
              disabled={readOnly}
              value={secretKey}
              onChange={(e) => setSecretKey(e.currentTarget.value)}
              error={errors.secret_key}
              autoComplete="off"
            />
            <TextInput
              label="Publishable key"
              description="Starts with pk_live_ or pk_test_; your buyers' browsers use it to pay."
              placeholder="pk_live_..."
              withAsterisk
              disabled={readOnly}
              value={publishableKey}
              onChange={(e) => setPublishableKey(e.currentTarget.value)}
              error={errors.publishable_key}
            />
            <PasswordInput
              label="Webhook signing secret"
              description={keep ?? 'Starts with whsec_: the signing secret of the webhook endpoint above.'}
              placeholder={existing?.webhook_secret ?? 'whsec_...'}
              withAsterisk={!existing}
              disabled={readOnly}
              value={webhookSecret}
              onChange={(e) => setWebhookSecret(e.currentTarget.value)}
              error={errors.webhook_secret}
              autoComplete="off"
            />
            <MultiSelect
              label="Stores"
              description="Their buyers pay into this Stripe account. Other stores take payments through Pressroom."
              placeholder={readOnly ? undefined : 'Choose stores'}
              data={storeOptions}
              value={storeIds}
              onChange={setStoreIds}
              disabled={readOnly}
              error={errors.store_ids}
              nothingFoundMessage="No store found"
            />
            {!readOnly && (
              <Group>
                <Button type="submit" loading={save.isPending}>
                  {existing ? 'Save gateway' : 'Connect'}
                </Button>
              </Group>
            )}
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
