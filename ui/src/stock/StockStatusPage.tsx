import { Alert, Anchor, Button, Card, Checkbox, ColorSwatch, Group, Loader, Select, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { LabelBadge } from '../components/LabelBadge';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { api, isApiError } from '../api';
import { setStock, stockGrid, stockHistory, touchedProducts, type StockRow } from '../api/stock';
import { isAdmin } from '../access/rules';
import { formatDateTime } from '../format/dateTime';
import { useSessionUser } from '../session/useSessionUser';

const STOCK_KEY = ['stock-status'] as const;

/** The key of one colour and size of a template. */
const keyOf = (r: Pick<StockRow, 'template_id' | 'color' | 'size'>) => `${r.template_id}\u0000${r.color}\u0000${r.size}`;

/** One template's colours (rows) by sizes (columns). */
interface TemplateGrid {
  id: number;
  name: string;
  sizes: string[];
  colors: { name: string; hex: string; cells: Map<string, StockRow> }[];
}

function gridsOf(rows: readonly StockRow[]): TemplateGrid[] {
  const out: TemplateGrid[] = [];
  for (const r of rows) {
    let t = out.at(-1);
    if (!t || t.id !== r.template_id) {
      t = { id: r.template_id, name: r.template_name, sizes: [], colors: [] };
      out.push(t);
    }
    if (!t.sizes.includes(r.size)) t.sizes.push(r.size);
    let c = t.colors.find((x) => x.name === r.color);
    if (!c) {
      c = { name: r.color, hex: r.hex, cells: new Map() };
      t.colors.push(c);
    }
    c.cells.set(r.size, r);
  }
  return out;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The seller's campaigns selling a colour and size out of stock. */
function TouchedCampaigns() {
  const touched = useQuery({ queryKey: [...STOCK_KEY, 'campaigns'], queryFn: ({ signal }) => touchedProducts(api, signal) });
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <div>
          <Title order={2} fz="h4">
            Campaigns touched
          </Title>
          <Text size="sm" c="dimmed">
            Your campaigns with a colour or size that buyers cannot order until it is back in stock.
          </Text>
        </div>
        {touched.isPending && <Loader size="sm" aria-label="Loading the campaigns touched" />}
        {touched.isError && <Alert color="red">{touched.error.message}</Alert>}
        {touched.data?.length === 0 && <Text size="sm">None of your campaigns sells anything out of stock.</Text>}
        {!!touched.data?.length && (
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Campaign</Table.Th>
                <Table.Th>Product</Table.Th>
                <Table.Th>Out of stock</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {touched.data.map((p) => (
                <Table.Tr key={p.product_id} data-testid="touched-campaign">
                  <Table.Td>
                    <Anchor component={Link} to={`/campaigns/edit/${p.campaign_id}`}>
                      {p.campaign_name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{p.product_name}</Table.Td>
                  <Table.Td>{p.out_of_stock.map((o) => `${o.color} · ${o.size}`).join(', ')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}

/** The admin's latest changes: who set what, when. */
function History({ timezone }: { timezone: string }) {
  const history = useQuery({ queryKey: [...STOCK_KEY, 'history'], queryFn: ({ signal }) => stockHistory(api, signal) });
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} fz="h4">
          History
        </Title>
        {history.isError && <Alert color="red">{history.error.message}</Alert>}
        {history.data?.length === 0 && <Text size="sm">No change yet: everything is in stock.</Text>}
        {!!history.data?.length && (
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>Product</Table.Th>
                <Table.Th>Colour · size</Table.Th>
                <Table.Th>Change</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {history.data.map((h) => (
                <Table.Tr key={h.id} data-testid="stock-change">
                  <Table.Td>{formatDateTime(h.changed_at, timezone)}</Table.Td>
                  <Table.Td>{h.changed_by || 'A removed account'}</Table.Td>
                  <Table.Td>{h.template_name}</Table.Td>
                  <Table.Td>
                    {h.color} · {h.size}
                  </Table.Td>
                  <Table.Td c={h.in_stock ? 'green' : 'red'}>{h.in_stock ? 'Back in stock' : 'Out of stock'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}

/**
 * `/product/stock-status` (sellers) and `/system/stock-status` (admins): every colour and size of the catalogue's
 * products, in stock or not, filtered by product or to what is out of stock. Sellers also see which of their
 * campaigns sell something out of stock; admins pick colours and sizes and mark them out of or back in stock, and
 * read the history of changes.
 */
export function StockStatusPage() {
  const user = useSessionUser();
  const admin = isAdmin(user);
  const client = useQueryClient();
  const [template, setTemplate] = useState<string | null>(null);
  const [outOnly, setOutOnly] = useState(false);
  const [picked, setPicked] = useState<ReadonlyMap<string, StockRow>>(new Map());
  const grid = useQuery({ queryKey: [...STOCK_KEY, 'grid', admin], queryFn: ({ signal }) => stockGrid(api, admin, signal) });
  const all = useMemo(() => gridsOf(grid.data ?? []), [grid.data]);
  const shown = useMemo(
    () =>
      gridsOf((grid.data ?? []).filter((r) => (template === null || String(r.template_id) === template) && (!outOnly || !r.in_stock))),
    [grid.data, template, outOnly],
  );
  const outCount = (grid.data ?? []).filter((r) => !r.in_stock).length;
  const save = useMutation({
    mutationFn: (inStock: boolean) => setStock(api, [...picked.values()].map((r) => ({ template_id: r.template_id, color: r.color, size: r.size, in_stock: inStock }))),
    onSuccess: ({ message }) => {
      notifications.show({ color: 'green', message });
      setPicked(new Map());
      void client.invalidateQueries({ queryKey: STOCK_KEY });
    },
    onError: (e) => notifications.show({ color: 'red', message: isApiError(e) ? e.message : String(e) }),
  });
  const toggle = (r: StockRow) =>
    setPicked((old) => {
      const next = new Map(old);
      if (next.has(keyOf(r))) next.delete(keyOf(r));
      else next.set(keyOf(r), r);
      return next;
    });

  return (
    <Stack gap="lg" maw={1100}>
      <div>
        <Title order={1} fz="h2">
          Stock status
        </Title>
        <Text size="sm" c="dimmed">
          {admin
            ? 'Pick colours and sizes, then mark them out of stock or back in stock: carts and checkouts refuse what is out of stock at once.'
            : 'Colours and sizes out of stock cannot be ordered on your storefronts until they are back.'}
        </Text>
      </div>
      <Group align="flex-end">
        <Select
          label="Product"
          placeholder="All products"
          clearable
          data={all.map((t) => ({ value: String(t.id), label: t.name }))}
          value={template}
          onChange={setTemplate}
          w={260}
        />
        <Switch label="Out of stock only" checked={outOnly} onChange={(e) => setOutOnly(e.currentTarget.checked)} mb={8} />
        <Text size="sm" c="dimmed" mb={8} data-testid="out-count">
          {outCount === 0 ? 'Everything is in stock.' : `${plural(outCount, 'colour and size', 'colours and sizes')} out of stock.`}
        </Text>
      </Group>
      {admin && (
        <Card withBorder padding="sm">
          <Group justify="space-between">
            <Text size="sm">{picked.size === 0 ? 'Pick colours and sizes in the tables below.' : `${plural(picked.size, 'colour and size', 'colours and sizes')} picked.`}</Text>
            <Group gap="xs">
              <Button size="compact-md" color="red" disabled={picked.size === 0} loading={save.isPending && save.variables === false} onClick={() => save.mutate(false)}>
                Mark out of stock
              </Button>
              <Button size="compact-md" variant="light" disabled={picked.size === 0} loading={save.isPending && save.variables === true} onClick={() => save.mutate(true)}>
                Mark in stock
              </Button>
              <Button size="compact-md" variant="subtle" disabled={picked.size === 0} onClick={() => setPicked(new Map())}>
                Clear
              </Button>
            </Group>
          </Group>
        </Card>
      )}
      {!admin && <TouchedCampaigns />}
      {grid.isPending && <Loader aria-label="Loading the stock status" />}
      {grid.isError && <Alert color="red">{grid.error.message}</Alert>}
      {grid.isSuccess && shown.length === 0 && <Text>{outOnly ? 'Nothing is out of stock.' : 'No products in the catalogue.'}</Text>}
      {shown.map((t) => (
        <Card key={t.id} withBorder padding="lg" data-testid="stock-template">
          <Stack gap="sm">
            <Title order={2} fz="h4">
              {t.name}
            </Title>
            <Table.ScrollContainer minWidth={500}>
              <Table verticalSpacing="xs" withColumnBorders>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Colour</Table.Th>
                    {t.sizes.map((s) => (
                      <Table.Th key={s} ta="center">
                        {s}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {t.colors.map((c) => (
                    <Table.Tr key={c.name}>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <ColorSwatch color={c.hex || '#ccc'} size={16} />
                          {c.name}
                        </Group>
                      </Table.Td>
                      {t.sizes.map((s) => {
                        const r = c.cells.get(s);
                        if (!r) return <Table.Td key={s} />;
                        const badge = (
                          <LabelBadge color={r.in_stock ? 'green' : 'red'}>{r.in_stock ? 'In stock' : 'Out of stock'}</LabelBadge>
                        );
                        return (
                          <Table.Td key={s} ta="center" data-testid="stock-cell" data-variant={`${t.name} ${c.name} ${s}`}>
                            {admin ? (
                              <Group gap={6} justify="center" wrap="nowrap">
                                <Checkbox aria-label={`${t.name}, ${c.name}, ${s}`} checked={picked.has(keyOf(r))} onChange={() => toggle(r)} />
                                {badge}
                              </Group>
                            ) : (
                              badge
                            )}
                          </Table.Td>
                        );
                      })}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        </Card>
      ))}
      {admin && <History timezone={user.timezone} />}
    </Stack>
  );
}
