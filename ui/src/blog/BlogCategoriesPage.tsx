import { Alert, Button, Group, Modal, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { blogCategories, checkCategorySlug, deleteBlogCategory, saveBlogCategory, type BlogCategory } from '../api/blog';
import { can } from '../access/rules';
import { ListPager, ListTotal, PagedListCard } from '../components/PagedList';
import { AddressInput } from '../components/AddressInput';
import { useAddressField } from '../components/useAddressField';
import { useListSearch } from '../components/useListSearch';
import { ConfirmDelete } from '../feedback/ConfirmDelete';
import { plural } from '../format/plural';
import { formErrorsOf } from '../pages/auth/formErrors';
import { useSessionUser } from '../session/useSessionUser';
import { BLOG_CATEGORIES_KEY } from './keys';

/** `/blog/categories`: the seller's blog categories, shared by every store's blog; created and edited in a dialog. */
export function BlogCategoriesPage() {
  const user = useSessionUser();
  const canEdit = can(user, 'update_campaign');
  const { q, search, debounced, page, setPage } = useListSearch();
  const [editing, setEditing] = useState<BlogCategory | 'new' | null>(null);
  const [deleting, setDeleting] = useState<BlogCategory | null>(null);
  const list = useQuery({
    queryKey: [...BLOG_CATEGORIES_KEY, debounced, page],
    queryFn: ({ signal }) => blogCategories(api, page, debounced, signal),
  });
  return (
    <Stack gap="lg" maw={900}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz="h2">
            Blog Categories
          </Title>
          <Text c="dimmed" size="sm">
            Group your posts; each category with a published post has its page on your stores&apos; blogs.
          </Text>
        </Stack>
        {canEdit && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            New category
          </Button>
        )}
      </Group>
      <Group>
        <TextInput placeholder="Search by name or address" aria-label="Search categories" value={q} onChange={(e) => search(e.currentTarget.value)} w={320} />
        <ListTotal total={list.data?.total} one="category" many="categories" />
      </Group>
      <PagedListCard list={list} loadingLabel="Loading categories">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="lg">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Category</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>Posts</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((c) => (
                <Table.Tr key={c.id} data-testid="blog-category">
                  <Table.Td maw={320}>
                    <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {c.name}
                    </Text>
                    {c.description && (
                      <Text size="xs" c="dimmed" lineClamp={1}>
                        {c.description}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>/blog/category/{c.slug}</Table.Td>
                  <Table.Td>{plural(c.posts, 'post')}</Table.Td>
                  <Table.Td>
                    {canEdit && (
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        <Button size="xs" variant="light" onClick={() => setEditing(c)}>
                          Edit
                        </Button>
                        <Button size="xs" color="red" variant="subtle" onClick={() => setDeleting(c)}>
                          Delete
                        </Button>
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedListCard>
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? 'New category' : 'Edit category'}>
        {editing !== null && (
          <CategoryForm key={editing === 'new' ? 0 : editing.id} existing={editing === 'new' ? undefined : editing} onDone={() => setEditing(null)} />
        )}
      </Modal>
      <ConfirmDelete
        item={deleting}
        onClose={() => setDeleting(null)}
        remove={async (id) => (await deleteBlogCategory(api, id)).message}
        queryKey={BLOG_CATEGORIES_KEY}
        texts={{ text: 'Its posts stay, without this category.' }}
      />
    </Stack>
  );
}

function CategoryForm({ existing, onDone }: { existing?: BlogCategory; onDone: () => void }) {
  const client = useQueryClient();
  const [name, setName] = useState(existing?.name ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const address = useAddressField({
    name,
    initial: existing?.slug,
    saved: existing?.slug,
    queryKey: [...BLOG_CATEGORIES_KEY, existing?.id ?? 0],
    check: (slug, signal) => checkCategorySlug(api, slug, existing?.id ?? 0, signal),
    readOnly: false,
  });
  const save = useMutation({
    mutationFn: () => saveBlogCategory(api, existing?.id ?? null, { name: name.trim(), slug: address.slug, description: description.trim() }),
    onSuccess: async ({ message }) => {
      notifications.show({ color: 'green', message });
      await client.invalidateQueries({ queryKey: BLOG_CATEGORIES_KEY });
      onDone();
    },
    onError: (error) => setErrors(formErrorsOf(error)),
  });
  return (
    <form
      aria-label="Category"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        {errors.form && <Alert color="red">{errors.form}</Alert>}
        <TextInput label="Name" withAsterisk value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} data-autofocus />
        <AddressInput field={address} prefix="/blog/category/" refusal={errors.slug} disabled={false} />
        <Textarea label="Description" description="Shown on the category's page" rows={3} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={errors.description} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {existing ? 'Save category' : 'Create category'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
