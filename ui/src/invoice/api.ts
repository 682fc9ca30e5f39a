// The contract between the invoice page (invoice.html) and the renderer's Chrome pool (renderer/chromepool,
// renderer/invoicetask).

import type { InvoiceDocument } from '../api/invoices';

export interface InvoicePageApi {
  /** Draws the invoice and resolves once it and its fonts are ready to print. */
  renderInvoice(doc: InvoiceDocument): Promise<void>;
}

/** Where the renderer's Chrome pool serves its fonts (chromepool.FontsPrefix). */
export const PRINT_FONT_URL = '/fonts/Roboto-Regular.ttf';
