import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Quote } from '../api/pricing';
import { formatMoney } from '../orders/labels';

/**
 * A product's sizes priced: what each costs to make, sells for (or `price`, an input in its place), the processing fee
 * on it and what the seller earns on one sold alone.
 */
export function SizeTable({ quote, price }: { quote: Quote; price?: (size: string) => ReactNode }) {
  return (
    <Table withTableBorder verticalSpacing={4} horizontalSpacing="sm" fz="sm" data-testid="size-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Size</Table.Th>
          <Table.Th ta="right">Cost to make</Table.Th>
          <Table.Th ta="right">Price</Table.Th>
          <Table.Th ta="right">Fee</Table.Th>
          <Table.Th ta="right">You earn</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {quote.sizes.map((s) => (
          <Table.Tr key={s.size} data-testid="size-row">
            <Table.Td>{s.size}</Table.Td>
            <Table.Td ta="right">{formatMoney(s.cost)}</Table.Td>
            <Table.Td ta="right">{price ? price(s.size) : formatMoney(s.price)}</Table.Td>
            <Table.Td ta="right">{formatMoney(s.fee)}</Table.Td>
            <Table.Td ta="right">
              <Text span fz="sm" fw={600} c={s.earnings.amount < 0 ? 'red' : undefined}>
                {formatMoney(s.earnings)}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
