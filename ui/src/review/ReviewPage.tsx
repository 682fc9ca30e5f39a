import {
  Alert,
  Button,
  Card,
  FileButton,
  Grid,
  Group,
  Kbd,
  Loader,
  Modal,
  Pagination,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { notifications as toasts } from '@mantine/notifications';
import { IconCheck, IconDownload, IconRefresh, IconUpload, IconX } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, isApiError } from '../api';
import {
  approveItem,
  rejectItem,
  replaceItem,
  rerenderItem,
  reviewItem,
  reviewKeys,
  reviewQueue,
  type ReviewItem,
  type ReviewStatus,
} from '../api/review';
import { uploadFile } from '../uploads/uploader';
import { DesignPanel, DpiPanel, FactsPanel, HistoryPanel, PersonalizationPanel, StatusBadge } from './ReviewPanels';
import { queueCommand, step } from './queue';
import { VersionCompare } from './VersionCompare';
import { GUIDES_LEGEND } from '../print/guides';

/** Where the design area lives (the Design menu's section path). */
const REVIEW_PATH = '/orders/design';

const FILTERS: Record<string, readonly ReviewStatus[]> = {
  open: ['designing', 'reviewing'],
  approved: ['approved'],
  rejected: ['rejected'],
  all: [],
};
type Filter = keyof typeof FILTERS;

const errorMessage = (error: unknown) => (isApiError(error) ? error.message : 'Something went wrong.');

/**
 * The designers' area: the queue of print files to check on the left, worked with the
 * keyboard (J/K or the arrows move, A approves, R rejects with a comment), and the selected item's
 * review screen: the deep-zoom print file beside its facts, DPI report, personalization and design.
 */
