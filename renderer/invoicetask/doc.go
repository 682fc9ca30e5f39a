// Package invoicetask handles render:invoice-pdf: it reads an invoice (commerce/invoices), prints the
// UI's invoice page with it in the Chrome pool (chromepool.PrintPDF), stores the PDF and records its key
// on the invoice. The page is the same component the seller's invoice screen shows, drawn with the
// renderer's fonts. See docs/invoices.md.
package invoicetask
