import { AreaChart, BarsList, DonutChart } from '@mantine/charts';
import { Alert, Card, Group, Loader, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api } from '../api';
import type { Money } from '../api/orders';
import { overview, type Figure, type OverviewSlice } from '../api/reports';
import { DateRangeFilter } from '../components/DateRangeFilter';
import { StoreFilter } from '../components/StoreFilter';
import { formatMoney } from '../orders/labels';
import { changeText, changeTone } from './change';
import { useReportFilters } from './useReportFilters';

const TONE_COLOR = { up: 'teal.7', down: 'red.7', none: 'dimmed' } as const;

/** One card: the figure, and its change against the previous period. */
function FigureCard({ label, value, now, before, what }: { label: string; value: string; now: number; before: number; what: string }) {
  const tone = changeTone(now, before);
  return (
    <Card withBorder radius="lg" padding="md" data-testid={`figure-${what}`}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text fz={26} fw={600} data-testid="figure-value">
        {value}
      </Text>
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={600} c={TONE_COLOR[tone]} data-testid="figure-change">
          {changeText(now, before, what)}
        </Text>
        {tone !== 'none' && (
          <Text size="xs" c="dimmed">
            vs previous period
          </Text>
        )}
      </Group>
    </Card>
  );
}

const count = (f: Figure) => ({ value: f.value.toLocaleString(), now: f.value, before: f.previous });
const money = (f: Figure<Money>) => ({ value: formatMoney(f.value), now: f.value.amount, before: f.previous.amount });

function ChartCard({ title, empty, children }: { title: string; empty: boolean; children: ReactNode }) {
  return (
    <Card withBorder radius="lg" padding="lg" data-testid={`chart-${title}`}>
      <Title order={3} fz="h5" mb="sm">
        {title}
      </Title>
      {empty ? (
        <Text size="sm" c="dimmed">
          Nothing sold in this range.
        </Text>
      ) : (
        children
      )}
    </Card>
  );
}

const DEVICE_COLORS: Readonly<Record<string, string>> = { desktop: 'indigo.6', mobile: 'teal.6', tablet: 'orange.6', '': 'gray.5' };

/**
 * The Dashboard overview for sellers with get_reports (docs/overview.md): the range's figures
 * against the period just before, sales per day, by country, store, device and payment method, and
 * the top campaigns.
 */
