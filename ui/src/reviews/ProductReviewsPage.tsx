import { Alert, Anchor, Button, Card, Group, Modal, Select, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import {
  MAX_REPLY,
  NO_REVIEW_FILTERS,
  productReviews,
  replyToReview,
  setReviewStatus,
  type ProductReview,
  type ReviewFilters,
} from '../api/reviews';
import { REVIEW_SETTINGS, stores } from '../api/stores';
import { can } from '../access/rules';
import { DateRangeFilter } from '../components/DateRangeFilter';
import { LabelBadge } from '../components/LabelBadge';
import { ListPager, ListTotal, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { formatDateTime } from '../format/dateTime';
import { formErrorsOf } from '../pages/auth/formErrors';
import { useSessionUser } from '../session/useSessionUser';
import { REVIEW_SETTING_EFFECT, REVIEW_STATUS, REVIEWS_KEY, stars } from './model';
import { ReviewPhoto } from './ReviewPhoto';

const RATINGS = [5, 4, 3, 2, 1].map((n) => ({ value: String(n), label: `${stars(n)} ${n} star${n === 1 ? '' : 's'}` }));
const STATUSES = Object.entries(REVIEW_STATUS).map(([value, s]) => ({ value, label: s.label }));

/**
 * `/settings/product-reviews`: what buyers wrote of the items they received, with rating, store, status and date
 * filters; the seller publishes, hides or answers each, and sees what each store shows.
 */
export function ProductReviewsPage() {
  const user = useSessionUser();
  const canAnswer = can(user, 'update_campaign');
  const { q, search, debounced, page, setPage, resetting } = useListSearch();
  const [filters, setFilters] = useState<Omit<ReviewFilters, 'q'>>(NO_REVIEW_FILTERS);
  const setFilter = resetting((change: Partial<ReviewFilters>) => setFilters((f) => ({ ...f, ...change })));
  const applied: ReviewFilters = { ...filters, q: debounced };
  const list = useQuery({
    queryKey: [...REVIEWS_KEY, applied, page],
    queryFn: ({ signal }) => productReviews(api, page, applied, signal),
  });
  const storeList = useQuery({ queryKey: ['review-stores'], queryFn: ({ signal }) => stores(api, 1, '', signal) });
  const [replying, setReplying] = useState<ProductReview | null>(null);
  return (
    <Stack gap="lg" maw={1100}>
      <Stack gap={2}>
        <Title order={1} fz="h2">
          Product Reviews
        </Title>
        <Text c="dimmed" size="sm">
          What buyers wrote of the items they received, from the link in their delivery e-mail. A review shows in your
          stores once you publish it.
        </Text>
      </Stack>
      <Group gap="sm" align="flex-end">
        <TextInput
          placeholder="Text, name or product"
          aria-label="Search reviews"
          value={q}
          onChange={(e) => search(e.currentTarget.value)}
          w={260}
        />
        <Select aria-label="Rating" placeholder="Rating" data={RATINGS} value={filters.rating || null} onChange={(v) => setFilter({ rating: v ?? '' })} clearable w={170} />
        <Select aria-label="Status" placeholder="Status" data={STATUSES} value={filters.status || null} onChange={(v) => setFilter({ status: v ?? '' })} clearable w={180} />
        <Select
          aria-label="Store"
          placeholder="Store"
          data={(storeList.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
          value={filters.store_id || null}
          onChange={(v) => setFilter({ store_id: v ?? '' })}
          clearable
          w={200}
        />
        <DateRangeFilter filters={filters} setFilter={setFilter} />
      </Group>
      <PagedListCard list={list} loadingLabel="Loading reviews">
        {(rows) => (
          <Stack gap={0}>
            {rows.map((r) => (
              <ReviewRow key={r.id} review={r} canAnswer={canAnswer} onReply={() => setReplying(r)} timeZone={user.timezone} />
            ))}
          </Stack>
        )}
      </PagedListCard>
      <ListTotal total={list.data?.total} one="review" many="reviews" />
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
      {storeList.data && storeList.data.data.length > 0 && (
        <Card withBorder radius="lg" padding="lg">
          <Stack gap="xs">
            <Title order={2} fz="h4">
              Where reviews show
            </Title>
            {storeList.data.data.map((s) => (
              <Group key={s.id} gap="xs" data-testid="review-setting">
                <Text size="sm" fw={600}>
                  {s.name}
                </Text>
                <LabelBadge color={s.review_setting === 'disable' ? 'gray' : 'blue'} code={s.review_setting}>
                  {REVIEW_SETTINGS.find((o) => o.value === s.review_setting)?.label ?? s.review_setting}
                </LabelBadge>
                <Text size="sm" c="dimmed">
                  {REVIEW_SETTING_EFFECT[s.review_setting]}.
                </Text>
                <Anchor component={Link} to={`/storefronts/edit/${s.id}`} size="sm">
                  {can(user, 'update_campaign') ? 'Change' : 'See the store'}
                </Anchor>
              </Group>
            ))}
          </Stack>
        </Card>
      )}
      <ReplyDialog review={replying} onClose={() => setReplying(null)} />
    </Stack>
  );
}

function ReviewRow({
  review: r,
  canAnswer,
  onReply,
  timeZone,
}: {
  review: ProductReview;
  canAnswer: boolean;
  onReply: () => void;
  timeZone: string;
}) {
  const client = useQueryClient();
  const status = useMutation({
    mutationFn: (action: 'publish' | 'hide') => setReviewStatus(api, r.id, action),
    onSuccess: async ({ message }) => {
      notifications.show({ color: 'green', message });
      await client.invalidateQueries({ queryKey: REVIEWS_KEY });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  const badge = REVIEW_STATUS[r.status];
  const variant = [r.color, r.size].filter(Boolean).join(', ');
  return (
    <Stack gap={6} p="lg" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }} data-testid="product-review">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={2}>
          <Group gap="xs">
            <Text c="yellow.7" fz="lg" role="img" aria-label={`${r.rating} out of 5 stars`}>
              {stars(r.rating)}
            </Text>
            <Text fw={600}>{r.author}</Text>
            <LabelBadge color={badge.color} code={r.status}>
              {badge.label}
            </LabelBadge>
          </Group>
          <Text size="sm" c="dimmed">
            {r.campaign ? r.campaign.name : 'A campaign since deleted'} · {r.product_name}
            {variant && ` (${variant})`} · {r.store.name} ·{' '}
            <Anchor component={Link} to={`/orders/detail/${r.order_id}`} size="sm">
              Order #{r.order_number}
            </Anchor>{' '}
            · {formatDateTime(r.created_at, timeZone)}
          </Text>
        </Stack>
        {canAnswer && (
          <Group gap="xs" wrap="nowrap">
            {r.status !== 'published' && (
              <Button size="xs" loading={status.isPending && status.variables === 'publish'} onClick={() => status.mutate('publish')}>
                Publish
              </Button>
            )}
            {r.status !== 'hidden' && (
              <Button size="xs" variant="light" color="gray" loading={status.isPending && status.variables === 'hide'} onClick={() => status.mutate('hide')}>
                Hide
              </Button>
            )}
            <Button size="xs" variant="subtle" onClick={onReply}>
              {r.reply ? 'Edit reply' : 'Reply'}
            </Button>
          </Group>
        )}
      </Group>
      <Text style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{r.body}</Text>
      <ReviewPhoto review={r} />
      {r.reply && (
        <Card bg="var(--mantine-color-default-hover)" radius="md" padding="sm">
          <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            <Text span fw={600}>
              Your reply:{' '}
            </Text>
            {r.reply}
          </Text>
        </Card>
      )}
    </Stack>
  );
}

/** The reply dialog of one review: the reply buyers see under it; saved empty, it is removed. */
function ReplyDialog({ review, onClose }: { review: ProductReview | null; onClose: () => void }) {
  return (
    <Modal opened={review !== null} onClose={onClose} title={review ? `Reply to ${review.author}` : ''} size="lg">
      {review && <ReplyForm key={review.id} review={review} onClose={onClose} />}
    </Modal>
  );
}

function ReplyForm({ review, onClose }: { review: ProductReview; onClose: () => void }) {
  const client = useQueryClient();
  const [reply, setReply] = useState(review.reply);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: () => replyToReview(api, review.id, reply),
    onSuccess: async ({ message }) => {
      notifications.show({ color: 'green', message });
      onClose();
      await client.invalidateQueries({ queryKey: REVIEWS_KEY });
    },
    onError: (error) => setErrors(formErrorsOf(error)),
  });
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed" lineClamp={3} style={{ whiteSpace: 'pre-line' }}>
          {stars(review.rating)} {review.body}
        </Text>
        {errors.form && <Alert color="red">{errors.form}</Alert>}
        <Textarea
          label="Your reply"
          description={`Shown under the review in your stores, in plain text; up to ${MAX_REPLY} characters. Leave it empty to remove it.`}
          rows={6}
          value={reply}
          onChange={(e) => setReply(e.currentTarget.value)}
          error={errors.reply}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save reply
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
