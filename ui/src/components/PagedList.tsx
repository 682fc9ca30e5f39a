import { Alert, Card, Group, Loader, Pagination, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Page } from '../api';
import { plural } from '../format/plural';

/** The empty state of a list. */
export function NoEntries({ py = 'xl' }: { py?: string }) {
  return (
    <Text c="dimmed" ta="center" py={py}>
      Oops! No entries found.
    </Text>
  );
}

/**
 * The card a paged list is drawn in: a loader while the first page loads, the error when it fails, the empty
 * state, else the rows as `children` draws them.
 */
export function PagedListCard<T>({
  list,
  loadingLabel,
  children,
}: {
  list: UseQueryResult<Page<T>>;
  loadingLabel: string;
  children: (rows: T[]) => ReactNode;
}) {
  const rows = list.data?.data ?? [];
  return (
    <Card withBorder radius="lg" padding={0}>
      {list.isPending && <Loader aria-label={loadingLabel} m="lg" />}
      {list.isError && (
        <Alert color="red" m="lg" role="alert">
          {list.error.message}
        </Alert>
      )}
      {list.isSuccess && rows.length === 0 && <NoEntries />}
      {rows.length > 0 && children(rows)}
    </Card>
  );
}

/** The page picker under a list, shown when there is more than one page. */
export function ListPager({ page, lastPage, onChange }: { page: number; lastPage: number | undefined; onChange: (page: number) => void }) {
  if (lastPage === undefined || lastPage <= 1) return null;
  return (
    <Group justify="flex-end">
      <Pagination total={lastPage} value={page} onChange={onChange} />
    </Group>
  );
}

/** The count under a list, "1 order" or "12 orders", once the list has loaded. */
export function ListTotal({ total, one, many }: { total: number | undefined; one: string; many: string }) {
  if (total === undefined) return null;
  return (
    <Text size="sm" c="dimmed">
      {plural(total, one, many)}
    </Text>
  );
}
