import { Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { discountLabel, onPromotion } from '../api/promotions';
import { ListPager, PagedListCard } from '../components/PagedList';
import { LabelBadge } from '../components/LabelBadge';

/** `/on-promotion`: the campaigns an active promotion applies to now, with its codes. */
export function OnPromotionPage() {
  const [page, setPage] = useState(1);
  const list = useQuery({ queryKey: ['on-promotion', page], queryFn: ({ signal }) => onPromotion(api, page, signal) });
  return (
    <Stack gap="lg" maw={1000}>
      <Stack gap={2}>
        <Title order={1} fz="h2">
          On promotion
        </Title>
        <Text c="dimmed" size="sm">
          Campaigns buyers can get a discount on today, with the codes that give it. Manage the codes under <Link to="/promotions">Promotions</Link>.
        </Text>
      </Stack>
      <PagedListCard list={list} loadingLabel="Loading campaigns on promotion">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Campaign</Table.Th>
                <Table.Th>Active codes</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((c) => (
                <Table.Tr key={c.id} data-testid="on-promotion">
                  <Table.Td>{c.name}</Table.Td>
                  <Table.Td>
                    <Group gap={6}>
                      {c.promotions.map((p) => (
                        <LabelBadge key={p.id} style={{ textTransform: 'none' }}>
                          {p.code} · {discountLabel(p)}
                        </LabelBadge>
                      ))}
                    </Group>
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
