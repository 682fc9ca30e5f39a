package app

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// TestOrderInvoice: a paid order has its invoice, INV-000001 for the seller's first; its PDF answers
// 409 "being printed" (and is queued for the renderer) until the renderer has stored it, then downloads
// under a name that says what it is. Another seller's order and a made-up one answer 404.
func TestOrderInvoice(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	id, num := s.buy("ines@example.com", "Ines Invoice", 2)

	d, r := s.order(seller, id)
	if r.status != 200 || d.InvoiceNumber != "INV-000001" {
		t.Fatalf("order's invoice number: %d %s", r.status, r.raw)
	}
	var inv struct {
		ID          int64  `json:"id"`
		Number      string `json:"number"`
		OrderNumber string `json:"order_number"`
		Buyer       struct {
			Name  string `json:"name"`
			Email string `json:"email"`
		} `json:"buyer"`
		Lines []struct {
			Quantity int64 `json:"quantity"`
		} `json:"lines"`
		Total struct {
			Amount int64 `json:"amount"`
		} `json:"total"`
		PDFReady bool `json:"pdf_ready"`
	}
	r = s.do("GET", fmt.Sprintf("/api/seller/orders/%d/invoice", id), seller, nil)
	if r.status != 200 {
		t.Fatalf("invoice: %d %s", r.status, r.raw)
	}
	decode(t, r, &inv)
	if inv.Number != "INV-000001" || inv.OrderNumber != num || inv.Buyer.Name != "Ines Invoice" || len(inv.Lines) != 1 ||
		inv.Lines[0].Quantity != 2 || inv.Total.Amount <= 0 || inv.PDFReady {
		t.Fatalf("invoice %s", r.raw)
	}

	pdfPath := fmt.Sprintf("/api/seller/orders/%d/invoice.pdf", id)
	r = s.do("GET", pdfPath, seller, nil)
	if r.status != 409 || r.body.Message != "The invoice PDF is being printed. Try again in a few seconds." || r.header.Get("Retry-After") == "" {
		t.Fatalf("PDF before it is printed: %d %v %s", r.status, r.header, r.raw)
	}
	var queued int
	if err := s.app.DB.Get(&queued, `SELECT count(*) FROM task_outbox WHERE task_type = $1 AND convert_from(payload, 'UTF8')::jsonb->>'invoice_id' = $2`,
		tasks.TypeInvoicePDF, fmt.Sprint(inv.ID)); err != nil {
		t.Fatal(err)
	}
	// Issued with the order, queued once: the page's reads while the PDF is printed queue nothing more.
	if queued != 1 {
		t.Fatalf("the invoice's PDF was queued %d times; want once", queued)
	}

	// What the renderer does once it has printed it (renderer/invoicetask).
	store, err := blob.New(s.cfg.Blob, false)
	if err != nil {
		t.Fatal(err)
	}
	pdf := []byte("%PDF-1.4 an invoice")
	key := tasks.InvoicePDFKey(s.userID("seller@example.com"), inv.ID)
	if err := store.Put(context.Background(), key, bytes.NewReader(pdf), int64(len(pdf)), "application/pdf"); err != nil {
		t.Fatal(err)
	}
	s.app.DB.MustExec(`UPDATE invoices SET pdf_key = $2 WHERE id = $1`, inv.ID, key)
	r = s.do("GET", pdfPath, seller, nil)
	want := fmt.Sprintf(`attachment; filename="invoice-INV-000001-order-%s.pdf"`, num)
	if r.status != 200 || !bytes.Equal(r.raw, pdf) || r.header.Get("Content-Type") != "application/pdf" || r.header.Get("Content-Disposition") != want {
		t.Fatalf("PDF: %d %v %q", r.status, r.header, r.raw)
	}
	r = s.do("GET", fmt.Sprintf("/api/seller/orders/%d/invoice", id), seller, nil)
	decode(t, r, &inv)
	if !inv.PDFReady {
		t.Errorf("pdf_ready false once printed: %s", r.raw)
	}

	other := s.login("seller", "veteran@example.com")
	for _, path := range []string{fmt.Sprintf("/api/seller/orders/%d/invoice", id), pdfPath, "/api/seller/orders/99999999/invoice"} {
		token := other
		if strings.Contains(path, "99999999") {
			token = seller
		}
		if r := s.do("GET", path, token, nil); r.status != 404 {
			t.Errorf("%s: %d %s; want 404", path, r.status, r.raw)
		}
	}
}
