package orders

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/invoices"
	"github.com/pressroom/pressroom/platform/blob"
)

// Messages of the invoice endpoints.
const (
	MsgNoInvoice         = "This order has no invoice yet: an invoice is issued when the order is paid."
	MsgInvoicePreparing  = "The invoice PDF is being printed. Try again in a few seconds."
	invoicePreparingWait = "5" // seconds, the Retry-After of MsgInvoicePreparing
)

// Invoice is an order's invoice as the invoice page shows it.
type Invoice struct {
	invoices.Document
	// PDFReady says whether GET .../invoice.pdf answers the PDF now.
	PDFReady bool `json:"pdf_ready"`
}

// invoiceOf reads the invoice of the caller's order :id; an order the caller may not see and an order
// without an invoice both answer 404. A missing PDF is queued (once per round, invoices.RequeuePDF).
func (s *Service) invoiceOf(c echo.Context) (invoices.Document, error) {
	sc, err := s.scope(c)
	if err != nil {
		return invoices.Document{}, err
	}
	id := envelope.PathID(c)
	if id == 0 {
		return invoices.Document{}, envelope.Fail(http.StatusNotFound, MsgOrderNotFound)
	}
	ctx := c.Request().Context()
	// One row read: whether the caller may see the order (its stores included).
	if _, err := s.store.currency(ctx, sc, id); errors.Is(err, ErrNotFound) {
		return invoices.Document{}, envelope.Fail(http.StatusNotFound, MsgOrderNotFound)
	} else if err != nil {
		return invoices.Document{}, err
	}
	doc, err := invoices.OfOrder(ctx, s.d.DB, sc.SellerID, id)
	if errors.Is(err, invoices.ErrNotFound) {
		return invoices.Document{}, envelope.Fail(http.StatusNotFound, MsgNoInvoice)
	} else if err != nil {
		return invoices.Document{}, err
	}
	if err := invoices.RequeuePDF(ctx, s.d.DB, doc); err != nil {
		return invoices.Document{}, err
	}
	return doc, nil
}

// handleInvoice is GET /api/seller/orders/:id/invoice.
func (s *Service) handleInvoice(c echo.Context) error {
	doc, err := s.invoiceOf(c)
	if err != nil {
		return err
	}
	return envelope.OK(c, Invoice{Document: doc, PDFReady: doc.PDFKey != ""})
}

// handleInvoicePDF is GET /api/seller/orders/:id/invoice.pdf: the printed PDF as an attachment named
// after the invoice and the order, or 409 while it is being printed.
func (s *Service) handleInvoicePDF(c echo.Context) error {
	doc, err := s.invoiceOf(c)
	if err != nil {
		return err
	}
	if doc.PDFKey == "" {
		c.Response().Header().Set("Retry-After", invoicePreparingWait)
		return envelope.Fail(http.StatusConflict, MsgInvoicePreparing)
	}
	r, info, err := s.d.Blob.Get(c.Request().Context(), doc.PDFKey)
	if errors.Is(err, blob.ErrNotFound) {
		return fmt.Errorf("invoice %d: its PDF %s is missing from storage: %w", doc.ID, doc.PDFKey, err)
	} else if err != nil {
		return err
	}
	defer r.Close()
	res := c.Response()
	res.Header().Set(echo.HeaderContentType, "application/pdf")
	res.Header().Set(echo.HeaderContentLength, strconv.FormatInt(info.Size, 10))
	res.Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s"`, InvoiceFileName(doc)))
	res.WriteHeader(http.StatusOK)
	_, err = io.Copy(res, r)
	return err
}

// InvoiceFileName names an invoice's PDF after what it is: invoice-INV-000012-order-1013.pdf.
func InvoiceFileName(doc invoices.Document) string {
	return "invoice-" + doc.Number + "-order-" + doc.OrderNumber + ".pdf"
}