export function Overview() {
  const { filters, setFilter, ready } = useReportFilters();
  const report = useQuery({
    queryKey: ['overview', filters],
    queryFn: ({ signal }) => overview(api, filters, signal),
    enabled: ready,
    placeholderData: (previous) => previous,
  });
  const d = report.data;
  const inCurrency = (minor: number) => formatMoney({ amount: Math.round(minor), currency: d?.currency ?? 'USD' });
  const major = (s: OverviewSlice) => s.sales / 100;
  const bars = (slices: OverviewSlice[], unknown: string) =>
    slices.map((s) => ({ name: s.label || s.key || unknown, value: major(s) }));
  return (
    <Stack gap="lg" data-testid="overview">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Title order={2} fz="h3">
          Overview
        </Title>
        <Group gap="sm" align="flex-end">
          <StoreFilter value={filters.store_id} onChange={(store_id) => setFilter({ store_id })} w={200} />
          {d && d.currencies.length > 1 && (
            <Select
              aria-label="Currency"
              data={d.currencies}
              value={d.currency}
              onChange={(v) => setFilter({ currency: v ?? '' })}
              w={100}
            />
          )}
          <DateRangeFilter filters={filters} setFilter={setFilter} />
        </Group>
      </Group>
      {report.isError && <Alert color="red">{report.error.message}</Alert>}
      {!d && report.isPending && ready && <Loader aria-label="Loading the overview" />}
      {d && (
        <>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
            <FigureCard label="Sales" what="sales" {...money(d.figures.sales)} />
            <FigureCard label="Orders" what="orders" {...count(d.figures.orders)} />
            <FigureCard label="Items" what="items" {...count(d.figures.items)} />
            <FigureCard label="Average order value" what="average order value" {...money(d.figures.average_order_value)} />
            <FigureCard label="Earnings" what="earnings" {...money(d.figures.earnings)} />
            <FigureCard label="Store visits" what="visits" {...count(d.figures.visits)} />
          </SimpleGrid>
          <ChartCard title="Sales over time" empty={d.days.every((s) => s.orders === 0)}>
            <AreaChart
              h={240}
              data={d.days.map((s) => ({ day: s.key, Sales: major(s), Orders: s.orders }))}
              dataKey="day"
              series={[{ name: 'Sales', color: 'indigo.6' }]}
              curveType="monotone"
              valueFormatter={(v) => inCurrency(v * 100)}
              withDots={d.days.length <= 31}
              yAxisProps={{ width: 96 }}
            />
          </ChartCard>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <ChartCard title="Sales by country" empty={d.countries.length === 0}>
              <BarsList data={bars(d.countries, 'No country')} valueFormatter={(v) => inCurrency(v * 100)} barsLabel="Country" valueLabel="Sales" />
            </ChartCard>
            <ChartCard title="Sales by store" empty={d.stores.length === 0}>
              <BarsList data={bars(d.stores, 'Deleted store')} valueFormatter={(v) => inCurrency(v * 100)} barsLabel="Store" valueLabel="Sales" />
            </ChartCard>
            <ChartCard title="Visits and sales by device" empty={d.devices.length === 0}>
              <Group align="center" gap="lg" wrap="nowrap">
                <DonutChart
                  size={140}
                  thickness={22}
                  data={d.devices.map((s) => ({ name: s.label, value: s.visits ?? 0, color: DEVICE_COLORS[s.key] ?? 'gray.5' }))}
                  chartLabel="Visits"
                  valueFormatter={(v) => v.toLocaleString()}
                />
                <Table verticalSpacing={4} data-testid="devices">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Device</Table.Th>
                      <Table.Th ta="right">Visits</Table.Th>
                      <Table.Th ta="right">Orders</Table.Th>
                      <Table.Th ta="right">Sales</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {d.devices.map((s) => (
                      <Table.Tr key={s.key}>
                        <Table.Td>{s.label}</Table.Td>
                        <Table.Td ta="right">{(s.visits ?? 0).toLocaleString()}</Table.Td>
                        <Table.Td ta="right">{s.orders.toLocaleString()}</Table.Td>
                        <Table.Td ta="right">{inCurrency(s.sales)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Group>
            </ChartCard>
            <ChartCard title="Sales by payment method" empty={d.payment_methods.length === 0}>
              <BarsList data={bars(d.payment_methods, 'No payment')} valueFormatter={(v) => inCurrency(v * 100)} barsLabel="Payment method" valueLabel="Sales" />
            </ChartCard>
          </SimpleGrid>
          <Card withBorder radius="lg" padding="lg" data-testid="top-campaigns">
            <Title order={3} fz="h5" mb="sm">
              Top campaigns
            </Title>
            {d.top_campaigns.length === 0 ? (
              <Text size="sm" c="dimmed">
                No campaign sold in this range.
              </Text>
            ) : (
              <Table verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Campaign</Table.Th>
                    <Table.Th ta="right">Orders</Table.Th>
                    <Table.Th ta="right">Items</Table.Th>
                    <Table.Th ta="right">Sales</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.top_campaigns.map((c) => (
                    <Table.Tr key={c.id} data-testid="top-campaign">
                      <Table.Td>{c.name}</Table.Td>
                      <Table.Td ta="right">{c.orders.toLocaleString()}</Table.Td>
                      <Table.Td ta="right">{c.items.toLocaleString()}</Table.Td>
                      <Table.Td ta="right">{inCurrency(c.sales)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Card>
        </>
      )}
    </Stack>
  );
}
