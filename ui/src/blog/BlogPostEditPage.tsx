import { Alert, Anchor, Button, Card, FileButton, Group, Image, MultiSelect, SegmentedControl, Select, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api } from '../api';
import { blogCategories, blogPost, checkPostSlug, POST_STATES, saveBlogPost, type BlogPost } from '../api/blog';
import { can } from '../access/rules';
import { LabelBadge } from '../components/LabelBadge';
import { RichTextInput } from '../components/RichTextInput';
import { AddressInput } from '../components/AddressInput';
import { useAddressField } from '../components/useAddressField';
import { fromLocalInput, toLocalInput } from '../format/dateTime';
import { useSessionUser } from '../session/useSessionUser';
import { shopURL } from '../storefronts/shopURL';
import { useStoreChoices } from '../storefronts/useStoreChoices';
import { variantUrl } from '../uploads/api';
import { notifyUploadFailed } from '../uploads/notify';
import { uploadFile } from '../uploads/uploader';
import { BLOG_CATEGORIES_KEY, BLOG_POSTS_KEY } from './keys';
import { EditedItem } from '../forms/EditedItem';
import { useFormSave } from '../forms/useFormSave';

const STATUSES = [
  { value: 'draft', label: 'Draft' },
  { value: 'published', label: 'Published' },
];

/** `/blog/new` (`?store=` picks the store) and `/blog/{postId}/edit`: a post's store, title, address, cover, text and publication. */
export function BlogPostEditPage() {
  const postId = Number(useParams().postId) || 0;
  return (
    <EditedItem id={postId} area={BLOG_POSTS_KEY} load={(id, signal) => blogPost(api, id, signal)} loading="Loading the post">
      {(existing) => <PostForm existing={existing} />}
    </EditedItem>
  );
}

