import { Alert, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { NO_KEYWORD_FILTERS, searchKeywords, searchKeywordSummary, type KeywordFilters } from '../api/searchKeywords';
import { DateRangeFilter } from '../components/DateRangeFilter';
import { StoreFilter } from '../components/StoreFilter';
import { ListPager, PagedListCard } from '../components/PagedList';
import { formatDateTime } from '../format/dateTime';
import { plural } from '../format/plural';
import { useSessionUser } from '../session/useSessionUser';

/**
 * `/search-keyword`: what buyers searched for in the seller's stores over a date range: the most searched queries,
 * and the searches that found nothing (products the stores could add).
 */
export function SearchKeywordsPage() {
  const [filters, setFilters] = useState<KeywordFilters>(NO_KEYWORD_FILTERS);
  const [topPage, setTopPage] = useState(1);
  const [nonePage, setNonePage] = useState(1);
  const setFilter = (change: Partial<KeywordFilters>) => {
    setFilters((f) => ({ ...f, ...change }));
    setTopPage(1);
    setNonePage(1);
  };
  const summary = useQuery({ queryKey: ['search-keywords', 'summary', filters], queryFn: ({ signal }) => searchKeywordSummary(api, filters, signal) });
  return (
    <Stack gap="lg" maw={1200}>
      <Stack gap={2}>
        <Title order={1} fz="h2">
          Search Keywords
        </Title>
        <Text c="dimmed" size="sm">
          What buyers typed into your stores&apos; search, counted by the hour. Searches that found nothing show what
          buyers wanted and did not find.
        </Text>
      </Stack>
      <Group gap="sm" align="flex-end">
        <StoreFilter value={filters.store_id} onChange={(store_id) => setFilter({ store_id })} />
        <DateRangeFilter filters={filters} setFilter={setFilter} />
      </Group>
      {summary.isError && <Alert color="red">{summary.error.message}</Alert>}
      {summary.data && (
        <Text size="sm" data-testid="keyword-summary">
          {plural(summary.data.searches, 'search', 'searches')} of {plural(summary.data.queries, 'different query', 'different queries')};{' '}
          {plural(summary.data.no_results, 'search', 'searches')} found nothing.
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <KeywordList title="Top searches" kind="top" filters={filters} page={topPage} setPage={setTopPage} />
        <KeywordList title="Searches with no results" kind="no_results" filters={filters} page={nonePage} setPage={setNonePage} />
      </SimpleGrid>
    </Stack>
  );
}

function KeywordList({
  title,
  kind,
  filters,
  page,
  setPage,
}: {
  title: string;
  kind: 'top' | 'no_results';
  filters: KeywordFilters;
  page: number;
  setPage: (page: number) => void;
}) {
  const user = useSessionUser();
  const list = useQuery({
    queryKey: ['search-keywords', kind, filters, page],
    queryFn: ({ signal }) => searchKeywords(api, kind, page, filters, signal),
  });
  return (
    <Stack gap="xs" data-testid={`keywords-${kind}`}>
      <Title order={2} fz="h4">
        {title}
      </Title>
      <PagedListCard list={list} loadingLabel={`Loading ${title.toLowerCase()}`}>
        {(rows) => (
          <Table verticalSpacing="xs" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Search</Table.Th>
                <Table.Th ta="right">{kind === 'top' ? 'Searches' : 'Found nothing'}</Table.Th>
                <Table.Th>{kind === 'top' ? 'Finds now' : 'Last searched'}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((k) => (
                <Table.Tr key={k.query} data-testid="keyword">
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{k.query}</Table.Td>
                  <Table.Td ta="right">{kind === 'top' ? k.searches : `${k.no_results} of ${k.searches}`}</Table.Td>
                  <Table.Td>
                    {kind === 'top' ? (
                      <Text size="sm" c={k.results === 0 ? 'red' : undefined}>
                        {k.results === 0 ? 'Nothing' : plural(k.results, 'product')}
                      </Text>
                    ) : (
                      <Text size="sm">{formatDateTime(k.last_searched_at, user.timezone)}</Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedListCard>
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
    </Stack>
  );
}

