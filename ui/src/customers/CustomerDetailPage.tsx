import { Alert, Anchor, Card, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api } from '../api';
import { sellerCustomer, type CustomerDetail } from '../api/customers';
import { formatDateTime } from '../format/dateTime';
import { OrderRowsTable } from '../orders/OrderRowsTable';
import { useSessionUser } from '../session/useSessionUser';
import { CUSTOMERS_KEY } from './keys';
import { Spent } from './Spent';

/** `/customers/detail/:id`: a buyer with what they spent, their last address and their orders. */
export function CustomerDetailPage() {
  const id = Number(useParams().id);
  const customer = useQuery({
    queryKey: [...CUSTOMERS_KEY, 'detail', id],
    queryFn: ({ signal }) => sellerCustomer(api, id, signal),
    enabled: Number.isInteger(id) && id > 0,
  });
  if (!Number.isInteger(id) || id <= 0) return <Alert color="red">Customer not found.</Alert>;
  if (customer.isPending) return <Loader aria-label="Loading customer" />;
  if (customer.isError)
    return (
      <Alert color="red" role="alert">
        {customer.error.message}
      </Alert>
    );
  return <CustomerView customer={customer.data} />;
}

function CustomerView({ customer: c }: { customer: CustomerDetail }) {
  const user = useSessionUser();
  const a = c.shipping_address;
  return (
    <Stack gap="lg" maw={1100}>
      <Stack gap={2}>
        <Anchor component={Link} to="/customers" size="sm">
          ← Customers
        </Anchor>
        <Title order={1} fz="h2">
          {c.name || c.email}
        </Title>
        <Text c="dimmed">{c.email}</Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Card withBorder>
          <Text size="sm" c="dimmed">
            Orders
          </Text>
          <Text fw={600} size="xl" data-testid="customer-orders">
            {c.orders}
          </Text>
        </Card>
        <Card withBorder>
          <Text size="sm" c="dimmed">
            Total spent
          </Text>
          <Spent amounts={c.total_spent} />
        </Card>
        <Card withBorder>
          <Text size="sm" c="dimmed">
            Customer since
          </Text>
          <Text>{formatDateTime(c.first_order_at, user.timezone)}</Text>
          <Text size="sm" c="dimmed">
            Last order {formatDateTime(c.last_order_at, user.timezone)}
          </Text>
        </Card>
      </SimpleGrid>
      <Card withBorder>
        <Title order={2} fz="h4" mb="xs">
          Last shipping address
        </Title>
        <Text size="sm">{a.name}</Text>
        <Text size="sm">{[a.line1, a.line2].filter(Boolean).join(', ')}</Text>
        <Text size="sm">{[a.postal_code, a.city, a.state].filter(Boolean).join(' ')}</Text>
        <Text size="sm">{c.country_name}</Text>
      </Card>
      <Card withBorder>
        <Title order={2} fz="h4" mb="xs">
          Orders
        </Title>
        <OrderRowsTable orders={c.order_list} testId="customer-order" />
      </Card>
    </Stack>
  );
}
