import { Alert, Group, Loader, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { QueryKey, UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Page } from '../api';
import type { FolderFilter, FolderKind } from '../api/folders';
import { ListPager, NoEntries } from '../components/PagedList';
import { FolderList } from './FolderList';

/**
 * The body of a library of files in folders (the artworks page, the cliparts library): the folders on the left, and
 * on the right the search by name, then the page of cards `card` draws, and the pager.
 */
export function FolderedGrid<T extends { id: number }>({
  kind,
  folder,
  onFolder,
  canEdit,
  filesKey,
  search,
  onSearch,
  searchLabel,
  list,
  loadingLabel,
  page,
  onPage,
  card,
}: {
  kind: FolderKind;
  folder: FolderFilter;
  onFolder: (folder: FolderFilter) => void;
  canEdit: boolean;
  filesKey: QueryKey;
  search: string;
  onSearch: (q: string) => void;
  searchLabel: string;
  list: UseQueryResult<Page<T>>;
  loadingLabel: string;
  page: number;
  onPage: (page: number) => void;
  card: (row: T) => ReactNode;
}) {
  const rows = list.data?.data ?? [];
  return (
    <Group align="flex-start" wrap="nowrap" gap="lg">
      <FolderList kind={kind} value={folder} onChange={onFolder} canEdit={canEdit} filesKey={filesKey} />
      <Stack gap="md" style={{ flex: 1, minWidth: 0 }}>
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder="Search by name"
          aria-label={searchLabel}
          value={search}
          onChange={(event) => onSearch(event.currentTarget.value)}
          maw={360}
        />
        {list.isPending && <Loader aria-label={loadingLabel} />}
        {list.isError && <Alert color="red">{list.error.message}</Alert>}
        {list.isSuccess && rows.length === 0 && <NoEntries />}
        {rows.length > 0 && <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>{rows.map(card)}</SimpleGrid>}
        <ListPager page={page} lastPage={list.data?.last_page} onChange={onPage} />
      </Stack>
    </Group>
  );
}
