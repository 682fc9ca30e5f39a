package chromepool

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pressroom/pressroom/platform/testinfra"
)

// invoiceJSON is an invoice as commerce/invoices writes it, for the invoice page.
const invoiceJSON = `{"id":42,"order_id":7,"number":"INV-000042","issued_at":"2026-11-20T10:00:00Z","order_number":"1013",
"paid_at":"2026-11-20T09:59:00Z","time_zone":"Europe/Berlin","seller":{"name":"Ada's Prints","email":"ada@example.com"},
"buyer":{"name":"Grace Hopper","email":"grace@example.com","address":{"name":"Grace Hopper","line1":"1 Harbor Rd",
"city":"Arlington","state":"VA","postal_code":"22201","country":"US"}},
"lines":[{"description":"Mug Morning","color":"White","size":"11oz","quantity":2,"unit_price":{"amount":1999,"currency":"USD"},
"amount":{"amount":3998,"currency":"USD"}}],"subtotal":{"amount":3998,"currency":"USD"},"shipping":{"amount":450,"currency":"USD"},
"discount":{"amount":0,"currency":"USD"},"tip":{"amount":0,"currency":"USD"},"total":{"amount":4448,"currency":"USD"}}`

func invoiceDoc() Document {
	return Document{Page: InvoicePagePath, Call: "renderInvoice", Data: []byte(invoiceJSON)}
}

// pdfTool runs a poppler tool on pdf (pdftotext ARGS FILE -, pdffonts FILE) and returns what it printed.
func pdfTool(t *testing.T, tool string, pdf []byte, args ...string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(file, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	args = append(args, file)
	if tool == "pdftotext" {
		args = append(args, "-")
	}
	out, err := exec.Command(testinfra.Tool(t, tool), args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", tool, err, out)
	}
	return string(out)
}

// TestPrintInvoice prints the UI's invoice page in real Chromium: one A4 page that says what the invoice
// says, drawn in the renderer's Roboto (embedded), not a system font.
func TestPrintInvoice(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Browsers = 1
	p, _ := startPool(t, cfg, testinfra.UI(t), nil)
	pdf, err := p.PrintPDF(context.Background(), invoiceDoc())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(pdf), "%PDF-") {
		t.Fatalf("not a PDF: %.20q", pdf)
	}
	if dir := os.Getenv("PRESSROOM_TEST_DUMP"); dir != "" {
		os.WriteFile(filepath.Join(dir, "invoice.pdf"), pdf, 0o644)
	}
	text := strings.Join(strings.Fields(pdfTool(t, "pdftotext", pdf, "-layout")), " ")
	for _, want := range []string{"Invoice", "INV-000042", "#1013", "November 20, 2026", "Ada's Prints", "Grace Hopper",
		"1 Harbor Rd", "Mug Morning", "White · 11oz", "USD 19.99", "USD 39.98", "USD 4.50", "Total paid USD 44.48"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF does not say %q; it says: %s", want, text)
		}
	}
	if pages := strings.Count(pdfTool(t, "pdftotext", pdf), "\f"); pages != 1 {
		t.Errorf("%d pages; want 1", pages)
	}
	fonts := pdfTool(t, "pdffonts", pdf)
	if !strings.Contains(fonts, "Roboto") {
		t.Errorf("the PDF's fonts are not the renderer's Roboto:\n%s", fonts)
	}
}

// TestPrintPDFRefusesBadDocuments: only the invoice page, a plain function name and JSON data reach a tab.
func TestPrintPDFRefusesBadDocuments(t *testing.T) {
	p, err := New(DefaultConfig(), stubSite(t), "http://127.0.0.1:1", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// Each is refused before a browser is asked: the error is the refusal's, not a failed print's.
	for _, tc := range []struct {
		doc    Document
		refuse string
	}{
		{Document{Page: "/index.html", Call: "renderInvoice", Data: []byte(`{}`)}, "no page"},
		{Document{Page: InvoicePagePath, Call: "alert(1);renderInvoice", Data: []byte(`{}`)}, "not a page function's name"},
		{Document{Page: InvoicePagePath, Call: "renderInvoice", Data: []byte(`{}); fetch("http://x")`)}, "not JSON"},
	} {
		if _, err := p.PrintPDF(ctx, tc.doc); err == nil || !strings.Contains(err.Error(), tc.refuse) {
			t.Errorf("PrintPDF(%+v) = %v; want the refusal %q", tc.doc, err, tc.refuse)
		}
	}
}
