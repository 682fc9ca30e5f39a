import {
  Anchor,
  Button,
  Card,
  Group,
  Image,
  Modal,
  Select,
  Stack,
  Table,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconStack2 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { currentAccessContext, visibleMenu } from '../access';
import { can } from '../access/rules';
import { api } from '../api';
import { CAMPAIGN_KINDS, deleteCampaign, type CampaignKind, type CampaignSummary } from '../api/campaigns';
import { ListPager, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { ConfirmDelete } from '../feedback/ConfirmDelete';
import { useSessionUser } from '../session/useSessionUser';
import { SellDialog } from '../storefronts/SellDialog';
import { NewCampaignForm } from './NewCampaignForm';
import { CAMPAIGNS_KEY, campaignListQuery } from './queries';
import { KIND_LABELS, STATUS_LABELS, editorPath } from './routes';
import { LabelBadge } from '../components/LabelBadge';
import { plural } from '../format/plural';

/** The side of a campaign's picture in the list, whose mockup previews are square. */
const PICTURE_SIZE = 64;

/** A campaign as the buyer will see it: its default mockup, else its artwork, else an empty frame. */
function CampaignPicture({ campaign }: { campaign: CampaignSummary }) {
  const mockup = campaign.mockup_url !== '';
  const src = mockup ? campaign.mockup_url : campaign.preview_url;
  if (!src) return <Card w={PICTURE_SIZE} h={PICTURE_SIZE} withBorder radius="sm" p={0} aria-hidden />;
  return (
    <Image
      src={src}
      alt={`${campaign.name} ${mockup ? 'mockup' : 'artwork'}`}
      loading="lazy"
      w={PICTURE_SIZE}
      h={PICTURE_SIZE}
      fit="contain"
      radius="sm"
      data-testid="campaign-picture"
      data-kind={mockup ? 'mockup' : 'artwork'}
    />
  );
}

const KIND_FILTER = CAMPAIGN_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] }));

/** `/campaigns`: the seller's campaigns, searchable and filtered by kind, with the "New campaign" flow. */
export function CampaignsPage() {
  const navigate = useNavigate();
  const user = useSessionUser();
  const bulkAllowed = useMemo(() => visibleMenu(user, currentAccessContext()).includes('campaigns.bulk'), [user]);
  const { q, search, debounced, page, setPage, resetting } = useListSearch();
  const [kind, setKind] = useState<CampaignKind | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<CampaignSummary | null>(null);
  const [selling, setSelling] = useState<CampaignSummary | null>(null);
  const canSell = can(user, 'update_campaign');
  const list = useQuery(campaignListQuery({ q: debounced, page, kind: kind ?? undefined }));

  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-end">
        <Title order={1} fz="h2">
          Campaigns
        </Title>
        <Group gap="sm">
          {bulkAllowed && (
            <Button variant="default" leftSection={<IconStack2 size={16} />} component={Link} to="/bulk-campaigns">
              Bulk campaigns
            </Button>
          )}
          {canSell && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              New campaign
            </Button>
          )}
        </Group>
      </Group>
      <Group gap="sm">
        <TextInput
          placeholder="Search by name"
          aria-label="Search campaigns"
          value={q}
          onChange={(event) => search(event.currentTarget.value)}
          w={320}
        />
        <Select
          placeholder="All kinds"
          aria-label="Kind"
          data={KIND_FILTER}
          value={kind}
          clearable
          onChange={resetting(setKind)}
          w={200}
        />
      </Group>
      <PagedListCard list={list} loadingLabel="Loading campaigns">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="lg" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={PICTURE_SIZE + 40} />
                <Table.Th>Campaign</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Designs</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Updated</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((c) => (
                <Table.Tr key={c.id} data-testid="campaign-row">
                  <Table.Td>
                    <CampaignPicture campaign={c} />
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={4} align="flex-start" maw={420}>
                      <Anchor component={Link} to={editorPath(c)} fw={500} lineClamp={2} title={c.name} style={{ overflowWrap: 'anywhere' }}>
                        {c.name}
                      </Anchor>
                      {c.mockups_pending && (
                        <LabelBadge size="xs" variant="dot" color="blue" data-testid="mockups-pending">
                          Mockups pending
                        </LabelBadge>
                      )}
                    </Stack>
                  </Table.Td>
                  <Table.Td>{KIND_LABELS[c.kind]}</Table.Td>
                  <Table.Td>
                    {plural(c.product_count, 'product')} · {plural(c.design_count, 'design')}
                  </Table.Td>
                  <Table.Td>
                    {/* max-content: a table squeezes a badge's label to an ellipsis ("DRA…") */}
                    <LabelBadge color={c.status === 'active' ? 'green' : 'gray'} code={c.status}>
                      {STATUS_LABELS[c.status]}
                    </LabelBadge>
                  </Table.Td>
                  <Table.Td>{new Date(c.updated_at).toLocaleString()}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="light" component={Link} to={editorPath(c)}>
                        {canSell ? 'Edit' : 'View'}
                      </Button>
                      {canSell && (
                        <Button size="xs" variant="light" color="teal" onClick={() => setSelling(c)}>
                          Sell
                        </Button>
                      )}
                      {canSell && (
                        <Button size="xs" color="red" variant="subtle" onClick={() => setDeleting(c)}>
                          Delete
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedListCard>
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
      <Modal opened={creating} onClose={() => setCreating(false)} title="New campaign" size="lg">
        <NewCampaignForm kind="regular" onCreated={(campaign) => void navigate(editorPath(campaign))} />
      </Modal>
      <ConfirmDelete
        item={deleting}
        onClose={() => setDeleting(null)}
        remove={async (id) => (await deleteCampaign(api, id)) || 'Campaign deleted.'}
        queryKey={CAMPAIGNS_KEY}
      />
      <SellDialog campaign={selling} onClose={() => setSelling(null)} />
    </Stack>
  );
}
