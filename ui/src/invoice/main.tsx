// The invoice page (invoice.html) the renderer's Chrome pool prints: window.renderInvoice draws an invoice
// with the renderer's Roboto and resolves once the sheet and its font are ready.

import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { InvoiceSheet } from './InvoiceSheet';
import { PRINT_FONT_URL, type InvoicePageApi } from './api';

const page = window as Window & Partial<InvoicePageApi>;
const container = document.getElementById('invoice');
if (!container) throw new Error('invoice.html has no #invoice element');
const root = createRoot(container);

let font: Promise<void> | null = null;

/** Loads Roboto from the renderer once; a page that cannot load it fails rather than print another font. */
function loadFont(): Promise<void> {
  font ??= (async () => {
    const face = new FontFace('Roboto', `url(${PRINT_FONT_URL})`);
    await face.load();
    document.fonts.add(face);
  })();
  return font;
}

page.renderInvoice = async (doc) => {
  await loadFont();
  flushSync(() => root.render(<InvoiceSheet doc={doc} />));
  await document.fonts.ready;
};
