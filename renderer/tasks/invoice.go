package tasks

import (
	"fmt"
	"strconv"
	"time"

	"github.com/pressroom/pressroom/platform/queue"
)

// TypeInvoicePDF prints an invoice's PDF in the Chrome pool (commerce/invoices issues invoices).
const TypeInvoicePDF = "render:invoice-pdf"

// InvoicePayload is what the invoice task carries: the invoice, never its content.
type InvoicePayload struct {
	InvoiceID int64 `json:"invoice_id"`
}

// Limits of the invoice task: a page prints in well under a second from a warm pool.
const (
	invoiceTimeout = 2 * time.Minute
	invoiceRetries = 5
)

// NewInvoicePDFJob builds the task printing invoice id's PDF. The task id names the invoice and round,
// so a round is queued once however often it is asked for; a later round (a PDF still missing after
// the first gave up) is a new task, as Asynq keeps a failed task's id for days.
func NewInvoicePDFJob(id, round int64, priority queue.Priority) (queue.Job, error) {
	if id <= 0 || round < 0 {
		return queue.Job{}, fmt.Errorf("%s: invoice %d round %d, want a positive id", TypeInvoicePDF, id, round)
	}
	return queue.NewJob(queue.Job{
		Type: TypeInvoicePDF, Queue: queue.Name(queue.Renderer, priority),
		TaskID:   "invoice-pdf-" + strconv.FormatInt(id, 10) + "-" + strconv.FormatInt(round, 10),
		MaxRetry: invoiceRetries, Timeout: invoiceTimeout,
	}, InvoicePayload{InvoiceID: id})
}

// InvoicePDFKey is the blob key of an invoice's PDF. Invoices are only handed out through the bff.
func InvoicePDFKey(sellerID, invoiceID int64) string {
	return "invoices/" + strconv.FormatInt(sellerID, 10) + "/" + strconv.FormatInt(invoiceID, 10) + ".pdf"
}
