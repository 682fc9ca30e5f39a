import { Alert, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { can } from '../access';
import { api } from '../api';
import { margins } from '../api/reports';
import { DateRangeFilter } from '../components/DateRangeFilter';
import { StoreFilter } from '../components/StoreFilter';
import { formatMoney } from '../orders/labels';
import { useReportFilters } from '../overview/useReportFilters';
import { useSessionUser } from '../session/useSessionUser';

/** The margin as a share of the sales, one decimal; a dash without sales. */
function marginRate(margin: number, sales: number): string {
  return sales === 0 ? '–' : `${((margin / sales) * 100).toFixed(1)}%`;
}

/**
 * `/pricing/analytics`: for each product sold over a range, its units, sales, costs, fees and the margin they left
 * (docs/overview.md#margin-per-product). Needs get_reports, as the API does.
 */
export function PricingAnalyticsPage() {
  const user = useSessionUser();
  const allowed = can(user, 'get_reports');
  const { filters, setFilter, ready } = useReportFilters();
  const report = useQuery({
    queryKey: ['margins', filters],
    queryFn: ({ signal }) => margins(api, filters, signal),
    enabled: allowed && ready,
  });
  const rows = report.data?.products ?? [];
  return (
    <Stack gap="lg" maw={1200}>
      <Stack gap={2}>
        <Title order={1} fz="h2">
          Pricing Analytics
        </Title>
        <Text c="dimmed" size="sm">
          What each product sold over the range and what it left you: its price less its base cost, extra print cost and
          processing fee per unit, as the Pricing screen prices them.
        </Text>
      </Stack>
      {!allowed ? (
        <Alert color="yellow">Pricing Analytics shows sales figures: ask the account owner for the reports permission.</Alert>
      ) : (
        <>
          <Group gap="sm" align="flex-end">
            <StoreFilter value={filters.store_id} onChange={(store_id) => setFilter({ store_id })} />
            <DateRangeFilter filters={filters} setFilter={setFilter} />
          </Group>
          {report.isError && <Alert color="red">{report.error.message}</Alert>}
          {report.isPending && allowed && ready && <Loader aria-label="Loading the margins" />}
          {report.data && (
            <Card withBorder radius="lg" padding={0}>
              {rows.length === 0 ? (
                <Text p="lg" c="dimmed" size="sm">
                  No product sold in this range.
                </Text>
              ) : (
                <Table verticalSpacing="xs" horizontalSpacing="md" data-testid="margins">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Product</Table.Th>
                      <Table.Th ta="right">Units</Table.Th>
                      <Table.Th ta="right">Sales</Table.Th>
                      <Table.Th ta="right">Base cost</Table.Th>
                      <Table.Th ta="right">Extra print</Table.Th>
                      <Table.Th ta="right">Fees</Table.Th>
                      <Table.Th ta="right">Margin</Table.Th>
                      <Table.Th ta="right">Margin rate</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((p) => (
                      <Table.Tr key={p.product_id} data-testid="margin">
                        <Table.Td>
                          <Text size="sm" fw={500}>
                            {p.product}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {p.campaign}
                          </Text>
                        </Table.Td>
                        <Table.Td ta="right">{p.units.toLocaleString()}</Table.Td>
                        <Table.Td ta="right">{formatMoney(p.sales)}</Table.Td>
                        <Table.Td ta="right">{formatMoney(p.base_cost)}</Table.Td>
                        <Table.Td ta="right">{formatMoney(p.extra_print_cost)}</Table.Td>
                        <Table.Td ta="right">{formatMoney(p.fees)}</Table.Td>
                        <Table.Td ta="right" c={p.margin.amount < 0 ? 'red.7' : undefined} fw={600}>
                          {formatMoney(p.margin)}
                        </Table.Td>
                        <Table.Td ta="right">{marginRate(p.margin.amount, p.sales.amount)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Card>
          )}
        </>
      )}
    </Stack>
  );
}
