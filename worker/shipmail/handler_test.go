package shipmail

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/orders"
	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/worker/tasks"
)

// TestShippingMail ships an order's item with tracking, runs the task commerce/orders queued, and
// finds the buyer's mail in the local outbox with the carrier, the number and the link.
func TestShippingMail(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	var seller, store int64
	if err := db.Get(&seller, `INSERT INTO users (name, email, password_hash) VALUES ('S', 's@example.com', 'x') RETURNING id`); err != nil {
		t.Fatal(err)
	}
	if err := db.Get(&store, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'Corner <Shop>', 's.example', 'shop') RETURNING id`, seller); err != nil {
		t.Fatal(err)
	}
	usd := money.Money{Amount: 1500, Currency: money.USD}
	tx := db.MustBeginTx(ctx, nil)
	c, _, err := orders.Create(ctx, tx, orders.New{SellerID: seller, StoreID: store, Email: "buyer@example.com", Subtotal: usd, Total: usd,
		Items: []orders.Item{{ProductName: "Mug", Quantity: 2, UnitPrice: money.Money{Amount: 750, Currency: money.USD}}}}, orders.PendingPayment, "test")
	if err != nil {
		t.Fatal(err)
	}
	tx.MustExec(`INSERT INTO payments (order_id, gateway, intent_id, idempotency_key, amount, currency, status)
		VALUES ($1, 'test', 'pi_m', 'km', 1500, 'USD', 'succeeded')`, c.ID)
	if _, err := orders.Refresh(ctx, tx, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := orders.Apply(ctx, tx, c.ID, orders.ActionPay, "test", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := orders.Ship(ctx, tx, c.ID, orders.Parcel{Carrier: "DHL", Tracking: "JD0001", TrackingURL: "https://track.example/JD0001?a=1&b=2"}, "test"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var payload []byte
	if err := db.Get(&payload, `SELECT payload FROM task_outbox WHERE task_type = $1 AND convert_from(payload, 'UTF8')::jsonb->>'order_id' = $2::text`,
		tasks.TypeShippingMail, c.ID); err != nil {
		t.Fatal(err)
	}
	mailer, err := mail.New(mail.DefaultConfig(), db)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{Mailer: mailer}
	h, err := NewHandler(db, rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.ProcessTask(ctx, asynq.NewTask(tasks.TypeShippingMail, payload)); err != nil {
		t.Fatal(err)
	}
	var m struct {
		To      string `db:"to_address"`
		Subject string `db:"subject"`
		Body    string `db:"body"`
	}
	if err := db.Get(&m, `SELECT to_address, subject, body FROM mail_outbox WHERE to_address = 'buyer@example.com'`); err != nil {
		t.Fatal(err)
	}
	if m.Subject != "Your order 1001 from Corner <Shop> has shipped" || !strings.Contains(m.Body, "Carrier: DHL") ||
		!strings.Contains(m.Body, "Tracking number: JD0001") || !strings.Contains(m.Body, "https://track.example/JD0001?a=1&b=2") ||
		!strings.Contains(m.Body, "- Mug × 2") {
		t.Fatalf("mail %+v", m)
	}
	// The HTML part escapes the store's name and the link; the mail comes in the store's name.
	if len(rec.msgs) != 1 {
		t.Fatalf("%d messages sent, want 1", len(rec.msgs))
	}
	if sent := rec.msgs[0]; sent.FromName != "Corner <Shop>" || !strings.Contains(sent.HTML, "<strong>1001</strong> from Corner &lt;Shop&gt; has shipped") ||
		!strings.Contains(sent.HTML, `<a href="https://track.example/JD0001?a=1&amp;b=2">Follow your parcel</a>`) ||
		!strings.Contains(sent.HTML, "<li>Mug × 2</li>") {
		t.Fatalf("message %q from %q", sent.HTML, sent.FromName)
	}
	// A parcel that is gone is dropped, not retried.
	err = h.ProcessTask(ctx, asynq.NewTask(tasks.TypeShippingMail, []byte(`{"order_id":999999,"tracking":"X"}`)))
	if !errors.Is(err, asynq.SkipRetry) {
		t.Fatalf("a missing order: %v", err)
	}
}

// recorder keeps the messages it sends through the real mailer.
type recorder struct {
	*mail.Mailer
	msgs []mail.Message
}

func (r *recorder) Send(ctx context.Context, msg mail.Message) error {
	r.msgs = append(r.msgs, msg)
	return r.Mailer.Send(ctx, msg)
}
