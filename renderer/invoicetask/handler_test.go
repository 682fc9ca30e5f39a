package invoicetask

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/commerce/invoices"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/renderer/chromepool/chrometest"
	"github.com/pressroom/pressroom/renderer/tasks"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testinfra.RemoveUI()
	os.Exit(code)
}

// TestPrintsTheInvoice issues the invoice of a paid order and runs its task through a one-browser
// Chrome pool over the built UI: the PDF is stored under the invoice's key, recorded on the invoice,
// says the invoice's number, buyer and total, and a second run of the task prints nothing more.
func TestPrintsTheInvoice(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	cfg := blob.DefaultConfig()
	cfg.Dir = t.TempDir()
	store, err := blob.New(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	var seller, order int64
	if err := db.Get(&seller, `INSERT INTO users (name, email, password_hash) VALUES ('Ada', 'ada@example.com', 'x') RETURNING id`); err != nil {
		t.Fatal(err)
	}
	if err := db.Get(&order, `INSERT INTO orders (seller_id, number, email, customer_name, currency, subtotal, shipping, total, status, payment_status)
		VALUES ($1, '1001', 'grace@example.com', 'Grace Hopper', 'EUR', 2500, 499, 2999, 'processing', 'paid') RETURNING id`, seller); err != nil {
		t.Fatal(err)
	}
	db.MustExec(`INSERT INTO order_items (order_id, product_name, quantity, unit_price) VALUES ($1, 'Poster "Dawn"', 1, 2500)`, order)
	tx := db.MustBegin()
	inv, err := invoices.Issue(ctx, tx, order)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}

	h, err := NewHandler(db, store, chrometest.Pool(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(tasks.InvoicePayload{InvoiceID: inv.ID})
	if err := h.ProcessTask(ctx, asynq.NewTask(tasks.TypeInvoicePDF, payload)); err != nil {
		t.Fatal(err)
	}
	doc, err := invoices.Get(ctx, db, inv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := tasks.InvoicePDFKey(seller, inv.ID); doc.PDFKey != want {
		t.Fatalf("pdf_key %q; want %q", doc.PDFKey, want)
	}
	r, info, err := store.Get(ctx, doc.PDFKey)
	if err != nil {
		t.Fatal(err)
	}
	pdf, _ := io.ReadAll(r)
	r.Close()
	file := filepath.Join(t.TempDir(), "invoice.pdf")
	os.WriteFile(file, pdf, 0o644)
	out, err := exec.Command(testinfra.Tool(t, "pdftotext"), file, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v\n%s", err, out)
	}
	text := strings.Join(strings.Fields(string(out)), " ")
	for _, want := range []string{"INV-000001", "Grace Hopper", `Poster "Dawn"`, "29,99 €"} {
		if !strings.Contains(text, want) {
			t.Errorf("the stored PDF does not say %q; it says: %s", want, text)
		}
	}

	// A task delivered again finds the PDF and prints nothing.
	if err := h.ProcessTask(ctx, asynq.NewTask(tasks.TypeInvoicePDF, payload)); err != nil {
		t.Fatal(err)
	}
	if again, err := store.Stat(ctx, doc.PDFKey); err != nil || !again.ModTime.Equal(info.ModTime) {
		t.Errorf("the PDF was written again: %v, %v -> %v", err, info.ModTime, again.ModTime)
	}
}
