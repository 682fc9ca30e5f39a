import {
  ActionIcon,
  Anchor,
  Button,
  Card,
  Group,
  Image,
  Menu,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots, IconFileImport, IconPlus, IconStack2 } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { currentAccessContext, visibleMenu } from '../access';
import { can } from '../access/rules';
import { api, isApiError } from '../api';
import {
  archiveCampaign,
  CAMPAIGN_KINDS,
  CAMPAIGN_STATUSES,
  deleteCampaign,
  duplicateCampaign,
  exportCampaigns,
  PRODUCT_TYPES,
  type CampaignKind,
  type CampaignListQuery,
  type CampaignStatus,
  type CampaignSummary,
  type ProductType,
} from '../api/campaigns';
import { DownloadButton } from '../components/DownloadButton';
import { LabelBadge } from '../components/LabelBadge';
import { ListPager, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { ConfirmDelete } from '../feedback/ConfirmDelete';
import { plural } from '../format/plural';
import { useSessionUser } from '../session/useSessionUser';
import { SellDialog } from '../storefronts/SellDialog';
import { CampaignAddressDialog } from './CampaignAddressDialog';
import { NewCampaignForm } from './NewCampaignForm';
import { CAMPAIGNS_KEY, campaignListQuery } from './queries';
import { KIND_LABELS, PRODUCT_TYPE_LABELS, STATUS_LABELS, editorPath } from './routes';

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
const TYPE_FILTER = PRODUCT_TYPES.map((t) => ({ value: t, label: PRODUCT_TYPE_LABELS[t] }));
const STATUS_FILTER = CAMPAIGN_STATUSES.map((st) => ({ value: st, label: STATUS_LABELS[st] }));

/** The colour of a status badge. */
const STATUS_COLORS: Readonly<Record<CampaignStatus, string>> = { draft: 'gray', active: 'green', archived: 'dark' };

/**
 * `/campaigns`: the seller's campaigns, searchable and filtered by kind, product type and status (archived ones
 * only when asked for), exported as CSV or JSON with those filters, with the "New campaign" flow, the import, and
 * per campaign Sell, Duplicate, its address, Archive and Delete (docs/campaigns.md).
 */
export function CampaignsPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  const bulkAllowed = useMemo(() => visibleMenu(user, currentAccessContext()).includes('campaigns.bulk'), [user]);
  const { q, search, debounced, page, setPage, resetting } = useListSearch();
  const [kind, setKind] = useState<CampaignKind | null>(null);
  const [productType, setProductType] = useState<ProductType | null>(null);
  const [status, setStatus] = useState<CampaignStatus | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<CampaignSummary | null>(null);
  const [selling, setSelling] = useState<CampaignSummary | null>(null);
  const [addressing, setAddressing] = useState<CampaignSummary | null>(null);
  const canSell = can(user, 'update_campaign');
  const filters: CampaignListQuery = { q: debounced, kind: kind ?? undefined, productType: productType ?? undefined, status: status ?? undefined };
  const list = useQuery(campaignListQuery({ ...filters, page }));

  /** Runs a row action, then says what it did and refreshes the list (or says why not). */
  async function act(run: () => Promise<string>) {
    try {
      notifications.show({ color: 'green', message: await run() });
      await queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
    } catch (e) {
      notifications.show({ color: 'red', message: isApiError(e) ? e.message : String(e) });
    }
  }

  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-end">
        <Title order={1} fz="h2">
          Campaigns
        </Title>
        <Group gap="sm">
          {canSell && (
            <Button variant="default" leftSection={<IconFileImport size={16} />} component={Link} to="/campaigns/import">
              Import
            </Button>
          )}
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
          w={170}
        />
        <Select
          placeholder="Campaigns and templates"
          aria-label="Type"
          data={TYPE_FILTER}
          value={productType}
          clearable
          onChange={resetting(setProductType)}
          w={230}
        />
        <Select
          placeholder="Draft and active"
          aria-label="Status"
          data={STATUS_FILTER}
          value={status}
          clearable
          onChange={resetting(setStatus)}
          w={180}
        />
        <Group gap="xs" ml="auto">
          <DownloadButton load={() => exportCampaigns(api, filters, 'csv')} fileName={() => exportName('csv')} label="Export CSV" />
          <DownloadButton load={() => exportCampaigns(api, filters, 'json')} fileName={() => exportName('json')} label="Export JSON" />
        </Group>
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
                  <Table.Td>
                    <Text size="sm">{KIND_LABELS[c.kind]}</Text>
                    {c.product_type !== 'campaign' && (
                      <Text size="xs" c="dimmed">
                        {PRODUCT_TYPE_LABELS[c.product_type]}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {plural(c.product_count, 'product')} · {plural(c.design_count, 'design')}
                  </Table.Td>
                  <Table.Td>
                    <LabelBadge color={STATUS_COLORS[c.status]} code={c.status}>
                      {STATUS_LABELS[c.status]}
                    </LabelBadge>
                  </Table.Td>
                  <Table.Td>{new Date(c.updated_at).toLocaleString()}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="light" component={Link} to={editorPath(c)}>
                        {canSell ? 'Edit' : 'View'}
                      </Button>
                      {canSell && c.status !== 'archived' && (
                        <Button size="xs" variant="light" color="teal" onClick={() => setSelling(c)}>
                          Sell
                        </Button>
                      )}
                      {canSell && (
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <ActionIcon variant="subtle" color="gray" aria-label={`More for ${c.name}`}>
                              <IconDots size={16} />
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item onClick={() => void act(async () => `Made “${(await duplicateCampaign(api, c.id)).name}”.`)}>Duplicate</Menu.Item>
                            <Menu.Item onClick={() => setAddressing(c)}>Change address</Menu.Item>
                            <Menu.Item onClick={() => void act(async () => (await archiveCampaign(api, c.id, c.status !== 'archived')).message)}>
                              {c.status === 'archived' ? 'Unarchive' : 'Archive'}
                            </Menu.Item>
                            <Menu.Divider />
                            <Menu.Item color="red" onClick={() => setDeleting(c)}>
                              Delete
                            </Menu.Item>
                          </Menu.Dropdown>
                        </Menu>
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
      <CampaignAddressDialog campaign={addressing} onClose={() => setAddressing(null)} />
    </Stack>
  );
}

/** The export's file name: campaigns-YYYY-MM-DD.csv (or .json), today. */
function exportName(ext: 'csv' | 'json'): string {
  return `campaigns-${new Date().toISOString().slice(0, 10)}.${ext}`;
}
