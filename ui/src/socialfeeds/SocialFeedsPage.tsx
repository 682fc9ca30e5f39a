import { Anchor, Button, CopyButton, Group, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { deleteSocialFeed, downloadSocialFeed, rebuildSocialFeed, socialFeeds, type SocialFeed } from '../api/socialFeeds';
import { can } from '../access/rules';
import { DownloadButton } from '../components/DownloadButton';
import { LabelBadge } from '../components/LabelBadge';
import { ListPager, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { ConfirmDelete } from '../feedback/ConfirmDelete';
import { formatDateTime } from '../format/dateTime';
import { plural } from '../format/plural';
import { useSessionUser } from '../session/useSessionUser';
import { FEED_STATE, FEEDS_KEY, feedFileName, fileSize, formatLabel } from './model';

/** How often the list asks again while a feed is building. */
const BUILDING_POLL_MS = 2000;

/** `/social-feed`: the seller's product feeds for Google Merchant and the Facebook catalogue, with their address and last build. */
export function SocialFeedsPage() {
  const user = useSessionUser();
  const canEdit = can(user, 'update_campaign');
  const { q, search, debounced, page, setPage } = useListSearch();
  const [deleting, setDeleting] = useState<SocialFeed | null>(null);
  const list = useQuery({
    queryKey: [...FEEDS_KEY, debounced, page],
    queryFn: ({ signal }) => socialFeeds(api, page, debounced, signal),
    refetchInterval: (query) => (query.state.data?.data.some((f) => f.state === 'building') ? BUILDING_POLL_MS : false),
  });
  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz="h2">
            Social Feed
          </Title>
          <Text c="dimmed" size="sm">
            Your stores&apos; products for Google Merchant and the Facebook catalogue: each colour and size with its price,
            stock, link and mockup. Feeds are rebuilt when your products change; give the address to the catalogue.
          </Text>
        </Stack>
        {canEdit && (
          <Button leftSection={<IconPlus size={16} />} component={Link} to="/social-feed/update">
            New feed
          </Button>
        )}
      </Group>
      <TextInput placeholder="Search by name" aria-label="Search feeds" value={q} onChange={(e) => search(e.currentTarget.value)} w={320} />
      <PagedListCard list={list} loadingLabel="Loading feeds">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="lg">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Feed</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>Last build</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((f) => (
                <FeedRow key={f.id} feed={f} canEdit={canEdit} timeZone={user.timezone} onDelete={() => setDeleting(f)} />
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedListCard>
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
      <ConfirmDelete
        item={deleting}
        onClose={() => setDeleting(null)}
        remove={async (id) => (await deleteSocialFeed(api, id)).message}
        queryKey={FEEDS_KEY}
      />
    </Stack>
  );
}

function FeedRow({ feed: f, canEdit, timeZone, onDelete }: { feed: SocialFeed; canEdit: boolean; timeZone: string; onDelete: () => void }) {
  const client = useQueryClient();
  const rebuild = useMutation({
    mutationFn: () => rebuildSocialFeed(api, f.id),
    onSuccess: async ({ message }) => {
      notifications.show({ color: 'green', message });
      await client.invalidateQueries({ queryKey: FEEDS_KEY });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  const state = FEED_STATE[f.state];
  return (
    <Table.Tr data-testid="social-feed">
      <Table.Td>
        <Anchor component={Link} to={`/social-feed/update/${f.id}`} fw={600}>
          {f.name}
        </Anchor>
        <Text size="xs" c="dimmed">
          {formatLabel(f.format)} · {f.store_name} · {f.all_campaigns ? 'all campaigns' : plural(f.campaigns_count, 'chosen campaign')}
        </Text>
      </Table.Td>
      <Table.Td miw={260} maw={360}>
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {f.url}
        </Text>
        <Group gap={4} mt={2}>
          <CopyButton value={f.url}>
            {({ copied, copy }) => (
              <Button size="compact-xs" variant="subtle" onClick={copy}>
                {copied ? 'Copied' : 'Copy the address'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Table.Td>
      <Table.Td>
        <Stack gap={2}>
          <LabelBadge color={state.color} code={f.state}>
            {state.label}
          </LabelBadge>
          {f.built_at ? (
            <Text size="xs" c="dimmed" data-testid="feed-built">
              {formatDateTime(f.built_at, timeZone)} · {plural(f.item_count, 'item')} · {fileSize(f.byte_size)}
            </Text>
          ) : (
            <Text size="xs" c="dimmed">
              Not built yet
            </Text>
          )}
          {f.skipped_count > 0 && (
            <Text size="xs" c="orange">
              {plural(f.skipped_count, 'product')} left out until {f.skipped_count === 1 ? 'its mockup is' : 'their mockups are'} ready.
            </Text>
          )}
          {f.state === 'failed' && (
            <Text size="xs" c="red">
              {f.error}
            </Text>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Tooltip label="Build the feed first" disabled={f.built_at !== null}>
            <span>
              <DownloadButton label="Download" size="xs" disabled={f.built_at === null} load={() => downloadSocialFeed(api, f.id)} fileName={feedFileName(f)} />
            </span>
          </Tooltip>
          <Button size="xs" variant="light" component={Link} to={`/social-feed/update/${f.id}`}>
            {canEdit ? 'Edit' : 'View'}
          </Button>
          {canEdit && (
            <>
              <Button size="xs" variant="subtle" loading={rebuild.isPending} disabled={f.state === 'building'} onClick={() => rebuild.mutate()}>
                Rebuild
              </Button>
              <Button size="xs" color="red" variant="subtle" onClick={onDelete}>
                Delete
              </Button>
            </>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
