import type { ApiClient } from './ApiClient';
import type { Money } from './orders';

/** The seller or the buyer as an invoice names them. */
export interface InvoiceParty {
  name: string;
  email: string;
  /** The buyer's shipping address as the checkout took it; absent for the seller. */
  address?: {
    name?: string;
    line1?: string;
    line2?: string;
    city?: string;
    state?: string;
    postal_code?: string;
    country?: string;
    phone?: string;
  };
}

export interface InvoiceLine {
  description: string;
  color: string;
  size: string;
  quantity: number;
  unit_price: Money;
  amount: Money;
}

/** An order's invoice (commerce/invoices' Document): what the invoice page and its PDF both print. */
export interface InvoiceDocument {
  id: number;
  order_id: number;
  number: string;
  issued_at: string;
  order_number: string;
  paid_at: string;
  /** The seller's IANA time zone, in which the dates are written. */
  time_zone: string;
  seller: InvoiceParty;
  buyer: InvoiceParty;
  lines: InvoiceLine[];
  subtotal: Money;
  shipping: Money;
  discount: Money;
  tip: Money;
  total: Money;
}

/** GET /api/seller/orders/:id/invoice: the document, and whether its PDF is printed yet. */
export interface OrderInvoice extends InvoiceDocument {
  pdf_ready: boolean;
}

export const orderInvoice = (api: ApiClient, orderId: number, signal?: AbortSignal) =>
  api.get<OrderInvoice>(`/seller/orders/${orderId}/invoice`, { signal });

export const invoicePdf = (api: ApiClient, orderId: number) => api.download(`/seller/orders/${orderId}/invoice.pdf`);

/** The PDF's file name, as the bff names it: invoice-INV-000012-order-1013.pdf. */
export const invoiceFileName = (doc: Pick<InvoiceDocument, 'number' | 'order_number'>) =>
  `invoice-${doc.number}-order-${doc.order_number}.pdf`;
