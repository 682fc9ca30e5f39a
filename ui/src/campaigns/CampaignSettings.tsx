import { ActionIcon, Alert, Button, Card, Group, Select, Stack, Switch, TextInput, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Product } from '../api/campaigns';
import type { CampaignDraft, PlacedErrors } from './editorState';
import { templatesQuery } from './queries';

const PERSONALIZED = [
  { value: 'unset', label: 'Not set' },
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
] as const;

interface CampaignSettingsProps {
  draft: CampaignDraft;
  /** Changes fields of the draft. */
  onDraft: (patch: Partial<CampaignDraft>) => void;
  /** The product being designed: its personalized flag is set here, and it is the one "remove" removes. */
  product: Product;
  canRemove: boolean;
  busy: boolean;
  errors: Pick<PlacedErrors, 'name' | 'personalized'>;
  /** Warnings of the saved name (listed trademarks); they never stop a save. */
  warnings?: readonly { term: string; message: string }[];
  onAddProduct: (templateId: number) => void;
  onRemoveProduct: () => void;
}

/** The campaign's own fields (name, personalized) and its products (add from the catalogue, remove). */
export function CampaignSettings({
  draft,
  onDraft,
  product,
  canRemove,
  busy,
  errors,
  warnings = [],
  onAddProduct,
  onRemoveProduct,
}: CampaignSettingsProps) {
  const templates = useQuery(templatesQuery);
  const [templateToAdd, setTemplateToAdd] = useState<string | null>(null);
  return (
    <Card withBorder radius="lg" padding="md">
      <Stack gap="sm">
        <TextInput
          label="Campaign name"
          value={draft.name}
          error={errors.name}
          onChange={(event) => onDraft({ name: event.currentTarget.value })}
          data-action="editDraft"
        />
        {warnings.length > 0 && (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={16} />} title="Trademark" data-testid="trademark-warning">
            <Stack gap={4}>
              {warnings.map((w) => (
                <span key={w.term}>{w.message}</span>
              ))}
            </Stack>
          </Alert>
        )}
        <Group grow align="flex-start">
          <Select
            label="Personalized"
            data={PERSONALIZED}
            allowDeselect={false}
            value={draft.personalized === null ? 'unset' : draft.personalized ? 'yes' : 'no'}
            error={errors.personalized}
            onChange={(value) => onDraft({ personalized: value === 'unset' ? null : value === 'yes' })}
            data-action="editDraft"
          />
          <Switch
            mt={30}
            label={`${product.name} personalized`}
            checked={draft.productPersonalized[product.id] ?? product.personalized}
            onChange={(event) =>
              onDraft({ productPersonalized: { ...draft.productPersonalized, [product.id]: event.currentTarget.checked } })
            }
            data-action="editDraft"
          />
        </Group>
        <Group gap="xs" align="flex-end">
          <Select
            label="Add a product"
            placeholder="Product template"
            data={(templates.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
            value={templateToAdd}
            onChange={setTemplateToAdd}
            style={{ flex: 1 }}
          />
          <Button
            variant="light"
            leftSection={<IconPlus size={14} />}
            disabled={templateToAdd === null}
            loading={busy}
            onClick={() => {
              if (templateToAdd === null) return;
              onAddProduct(Number(templateToAdd));
              setTemplateToAdd(null);
            }}
          >
            Add
          </Button>
          <Tooltip label={`Remove ${product.name} from the campaign`}>
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={`Remove ${product.name}`}
              disabled={!canRemove || busy}
              onClick={onRemoveProduct}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Stack>
    </Card>
  );
}
