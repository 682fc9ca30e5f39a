import { Anchor, Image, Loader, Pagination, ScrollArea, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../api';
import { CLIPARTS_KEY, listCliparts, type Clipart } from '../api/cliparts';
import { useListSearch } from '../components/useListSearch';

/**
 * The seller's ready cliparts as thumbnails to pick from, searched by name: the editor's add-image flow places the
 * one picked (its `key` is the design image's src).
 */
export function ClipartPicker({ onPick, verb }: { onPick: (clipart: Clipart) => void; verb: string }) {
  const { q, search, debounced, page, setPage } = useListSearch();
  const list = useQuery({
    queryKey: [...CLIPARTS_KEY, 'picker', debounced, page],
    queryFn: ({ signal }) => listCliparts(api, { folder: 'all', q: debounced, page, perPage: 16, readyOnly: true }, signal),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.data ?? [];
  return (
    <Stack gap="xs" data-testid="clipart-picker">
      <TextInput
        size="xs"
        leftSection={<IconSearch size={14} />}
        placeholder="Search cliparts"
        aria-label="Search cliparts"
        value={q}
        onChange={(event) => search(event.currentTarget.value)}
      />
      {list.isPending && <Loader size="sm" aria-label="Loading cliparts" />}
      {list.isError && (
        <Text size="xs" c="red">
          {list.error.message}
        </Text>
      )}
      {list.isSuccess && rows.length === 0 && (
        <Text size="xs" c="dimmed">
          {debounced ? 'No clipart of that name.' : 'No clipart yet. '}
          {!debounced && (
            <Anchor component={Link} to="/personalized/cliparts" size="xs">
              Upload cliparts
            </Anchor>
          )}
        </Text>
      )}
      <ScrollArea.Autosize mah={220}>
        <SimpleGrid cols={4} spacing={6}>
          {rows.map((c) => (
            <UnstyledButton
              key={c.id}
              onClick={() => onPick(c)}
              title={`${c.name} (${c.width}×${c.height})`}
              aria-label={`${verb} ${c.name}`}
              data-action="pickUpload"
              style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 6, padding: 2 }}
            >
              <Image src={c.thumbnail_url} alt={c.name} h={64} fit="contain" />
            </UnstyledButton>
          ))}
        </SimpleGrid>
      </ScrollArea.Autosize>
      {(list.data?.last_page ?? 1) > 1 && <Pagination size="xs" total={list.data?.last_page ?? 1} value={page} onChange={setPage} />}
    </Stack>
  );
}
