// Package invoices issues the invoice of a paid order and reads it back. An invoice is numbered per
// seller in the order invoices were issued (INV-000001, ...), under the seller's counter row lock, so
// numbers never repeat and never skip however many orders are paid at once; issuing twice for one
// order answers the first invoice. Issuing queues the renderer's PDF task (renderer/tasks) in the same
// transaction. The document is a snapshot of the sale as it was paid: the seller's screen and the PDF
// print the same Document. See docs/invoices.md.
package invoices
