import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, isApiError } from '../api';
import { checkCampaignSlug, setCampaignSlug, type CampaignSummary } from '../api/campaigns';
import { SEARCH_DEBOUNCE_MS } from '../components/useListSearch';
import { SLUG } from '../storefronts/schema';
import { CAMPAIGNS_KEY } from './queries';

/** The words under the address while it is checked, as the bff refuses a bad one (bff/campaigns MsgSlug). */
const SLUG_RULE = 'The address must be 1 to 80 lower-case letters, digits and single hyphens between them.';

/**
 * "Change address": a campaign's address in the stores (`/c/{address}` beside `/c/{id}`), checked while the seller
 * types (unique among their campaigns) and refused with the bff's reason when taken.
 */
export function CampaignAddressDialog({ campaign, onClose }: { campaign: CampaignSummary | null; onClose: () => void }) {
  if (!campaign) return null;
  return (
    <Modal opened onClose={onClose} title={`Address of ${campaign.name}`}>
      <AddressForm key={campaign.id} campaign={campaign} onClose={onClose} />
    </Modal>
  );
}

/** The address form, starting from the campaign's address now. */
function AddressForm({ campaign, onClose }: { campaign: CampaignSummary; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [slug, setSlug] = useState(campaign.slug);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [debounced] = useDebouncedValue(slug.trim().toLowerCase(), SEARCH_DEBOUNCE_MS);
  const check = useQuery({
    queryKey: [...CAMPAIGNS_KEY, 'slug', debounced, campaign.id],
    queryFn: ({ signal }) => checkCampaignSlug(api, debounced, campaign.id, signal),
    enabled: SLUG.test(debounced) && debounced !== campaign.slug,
  });
  const typed = slug.trim().toLowerCase();
  const hint = check.data && check.data.slug === debounced && debounced === typed ? check.data : null;
  const shownError = error ?? (typed !== '' && !SLUG.test(typed) ? SLUG_RULE : hint && !hint.available ? hint.message : null);

  async function save() {
    setSaving(true);
    setError(null);
    try {
      const saved = await setCampaignSlug(api, campaign.id, typed);
      notifications.show({ color: 'green', message: `${saved.name} is at /c/${saved.slug} in your stores.` });
      await queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
      onClose();
    } catch (e) {
      setError(isApiError(e) ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack gap="sm">
      <TextInput
        label="Address"
        description="Buyers reach the campaign at /c/ and this address in each of your stores."
        value={slug}
        onChange={(e) => {
          setSlug(e.currentTarget.value);
          setError(null);
        }}
        error={shownError}
      />
      {hint?.available && (
        <Text size="sm" c="green">
          This address is free.
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => void save()} loading={saving} disabled={typed === '' || typed === campaign.slug}>
          Save address
        </Button>
      </Group>
    </Stack>
  );
}