function PostForm({ existing }: { existing?: BlogPost }) {
  const user = useSessionUser();
  const readOnly = !can(user, 'update_campaign');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const choices = useStoreChoices();
  const [storeId, setStoreId] = useState<string | null>(existing ? String(existing.store_id) : params.get('store'));
  const [title, setTitle] = useState(existing?.title ?? '');
  const [excerpt, setExcerpt] = useState(existing?.excerpt ?? '');
  const [body, setBody] = useState(existing?.body ?? '');
  const [cover, setCover] = useState({ key: existing?.cover_key ?? '', url: existing?.cover_url ?? '' });
  const [categoryIds, setCategoryIds] = useState<string[]>(existing?.category_ids.map(String) ?? []);
  const [status, setStatus] = useState<'draft' | 'published'>(existing?.status ?? 'draft');
  const [publishAt, setPublishAt] = useState(toLocalInput(existing?.published_at ?? null));
  const { save, errors } = useFormSave({
    save: () =>
      saveBlogPost(api, existing?.id ?? null, {
        store_id: store,
        title: title.trim(),
        slug: address.slug,
        excerpt: excerpt.trim(),
        body,
        cover_key: cover.key,
        category_ids: categoryIds.map(Number),
        status,
        published_at: fromLocalInput(publishAt),
      }),
    invalidate: BLOG_POSTS_KEY,
    then: (saved) => {
      if (!existing) void navigate(`/blog/${saved.id}/edit`);
    },
  });
  const store = Number(storeId) || 0;
  const address = useAddressField({
    name: title,
    initial: existing?.slug,
    saved: existing && existing.store_id === store ? existing.slug : undefined,
    queryKey: [...BLOG_POSTS_KEY, store, existing?.id ?? 0],
    check: (slug, signal) => checkPostSlug(api, store, slug, existing?.id ?? 0, signal),
    readOnly: readOnly || store === 0,
  });
  const categories = useQuery({
    queryKey: [...BLOG_CATEGORIES_KEY, 'choices'],
    queryFn: ({ signal }) => blogCategories(api, 1, '', signal, 100),
  });
  const upload = useMutation({
    mutationFn: (file: File) => uploadFile(api, file, { filePath: 'blog' }),
    onSuccess: (u) => setCover({ key: u.filePath, url: u.fileUrl }),
    onError: notifyUploadFailed,
  });
  const storeSlug = existing?.store_slug ?? choices.slugOf(store);
  const back = store ? `/storefronts/${store}/blog` : '/storefronts';
  return (
    <Stack gap="lg" maw={900}>
      <Stack gap={2}>
        <Anchor component={Link} to={back} size="sm">
          ← {existing ? `Blog of ${existing.store_name}` : 'Back to the blog'}
        </Anchor>
        <Group gap="sm">
          <Title order={1} fz="h2" style={{ overflowWrap: 'anywhere' }}>
            {existing ? existing.title : 'New post'}
          </Title>
          {existing && (
            <LabelBadge color={POST_STATES[existing.state].color} code={existing.state}>
              {POST_STATES[existing.state].label}
            </LabelBadge>
          )}
        </Group>
        {existing?.state === 'published' && (
          <Text size="sm">
            Buyers read it at{' '}
            <Anchor href={`${shopURL(existing.store_slug)}blog/${existing.slug}`} target="_blank" rel="noreferrer">
              {`${shopURL(existing.store_slug)}blog/${existing.slug}`}
            </Anchor>
          </Text>
        )}
      </Stack>
      <Card withBorder radius="lg" padding="lg">
        <form
          aria-label="Blog post"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <Stack gap="sm">
            {errors.form && <Alert color="red">{errors.form}</Alert>}
            <Select
              label="Store"
              withAsterisk
              placeholder="Choose a store"
              data={choices.options}
              value={storeId}
              onChange={setStoreId}
              allowDeselect={false}
              disabled={readOnly}
              error={errors.store_id}
            />
            <TextInput label="Title" withAsterisk disabled={readOnly} value={title} onChange={(e) => setTitle(e.currentTarget.value)} error={errors.title} />
            <AddressInput field={address} prefix="/blog/" refusal={errors.slug} shop={storeSlug && shopURL(storeSlug)} disabled={readOnly} />
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                Cover image
              </Text>
              {cover.url ? (
                <Image src={variantUrl(cover.url, 'preview')} alt="The post's cover" maw={320} radius="md" />
              ) : (
                <Text size="sm" c="dimmed">
                  No cover: the post shows without a picture.
                </Text>
              )}
              {!readOnly && (
                <Group gap="xs">
                  <FileButton accept="image/png,image/jpeg,image/webp" onChange={(file) => file && upload.mutate(file)}>
                    {(props) => (
                      <Button {...props} size="xs" variant="light" loading={upload.isPending}>
                        {cover.url ? 'Replace cover' : 'Upload cover'}
                      </Button>
                    )}
                  </FileButton>
                  {cover.url && (
                    <Button size="xs" variant="subtle" color="red" onClick={() => setCover({ key: '', url: '' })}>
                      Remove cover
                    </Button>
                  )}
                </Group>
              )}
              {errors.cover_key && (
                <Text size="xs" c="red">
                  {errors.cover_key}
                </Text>
              )}
            </Stack>
            <Textarea
              label="Excerpt"
              description="Shown in the blog's list and to search engines; empty, the start of the text is"
              rows={2}
              maxLength={500}
              disabled={readOnly}
              value={excerpt}
              onChange={(e) => setExcerpt(e.currentTarget.value)}
              error={errors.excerpt}
            />
            <MultiSelect
              label="Categories"
              placeholder={readOnly ? undefined : 'Choose categories'}
              data={(categories.data?.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
              value={categoryIds}
              onChange={setCategoryIds}
              disabled={readOnly}
              searchable
              nothingFoundMessage="No category found"
              error={errors.category_ids}
            />
            {!readOnly && (
              <Text size="xs" c="dimmed" mt={-6}>
                <Anchor component={Link} to="/blog/categories" size="xs">
                  Manage categories
                </Anchor>
              </Text>
            )}
            <RichTextInput label="Text" initial={existing?.body ?? ''} onChange={setBody} readOnly={readOnly} error={errors.body} />
            <Group align="flex-end" grow>
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  Status
                </Text>
                <SegmentedControl
                  aria-label="Status"
                  data={STATUSES}
                  value={status}
                  onChange={(v) => setStatus(v as 'draft' | 'published')}
                  disabled={readOnly}
                />
              </Stack>
              <TextInput
                type="datetime-local"
                label="Publish date"
                description={status === 'published' ? 'Empty: now; a date to come schedules the post' : 'Used once the post is published'}
                value={publishAt}
                onChange={(e) => setPublishAt(e.currentTarget.value)}
                disabled={readOnly}
                error={errors.published_at ?? errors.status}
              />
            </Group>
            {!readOnly && (
              <Group>
                <Button type="submit" loading={save.isPending} disabled={upload.isPending}>
                  {existing ? 'Save post' : 'Create post'}
                </Button>
              </Group>
            )}
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
