import { Alert, Button, Checkbox, Group, Loader, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { CAMPAIGN_KINDS, createCampaign, printSpacesOf, type Campaign, type CampaignKind } from '../api/campaigns';
import { FormError } from '../components/FormError';
import { formatPrice } from '../format/price';
import { applyServerError } from '../pages/auth/formErrors';
import { newCampaignSchema, type NewCampaignValues } from './newCampaign';
import { templatesQuery } from './queries';
import { KIND_LABELS } from './routes';

const KIND_OPTIONS = CAMPAIGN_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] }));

interface NewCampaignFormProps {
  /** The kind preselected (from the route's kind segment). */
  kind: CampaignKind;
  onCreated: (campaign: Campaign) => void;
}

/** The create step: a name, a kind and the product templates to design; creates the campaign. */
export function NewCampaignForm({ kind, onCreated }: NewCampaignFormProps) {
  const templates = useQuery(templatesQuery);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<NewCampaignValues>({
    mode: 'controlled',
    initialValues: { name: '', kind, template_ids: [] },
    validate: schemaResolver(newCampaignSchema, { sync: true }),
  });

  const submit = form.onSubmit(async (values) => {
    setServerError(null);
    try {
      onCreated(await createCampaign(api, newCampaignSchema.parse(values)));
    } catch (error) {
      setServerError(applyServerError(error, form.setErrors));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="New campaign">
      <Stack gap="md">
        <TextInput label="Campaign name" withAsterisk {...form.getInputProps('name')} />
        <Select
          label="Kind"
          data={KIND_OPTIONS}
          allowDeselect={false}
          {...form.getInputProps('kind')}
        />
        <Checkbox.Group
          label="Products"
          description="The product templates to design; more can be added in the editor."
          withAsterisk
          value={form.values.template_ids.map(String)}
          onChange={(ids) => form.setFieldValue('template_ids', ids.map(Number))}
          error={form.errors.template_ids}
        >
          {templates.isPending && <Loader size="sm" mt="xs" aria-label="Loading products" />}
          {templates.isError && (
            <Alert color="red" mt="xs">
              {templates.error.message}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="xs">
            {templates.data?.map((template) => (
              <Checkbox.Card key={template.id} value={String(template.id)} radius="md" p="sm" withBorder>
                <Group wrap="nowrap" align="flex-start">
                  <Checkbox.Indicator />
                  <Stack gap={2}>
                    <Text fw={500}>{template.name}</Text>
                    <Text size="xs" c="dimmed">
                      {printSpacesOf(template)
                        .map((ps) => ps.name)
                        .join(', ')}{' '}
                      · from {formatPrice(template.base_cost)}
                    </Text>
                  </Stack>
                </Group>
              </Checkbox.Card>
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Button type="submit" loading={form.submitting} w="fit-content">
          Create campaign
        </Button>
        <FormError message={serverError} />
      </Stack>
    </form>
  );
}
