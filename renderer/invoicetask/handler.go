package invoicetask

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/invoices"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/renderer/chromepool"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// Printer prints a page of the UI as a PDF: the renderer's Chrome pool (chromepool.Pool).
type Printer interface {
	PrintPDF(ctx context.Context, doc chromepool.Document) ([]byte, error)
}

// pageCall is the invoice page's function (ui/src/invoice/main.tsx).
const pageCall = "renderInvoice"

// errNoPrinter is the error of an invoice on a renderer without a Chrome pool; the task is retried, by
// then perhaps on a renderer that has one.
var errNoPrinter = errors.New("invoicetask: this renderer has no Chrome pool to print invoices (PRESSROOM_UI_DIR holds no built UI)")

// Handler prints invoices.
type Handler struct {
	db      *sqlx.DB
	store   blob.Store
	printer Printer
	log     *slog.Logger
}

// NewHandler builds the handler; without a printer (nil) invoices are retried until they fail.
func NewHandler(db *sqlx.DB, store blob.Store, printer Printer, log *slog.Logger) (*Handler, error) {
	if db == nil || store == nil {
		return nil, errors.New("invoicetask: database and blob store are required")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Handler{db: db, store: store, printer: printer, log: log}, nil
}

// ProcessTask prints the invoice of the task unless it already has its PDF (a task run twice prints
// once more at most, and the second PDF replaces the first under the same key).
func (h *Handler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	var p tasks.InvoicePayload
	if err := json.Unmarshal(t.Payload(), &p); err != nil || p.InvoiceID <= 0 {
		return fmt.Errorf("%s: bad payload %q: %w", tasks.TypeInvoicePDF, t.Payload(), asynq.SkipRetry)
	}
	doc, err := invoices.Get(ctx, h.db, p.InvoiceID)
	if errors.Is(err, invoices.ErrNotFound) {
		return nil // the order was deleted: nothing to print
	} else if err != nil {
		return err
	}
	if doc.PDFKey != "" {
		return nil
	}
	pdf, err := h.Print(ctx, doc)
	if err != nil {
		return fmt.Errorf("invoice %d: %w", doc.ID, err)
	}
	key := tasks.InvoicePDFKey(doc.SellerID, doc.ID)
	if err := h.store.Put(ctx, key, bytes.NewReader(pdf), int64(len(pdf)), "application/pdf"); err != nil {
		return fmt.Errorf("invoice %d: store the PDF: %w", doc.ID, err)
	}
	if err := invoices.SetPDF(ctx, h.db, doc.ID, key); err != nil {
		return fmt.Errorf("invoice %d: %w", doc.ID, err)
	}
	h.log.Info("invoice printed", "invoice", doc.ID, "number", doc.Number, "bytes", len(pdf))
	return nil
}

// Print prints doc as a PDF.
func (h *Handler) Print(ctx context.Context, doc invoices.Document) ([]byte, error) {
	if h.printer == nil {
		return nil, errNoPrinter
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return h.printer.PrintPDF(ctx, chromepool.Document{Page: chromepool.InvoicePagePath, Call: pageCall, Data: data})
}
