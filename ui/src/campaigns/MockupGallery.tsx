import { ActionIcon, Alert, Anchor, AspectRatio, Button, Card, Center, Group, Image, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { listMockups, retryMockup, setDefaultMockup, type Mockup, type Product } from '../api/campaigns';
import { CAMPAIGNS_KEY } from './queries';
import { LabelBadge } from '../components/LabelBadge';

/** How often the mockups are polled while a save's print files or mockups are being made. */
const MOCKUP_POLL_MS = 1000;

interface MockupGalleryProps {
  campaignId: number;
  products: readonly Product[];
  /** The revision of each design the editor last saved, by design id: a save polls the mockups afresh. */
  revisions: Readonly<Record<number, number>>;
  /** Whether the saved designs' print files are all settled; mockups are queued as each print file is made. */
  exportsSettled: boolean;
}

interface MockupCardProps {
  mockup: Mockup;
  /** Whether the default choice of this mockup is being sent. */
  choosing: boolean;
  /** Whether the retry of this mockup is being sent. */
  retrying: boolean;
  onDefault: () => void;
  onRetry: () => void;
}

/**
 * One mockup: its 500 px preview once made, opening the full image, and its download; a loader while it is made; the
 * renderer's message and a retry when it failed; and the default choice.
 */
function MockupCard({ mockup, choosing, retrying, onDefault, onRetry }: MockupCardProps) {
  const isDefault = mockup.is_default_mockup === '1';
  return (
    <Card withBorder radius="md" padding="xs" data-testid="mockup" data-status={mockup.status} data-default={isDefault}>
      <Card.Section>
        <AspectRatio ratio={1}>
          {mockup.status === 'done' ? (
            <Anchor href={mockup.url} target="_blank" rel="noopener" aria-label={`Open the full ${mockup.name} mockup`}>
              <Image src={mockup.preview_url || mockup.url} alt={`${mockup.name} mockup`} fit="contain" w="100%" h="100%" data-testid="mockup-image" />
            </Anchor>
          ) : (
            <Center bg="var(--mantine-color-default-hover)">
              {mockup.status === 'pending' ? (
                <Loader size="sm" aria-label={`Making the ${mockup.name} mockup`} />
              ) : (
                <Stack gap={6} align="center" p="xs">
                  <Text size="xs" c="red" ta="center" data-testid="mockup-error">
                    {mockup.error}
                  </Text>
                  <Button size="compact-xs" variant="light" color="red" loading={retrying} onClick={onRetry} aria-label={`Retry the ${mockup.name} mockup`}>
                    Retry
                  </Button>
                </Stack>
              )}
            </Center>
          )}
        </AspectRatio>
      </Card.Section>
      <Group justify="space-between" mt="xs" gap={4} wrap="nowrap">
        <Text size="xs" truncate>
          {mockup.name} · {mockup.print_space}
        </Text>
        {mockup.status === 'done' && (
          <ActionIcon
            component="a"
            href={mockup.download_url}
            download
            size="sm"
            variant="subtle"
            aria-label={`Download the ${mockup.name} mockup`}
            title={`Download ${mockup.file_name}`}
          >
            <IconDownload size={14} />
          </ActionIcon>
        )}
        {isDefault ? (
          <LabelBadge size="sm" color="green">
            Default
          </LabelBadge>
        ) : (
          <Button size="compact-xs" variant="subtle" loading={choosing} onClick={onDefault} aria-label={`Make ${mockup.name} the default mockup`}>
            Make default
          </Button>
        )}
      </Group>
    </Card>
  );
}

/** The flat mockups of the campaign's products, as the renderer makes them after each save, with each product's default. */
export function MockupGallery({ campaignId, products, revisions, exportsSettled }: MockupGalleryProps) {
  const queryClient = useQueryClient();
  // The mockups of a print file are queued in the transaction that records it, so the list is read
  // afresh once the print files settle: a poll may have last looked just before the final one was made.
  const queryKey = [...CAMPAIGNS_KEY, 'mockups', campaignId, revisions, exportsSettled];
  const mockups = useQuery({
    queryKey,
    queryFn: ({ signal }) => listMockups(api, campaignId, signal),
    refetchInterval: (query) =>
      !exportsSettled || !query.state.data || query.state.data.some((m) => m.status === 'pending') ? MOCKUP_POLL_MS : false,
    placeholderData: keepPreviousData,
  });
  // Both actions answer the campaign's mockups, which replace the list, or show why they failed.
  const answered = {
    onSuccess: (next: Mockup[]) => queryClient.setQueryData(queryKey, next),
    onError: (error: Error) => notifications.show({ color: 'red', message: error.message }),
  };
  const choose = useMutation({ mutationFn: (mockupId: number) => setDefaultMockup(api, campaignId, mockupId), ...answered });
  const retry = useMutation({ mutationFn: (mockupId: number) => retryMockup(api, campaignId, mockupId), ...answered });
  const items = mockups.data ?? [];
  const shown = products.filter((p) => items.some((m) => m.product_id === p.id));
  return (
    <Card withBorder radius="lg" padding="lg">
      <Title order={2} fz="h4" mb="sm">
        Mockups
      </Title>
      {mockups.error && (
        <Alert color="red" mb="sm">
          {mockups.error.message}
        </Alert>
      )}
      {shown.length === 0 ? (
        <Text c="dimmed" size="sm">
          Save the campaign to see its products&apos; mockups.
        </Text>
      ) : (
        <Stack gap="md">
          {shown.map((p) => (
            <Stack key={p.id} gap={6} data-testid="mockup-product" data-product={p.name}>
              <Text fw={500} size="sm">
                {p.name}
              </Text>
              <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
                {items
                  .filter((m) => m.product_id === p.id)
                  .map((m) => (
                    <MockupCard
                      key={m.id}
                      mockup={m}
                      choosing={choose.isPending && choose.variables === m.id}
                      retrying={retry.isPending && retry.variables === m.id}
                      onDefault={() => choose.mutate(m.id)}
                      onRetry={() => retry.mutate(m.id)}
                    />
                  ))}
              </SimpleGrid>
            </Stack>
          ))}
        </Stack>
      )}
    </Card>
  );
}
