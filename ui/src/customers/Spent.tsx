import { Stack, Text } from '@mantine/core';
import type { Money } from '../api/orders';
import { formatMoney } from '../orders/labels';

/** What a customer spent: one line per currency, a dash when nothing was paid. */
export function Spent({ amounts }: { amounts: Money[] }) {
  const paid = amounts.filter((m) => m.amount !== 0);
  if (paid.length === 0) return <Text size="sm">{formatMoney(amounts[0] ?? { amount: 0, currency: 'USD' })}</Text>;
  return (
    <Stack gap={0}>
      {paid.map((m) => (
        <Text key={m.currency} size="sm">
          {formatMoney(m)}
        </Text>
      ))}
    </Stack>
  );
}
