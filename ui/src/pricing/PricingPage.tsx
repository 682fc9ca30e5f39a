import { Anchor, Button, Card, Checkbox, Group, Modal, Select, Stack, Table, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconCoin } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { can, hasTag, TAGS } from '../access';
import { api } from '../api';
import { pricedCampaigns, pricingSettings, type PricedProduct } from '../api/pricing';
import { stores } from '../api/stores';
import { LabelBadge } from '../components/LabelBadge';
import { ListPager, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { plural } from '../format/plural';
import { formatMoney } from '../orders/labels';
import { useSessionUser } from '../session/useSessionUser';
import { BulkPriceDialog } from './BulkPriceDialog';
import { PRICING_KEY } from './keys';
import { earningsRange, MODE_LABELS } from './labels';
import { ProductPriceDialog } from './ProductPriceDialog';
import { SizeTable } from './SizeTable';

/** The sizes of a product and their prices, one line: "S $19.99 · M $19.99 · 2XL $21.99". */
function SizePrices({ product }: { product: PricedProduct }) {
  return (
    <Text size="xs" c="dimmed" data-testid="size-prices">
      {product.quote.sizes.map((s) => `${s.size} ${formatMoney(s.price)}`).join(' · ')}
    </Text>
  );
}

/**
 * `/pricing`: the campaigns on sale in one of the seller's stores, each product with its price mode, its price per
 * size and what it earns; one product's prices edited, or many campaigns' changed at once after a preview. It needs
 * the pricing tag (as the menu item does); without update_campaign it is read-only (docs/pricing.md).
 */
export function PricingPage() {
  const user = useSessionUser();
  const tagged = hasTag(user, TAGS.pricing);
  const canEdit = can(user, 'update_campaign');
  const { q, search, debounced, page, setPage, resetting } = useListSearch();
  const [storeId, setStoreId] = useState<string | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<PricedProduct | null>(null);
  const [changing, setChanging] = useState(false);
  const storeList = useQuery({ queryKey: ['stores', 'pricing'], queryFn: ({ signal }) => stores(api, 1, '', signal), enabled: tagged });
  const chosen = storeId ?? (storeList.data?.data[0] ? String(storeList.data.data[0].id) : null);
  const store = Number(chosen);
  const settings = useQuery({
    queryKey: [...PRICING_KEY, 'settings', store],
    queryFn: ({ signal }) => pricingSettings(api, store, signal),
    enabled: tagged && chosen !== null,
  });
  const list = useQuery({
    queryKey: [...PRICING_KEY, 'list', store, debounced, page],
    queryFn: ({ signal }) => pricedCampaigns(api, store, page, debounced, signal),
    enabled: tagged && chosen !== null,
    placeholderData: keepPreviousData,
  });

  if (!tagged) return <PricingLocked />;

  const rows = list.data?.data ?? [];
  const allChosen = rows.length > 0 && rows.every((c) => selected.includes(c.id));
  const toggle = (id: number) => setSelected((cur) => (cur.includes(id) ? cur.filter((x) => x !== id) : [...cur, id]));
  const s = settings.data;

  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Pricing
          </Title>
          {s && (
            <Text size="sm" c="dimmed" data-testid="pricing-settings">
              Processing fee {s.processing_fee}% of what the buyer pays, at least {formatMoney(s.processing_fee_min)} an order · compare-at
              prices {s.compare_price_rate === '0' ? 'off' : `${s.compare_price_rate}% above the price`}
            </Text>
          )}
        </Stack>
        {canEdit && (
          <Button disabled={selected.length === 0} onClick={() => setChanging(true)}>
            {selected.length === 0 ? 'Change prices' : `Change prices of ${plural(selected.length, 'campaign')}`}
          </Button>
        )}
      </Group>
      <Group gap="sm">
        <Select
          label="Store"
          data={(storeList.data?.data ?? []).map((st) => ({ value: String(st.id), label: `${st.name} (${st.currency})` }))}
          value={chosen}
          onChange={(v) => {
            setSelected([]);
            resetting(setStoreId)(v);
          }}
          allowDeselect={false}
          w={280}
        />
        <TextInput label="Search" placeholder="Campaign name" value={q} onChange={(e) => search(e.currentTarget.value)} w={300} />
      </Group>
      {storeList.data && storeList.data.data.length === 0 && (
        <Text>
          Create a store first, under <Anchor component={Link} to="/storefronts">Storefronts → All Stores</Anchor>.
        </Text>
      )}
      {chosen !== null && (
        <PagedListCard list={list} loadingLabel="Loading prices">
          {(campaigns) => (
            <Table verticalSpacing="sm" horizontalSpacing="md">
              <Table.Thead>
                <Table.Tr>
                  {canEdit && (
                    <Table.Th w={40}>
                      <Checkbox
                        aria-label="Choose every campaign of the page"
                        checked={allChosen}
                        onChange={() => setSelected(allChosen ? [] : campaigns.map((c) => c.id))}
                      />
                    </Table.Th>
                  )}
                  <Table.Th>Campaign</Table.Th>
                  <Table.Th>Product</Table.Th>
                  <Table.Th>Priced by</Table.Th>
                  <Table.Th ta="right">Price</Table.Th>
                  <Table.Th ta="right">You earn</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {campaigns.map((c) =>
                  c.products.map((p, i) => (
                    <Table.Tr key={p.product_id} data-testid="priced-product" data-campaign={c.name}>
                      {canEdit && (
                        <Table.Td>
                          {i === 0 && <Checkbox aria-label={`Choose ${c.name}`} checked={selected.includes(c.id)} onChange={() => toggle(c.id)} />}
                        </Table.Td>
                      )}
                      <Table.Td maw={260} style={{ overflowWrap: 'anywhere' }}>
                        {i === 0 && <Text fw={500}>{c.name}</Text>}
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={2}>
                          <Text size="sm">
                            {p.name}
                            {p.status !== 'active' && (
                              <LabelBadge ml={6} size="xs" color="gray" code={p.status}>
                                {p.status === 'inactive' ? 'Not on sale' : 'Not shown'}
                              </LabelBadge>
                            )}
                          </Text>
                          <SizePrices product={p} />
                        </Stack>
                      </Table.Td>
                      <Table.Td>
                        <LabelBadge variant="light" code={p.quote.mode}>
                          {MODE_LABELS[p.quote.mode]}
                        </LabelBadge>
                        {p.quote.mode === 'adjust_price' && (
                          <Text size="xs" c="dimmed">
                            margin {formatMoney(p.quote.margin)}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td ta="right">
                        <Text size="sm">from {formatMoney(p.quote.price)}</Text>
                        {p.quote.compare_at_price && (
                          <Text size="xs" c="dimmed" td="line-through">
                            {formatMoney(p.quote.compare_at_price)}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td ta="right">
                        <Text size="sm" fw={500}>
                          {earningsRange(p.quote)}
                        </Text>
                      </Table.Td>
                      <Table.Td ta="right">
                        <Button size="xs" variant="light" onClick={() => setEditing(p)}>
                          {canEdit ? 'Edit prices' : 'Sizes'}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  )),
                )}
              </Table.Tbody>
            </Table>
          )}
        </PagedListCard>
      )}
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
      <Text size="xs" c="dimmed">
        What you earn is for one item bought alone: the price less its cost to make (base cost, size and extra print spaces) and the
        processing fee, before shipping and tip. Campaigns appear here once they are sold in the store (Sell, on the campaigns page).
      </Text>
      {chosen !== null && canEdit && (
        <ProductPriceDialog storeId={store} product={editing} onClose={() => setEditing(null)} />
      )}
      {chosen !== null && !canEdit && editing && <SizesDialog product={editing} onClose={() => setEditing(null)} />}
      {chosen !== null && canEdit && (
        <BulkPriceDialog
          storeId={store}
          currency={s?.currency ?? 'USD'}
          campaignIds={selected}
          opened={changing}
          onClose={() => setChanging(false)}
          onApplied={() => {
            setChanging(false);
            setSelected([]);
          }}
        />
      )}
    </Stack>
  );
}

/** A read-only look at a product's sizes, for a member who may not change prices. */
function SizesDialog({ product, onClose }: { product: PricedProduct; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={`Prices of ${product.campaign} — ${product.name}`} size="xl">
      <SizeTable quote={product.quote} />
    </Modal>
  );
}

/** Pricing is switched on account by account (the pricing tag): a user without it is told so. */
function PricingLocked() {
  return (
    <Card withBorder radius="lg" padding="xl" maw={720} data-testid="pricing-locked">
      <Stack gap="md">
        <Group gap="sm">
          <ThemeIcon variant="light" size="xl" radius="md">
            <IconCoin size={24} stroke={1.6} />
          </ThemeIcon>
          <Title order={1} fz="h2">
            Pricing
          </Title>
        </Group>
        <Text>
          Pricing sets what each product and size of your campaigns sells for in your stores, explains what each sale earns you,
          and changes many campaigns&apos; prices at once.
        </Text>
        <Text>It is switched on account by account and is not on for this account yet: ask Pressroom support to turn it on.</Text>
      </Stack>
    </Card>
  );
}
