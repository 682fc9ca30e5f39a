import { Alert, Anchor, Button, Group, Image, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTags } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api';
import { blogPosts, deleteBlogPost, POST_STATES, type BlogPost, type PostState } from '../api/blog';
import { store } from '../api/stores';
import { can } from '../access/rules';
import { LabelBadge } from '../components/LabelBadge';
import { ListPager, ListTotal, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { ConfirmDelete } from '../feedback/ConfirmDelete';
import { formatDateTime } from '../format/dateTime';
import { variantUrl } from '../uploads/api';
import { useSessionUser } from '../session/useSessionUser';
import { STORES_KEY } from '../storefronts/keys';
import { shopURL } from '../storefronts/shopURL';
import { BLOG_POSTS_KEY } from './keys';

const STATE_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'draft', label: 'Drafts' },
  { value: 'scheduled', label: 'Scheduled' },
  { value: 'published', label: 'Published' },
];

/** `/storefronts/{id}/blog`: a store's posts, drafts, scheduled and published, searchable. */
export function StoreBlogPage() {
  const user = useSessionUser();
  const canEdit = can(user, 'update_campaign');
  const storeId = Number(useParams().id) || 0;
  const { q, search, debounced, page, setPage, resetting } = useListSearch();
  const [state, setState] = useState('all');
  const [deleting, setDeleting] = useState<BlogPost | null>(null);
  const shop = useQuery({ queryKey: [...STORES_KEY, 'one', storeId], queryFn: ({ signal }) => store(api, storeId, signal) });
  const list = useQuery({
    queryKey: [...BLOG_POSTS_KEY, storeId, state, debounced, page],
    queryFn: ({ signal }) => blogPosts(api, { storeId, page, q: debounced, state: state === 'all' ? null : (state as PostState) }, signal),
  });
  if (shop.isError) return <Alert color="red">{shop.error.message}</Alert>;
  const name = shop.data?.name ?? '';
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Anchor component={Link} to={`/storefronts/edit/${storeId}`} size="sm">
            ← {name || 'Store'}
          </Anchor>
          <Title order={1} fz="h2">
            Blog{name && ` of ${name}`}
          </Title>
          {shop.data && (
            <Text size="sm">
              Buyers read it at{' '}
              <Anchor href={`${shopURL(shop.data.slug)}blog`} target="_blank" rel="noreferrer">
                {`${shopURL(shop.data.slug)}blog`}
              </Anchor>{' '}
              once a post is published; the store&apos;s menu then links it.
            </Text>
          )}
        </Stack>
        <Group>
          <Button variant="default" leftSection={<IconTags size={16} />} component={Link} to="/blog/categories">
            Categories
          </Button>
          {canEdit && (
            <Button leftSection={<IconPlus size={16} />} component={Link} to={`/blog/new?store=${storeId}`}>
              New post
            </Button>
          )}
        </Group>
      </Group>
      <Group>
        <SegmentedControl aria-label="Show" data={STATE_FILTERS} value={state} onChange={resetting(setState)} />
        <TextInput placeholder="Search by title or address" aria-label="Search posts" value={q} onChange={(e) => search(e.currentTarget.value)} w={300} />
        <ListTotal total={list.data?.total} one="post" many="posts" />
      </Group>
      <PagedListCard list={list} loadingLabel="Loading posts">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="lg">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={80} />
                <Table.Th>Post</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Publish date</Table.Th>
                <Table.Th>Categories</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((p) => (
                <Table.Tr key={p.id} data-testid="blog-post">
                  <Table.Td>
                    {p.cover_url ? <Image src={variantUrl(p.cover_url, 'thumb')} alt="" w={64} h={40} radius="sm" fit="cover" /> : null}
                  </Table.Td>
                  <Table.Td maw={340}>
                    <Anchor component={Link} to={`/blog/${p.id}/edit`} fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {p.title}
                    </Anchor>
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {p.state === 'published' ? (
                        <Anchor href={`${shopURL(p.store_slug)}blog/${p.slug}`} target="_blank" rel="noreferrer" size="xs">
                          /blog/{p.slug}
                        </Anchor>
                      ) : (
                        `/blog/${p.slug}`
                      )}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <LabelBadge color={POST_STATES[p.state].color} code={p.state}>
                      {POST_STATES[p.state].label}
                    </LabelBadge>
                  </Table.Td>
                  <Table.Td>{p.published_at ? formatDateTime(p.published_at, user.timezone) : '—'}</Table.Td>
                  <Table.Td>{p.categories.map((c) => c.name).join(', ') || '—'}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="light" component={Link} to={`/blog/${p.id}/edit`}>
                        {canEdit ? 'Edit' : 'View'}
                      </Button>
                      {canEdit && (
                        <Button size="xs" color="red" variant="subtle" onClick={() => setDeleting(p)}>
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
      <ConfirmDelete
        item={deleting && { id: deleting.id, name: deleting.title }}
        onClose={() => setDeleting(null)}
        remove={async (id) => (await deleteBlogPost(api, id)).message}
        queryKey={BLOG_POSTS_KEY}
      />
    </Stack>
  );
}
