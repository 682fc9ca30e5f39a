import { Alert, Anchor, Box, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api';
import { invoiceFileName, invoicePdf, orderInvoice } from '../api/invoices';
import { DownloadButton } from '../components/DownloadButton';
import { loadServedFonts } from '../editor/fonts';
import { InvoiceSheet } from '../invoice/InvoiceSheet';
import { ORDERS_KEY } from './keys';

/** How often the page asks again while the renderer prints the PDF. */
const PDF_POLL_MS = 2000;

/**
 * `/orders/invoice/:id`: the invoice of order :id as it prints (the same sheet the renderer turns into the PDF,
 * in the renderer's Roboto), and its PDF to download once printed.
 */
export function InvoicePage() {
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const invoice = useQuery({
    queryKey: [...ORDERS_KEY, 'invoice', id],
    queryFn: ({ signal }) => orderInvoice(api, id, signal),
    enabled: valid,
    retry: false,
    refetchInterval: (q) => (q.state.data && !q.state.data.pdf_ready ? PDF_POLL_MS : false),
  });
  useEffect(() => void loadServedFonts(), []);
  if (!valid) return <Alert color="red">Order not found.</Alert>;
  if (invoice.isPending) return <Loader aria-label="Loading invoice" />;
  if (invoice.isError) return <Alert color="red" role="alert">{invoice.error.message}</Alert>;
  const doc = invoice.data;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Anchor component={Link} to={`/orders/detail/${id}`} size="sm">
            ← Order #{doc.order_number}
          </Anchor>
          <Title order={1} fz="h2">
            Invoice {doc.number}
          </Title>
        </Stack>
        <Group gap="sm">
          {!doc.pdf_ready && (
            <Text size="sm" c="dimmed" role="status">
              Printing the PDF…
            </Text>
          )}
          <DownloadButton
            label="Download PDF"
            disabled={!doc.pdf_ready}
            load={() => invoicePdf(api, id)}
            fileName={invoiceFileName(doc)}
          />
        </Group>
      </Group>
      <Box style={{ overflowX: 'auto' }}>
        <Box w="fit-content" style={{ boxShadow: 'var(--mantine-shadow-md)', border: '1px solid var(--mantine-color-default-border)' }}>
          <InvoiceSheet doc={doc} />
        </Box>
      </Box>
    </Stack>
  );
}