export function ReviewPage() {
  const params = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<Filter>('open');
  const [page, setPage] = useState(1);
  const [rejecting, setRejecting] = useState(false);
  const [comment, setComment] = useState('');
  const queue = useQuery({
    queryKey: reviewKeys.queue(FILTERS[filter] ?? [], page),
    queryFn: ({ signal }) => reviewQueue(api, FILTERS[filter] ?? [], page, signal),
    placeholderData: keepPreviousData,
    // Items move on as the renderer finishes their print files.
    refetchInterval: 5000,
  });
  const ids = queue.data?.data.map((i) => i.id) ?? [];
  const routeId = params.id ? Number(params.id) : null;
  const selected = routeId ?? ids[0] ?? null;
  const select = (id: number | null) => {
    if (id !== null) void navigate(`${REVIEW_PATH}/${id}`);
  };

  const afterAction = (item: ReviewItem, message: string, advance: boolean) => {
    toasts.show({ color: 'green', message });
    queryClient.setQueryData(reviewKeys.item(item.id), item);
    void queryClient.invalidateQueries({ queryKey: ['review', 'queue'] });
    if (advance) {
      const next = step(ids, item.id, 1);
      if (next !== null && next !== item.id) select(next);
    }
  };
  const approve = useMutation({
    mutationFn: (id: number) => approveItem(api, id),
    onSuccess: (item) => afterAction(item, `Approved ${item.order_number} · ${item.product_name}.`, true),
    onError: (error) => toasts.show({ color: 'red', message: errorMessage(error) }),
  });
  const reject = useMutation({
    mutationFn: ({ id, text }: { id: number; text: string }) => rejectItem(api, id, text),
    onSuccess: (item) => {
      setRejecting(false);
      setComment('');
      afterAction(item, `Rejected ${item.order_number} · ${item.product_name}; the seller is notified.`, true);
    },
  });

  // The latest values for the keyboard handler, which is registered once.
  const latest = useRef({ ids, selected, rejecting, approve: approve.mutate });
  useEffect(() => {
    latest.current = { ids, selected, rejecting, approve: approve.mutate };
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { ids: list, selected: current, rejecting: open, approve: doApprove } = latest.current;
      if (open) return;
      const command = queueCommand(event);
      if (!command) return;
      event.preventDefault();
      if (command === 'next' || command === 'previous') {
        const id = step(list, current, command === 'next' ? 1 : -1);
        if (id !== null) void navigate(`${REVIEW_PATH}/${id}`);
      } else if (current !== null && command === 'approve') {
        doApprove(current);
      } else if (current !== null && command === 'reject') {
        setRejecting(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        {/* The queue's tabs sit in the header, where they have the page's width: in the queue's column they did not fit
            a 1366 px window (the last one was cut). */}
        <Group gap="lg" align="flex-end">
          <Title order={1} fz="h2">
            Design review
          </Title>
          <SegmentedControl
            data-testid="review-filter"
            size="xs"
            value={filter}
            onChange={(value) => {
              setFilter(value);
              setPage(1);
              // The detail follows the tab: its first item, not the one picked under another tab.
              void navigate(REVIEW_PATH);
            }}
            data={[
              { value: 'open', label: 'To review' },
              { value: 'approved', label: 'Approved' },
              { value: 'rejected', label: 'Rejected' },
              { value: 'all', label: 'All' },
            ]}
          />
        </Group>
        <Text size="sm" c="dimmed">
          <Kbd>J</Kbd>/<Kbd>K</Kbd> next/previous · <Kbd>A</Kbd> approve · <Kbd>R</Kbd> reject
        </Text>
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Stack gap="sm">
            {queue.isError && <Alert color="red">{queue.error.message}</Alert>}
            {queue.isPending ? (
              <Loader size="sm" />
            ) : (
              <Card withBorder radius="md" padding={0} data-testid="review-queue">
                {queue.data?.data.length === 0 && (
                  <Text size="sm" c="dimmed" p="md">
                    Nothing here.
                  </Text>
                )}
                {queue.data?.data.map((item, i) => (
                  <UnstyledButton
                    key={item.id}
                    onClick={() => select(item.id)}
                    px="md"
                    py="xs"
                    data-testid="queue-item"
                    data-selected={item.id === selected || undefined}
                    aria-current={item.id === selected ? 'true' : undefined}
                    style={{
                      borderTop: i === 0 ? undefined : '1px solid var(--mantine-color-default-border)',
                      background: item.id === selected ? 'var(--mantine-color-blue-light)' : undefined,
                    }}
                  >
                    <Group justify="space-between" wrap="nowrap">
                      <Stack gap={0}>
                        <Text size="sm" fw={500}>
                          {item.order_number} · {item.product_name}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {item.customer_name}
                          {item.width !== null ? ` · ${item.width} × ${item.height}` : ''}
                        </Text>
                      </Stack>
                      <StatusBadge status={item.status} />
                    </Group>
                  </UnstyledButton>
                ))}
              </Card>
            )}
            {queue.data && queue.data.last_page > 1 && (
              <Pagination size="sm" value={page} onChange={setPage} total={queue.data.last_page} />
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          {selected === null ? (
            <Text c="dimmed">No print file to review.</Text>
          ) : (
            <ReviewScreen
              id={selected}
              onApprove={() => approve.mutate(selected)}
              approving={approve.isPending}
              onReject={() => setRejecting(true)}
              onChanged={(item, message) => afterAction(item, message, false)}
            />
          )}
        </Grid.Col>
      </Grid>
      <Modal opened={rejecting} onClose={() => setRejecting(false)} title="Reject the print file">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (selected !== null) reject.mutate({ id: selected, text: comment });
          }}
        >
          <Stack>
            <Textarea
              label="What should the seller change?"
              description="The seller reads this as a notification."
              autosize
              minRows={3}
              maxLength={2000}
              data-autofocus
              value={comment}
              onChange={(event) => setComment(event.currentTarget.value)}
              error={reject.isError ? errorMessage(reject.error) : undefined}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setRejecting(false)}>
                Cancel
              </Button>
              <Button type="submit" color="red" loading={reject.isPending} disabled={comment.trim() === ''}>
                Reject
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}

interface ReviewScreenProps {
  id: number;
  onApprove: () => void;
  approving: boolean;
  onReject: () => void;
  onChanged: (item: ReviewItem, message: string) => void;
}

/** One item: the print file in deep zoom and everything a designer checks beside it. */
function ReviewScreen({ id, onApprove, approving, onReject, onChanged }: ReviewScreenProps) {
  const item = useQuery({
    queryKey: reviewKeys.item(id),
    queryFn: ({ signal }) => reviewItem(api, id, signal),
    // Poll while the renderer prepares the print file.
    refetchInterval: (query) => (query.state.data?.print_status === 'pending' ? 2000 : false),
  });
  const rerender = useMutation({
    mutationFn: () => rerenderItem(api, id),
    onSuccess: (next) => onChanged(next, 'Re-rendering the print file.'),
    onError: (error) => toasts.show({ color: 'red', message: errorMessage(error) }),
  });
  const replace = useMutation({
    mutationFn: async (file: File) => replaceItem(api, id, (await uploadFile(api, file)).id),
    onSuccess: (next) => onChanged(next, 'Print file replaced; it is being checked.'),
    onError: (error) => toasts.show({ color: 'red', message: errorMessage(error) }),
  });

  if (item.isPending) return <Loader />;
  if (item.isError) return <Alert color="red">{item.error.message}</Alert>;
  const it = item.data;
  const reviewable = it.status === 'reviewing' && it.print_status === 'done';
  const final = it.status === 'approved';
  return (
    <Stack gap="md" data-testid="review-screen" data-item={it.id}>
      <Group justify="space-between">
        <Stack gap={0}>
          <Group gap="xs">
            <Title order={2} fz="h3">
              {it.order_number} · {it.product_name}
            </Title>
            <StatusBadge status={it.status} />
          </Group>
          <Text size="sm" c="dimmed">
            {it.customer_name} · {it.print_space.name ?? 'print space'} {it.print_space.width} × {it.print_space.height} px ·
            revision {it.revision}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button color="green" leftSection={<IconCheck size={16} />} disabled={!reviewable} loading={approving} onClick={onApprove}>
            Approve
          </Button>
          <Button
            color="red"
            variant="light"
            leftSection={<IconX size={16} />}
            disabled={it.status !== 'reviewing' && it.status !== 'designing'}
            onClick={onReject}
          >
            Reject
          </Button>
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            disabled={final}
            loading={rerender.isPending}
            onClick={() => rerender.mutate()}
          >
            Re-render
          </Button>
          <FileButton accept="image/png" onChange={(file) => file && replace.mutate(file)} disabled={final}>
            {(props) => (
              <Button {...props} variant="default" leftSection={<IconUpload size={16} />} loading={replace.isPending} disabled={final}>
                Replace
              </Button>
            )}
          </FileButton>
        </Group>
      </Group>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          {it.manifest && it.tiles_url ? (
            <Stack gap={4}>
              <VersionCompare itemId={it.id} revision={it.revision} manifest={it.manifest} tilesUrl={it.tiles_url} dpi={it.print_space.dpi} />
              <Group justify="space-between">
                <Text size="xs" c="dimmed">
                  {GUIDES_LEGEND} · checkerboard: transparent
                </Text>
                {it.file_url && (
                  <Button
                    component="a"
                    href={it.file_url}
                    target="_blank"
                    rel="noopener"
                    size="compact-xs"
                    variant="subtle"
                    leftSection={<IconDownload size={12} />}
                  >
                    Full file
                  </Button>
                )}
              </Group>
            </Stack>
          ) : it.print_status === 'failed' ? (
            <Alert color="red" title="The print file could not be prepared">
              {it.print_error}
            </Alert>
          ) : (
            <Card withBorder radius="md" h={300}>
              <Stack align="center" justify="center" h="100%" gap="xs">
                <Loader size="sm" />
                <Text size="sm" c="dimmed">
                  The renderer is preparing this print file…
                </Text>
              </Stack>
            </Card>
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="lg">
            <FactsPanel item={it} />
            <DpiPanel item={it} />
            <PersonalizationPanel item={it} />
          </Stack>
        </Grid.Col>
      </Grid>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <DesignPanel item={it} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <HistoryPanel item={it} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
