package shipmail

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/orders"
	"github.com/pressroom/pressroom/commerce/reviews"
	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/storelink"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/worker/tasks"
)

// TestDeliveryMail delivers one of two shipped items and runs the task commerce/orders queued: the
// buyer is told what arrived, with a signed review link of that item on the store; a store that
// takes no reviews sends the mail without links.
func TestDeliveryMail(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	var seller, store int64
	if err := db.Get(&seller, `INSERT INTO users (name, email, password_hash) VALUES ('S', 's@example.com', 'x') RETURNING id`); err != nil {
		t.Fatal(err)
	}
	if err := db.Get(&store, `INSERT INTO stores (owner_id, name, domain, slug, review_setting)
		VALUES ($1, 'Corner <Shop>', 's.example', 'corner', 'enable-only-store') RETURNING id`, seller); err != nil {
		t.Fatal(err)
	}
	usd := func(a int64) money.Money { return money.Money{Amount: a, Currency: money.USD} }
	tx := db.MustBeginTx(ctx, nil)
	c, items, err := orders.Create(ctx, tx, orders.New{SellerID: seller, StoreID: store, Email: "buyer@example.com", Subtotal: usd(3400), Total: usd(3400),
		Items: []orders.Item{{ProductName: "T-shirt", Color: "Black", Size: "M", Quantity: 2, UnitPrice: usd(1000)},
			{ProductName: "Mug", Quantity: 1, UnitPrice: usd(1400)}}}, orders.PendingPayment, "test")
	if err != nil {
		t.Fatal(err)
	}
	tx.MustExec(`INSERT INTO payments (order_id, gateway, intent_id, idempotency_key, amount, currency, status)
		VALUES ($1, 'test', 'pi_d', 'kd', 3400, 'USD', 'succeeded')`, c.ID)
	if _, err := orders.Refresh(ctx, tx, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := orders.Apply(ctx, tx, c.ID, orders.ActionPay, "test", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := orders.Ship(ctx, tx, c.ID, orders.Parcel{Carrier: "DHL", Tracking: "JD0002"}, "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := orders.Deliver(ctx, tx, c.ID, []int64{items[0]}, "test"); err != nil {
		t.Fatal(err)
	}
	// Delivering it again changes nothing and queues nothing more.
	if d, err := orders.Deliver(ctx, tx, c.ID, []int64{items[0]}, "test"); err != nil || d.Changed {
		t.Fatalf("second delivery: %+v %v", d, err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var payloads [][]byte
	if err := db.Select(&payloads, `SELECT payload FROM task_outbox WHERE task_type = $1`, tasks.TypeDeliveryMail); err != nil || len(payloads) != 1 {
		t.Fatalf("%d delivery mails queued: %v", len(payloads), err)
	}
	mailer, err := mail.New(mail.DefaultConfig(), db)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{Mailer: mailer}
	links := storelink.DefaultConfig()
	h, err := NewDeliveryHandler(db, rec, links)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.ProcessTask(ctx, asynq.NewTask(tasks.TypeDeliveryMail, payloads[0])); err != nil {
		t.Fatal(err)
	}
	if len(rec.msgs) != 1 {
		t.Fatalf("%d messages", len(rec.msgs))
	}
	m := rec.msgs[0]
	link := links.URL + "/s/corner/reviews/" + strconv.FormatInt(items[0], 10) + "/"
	if m.To != "buyer@example.com" || m.Subject != "Your order 1001 from Corner <Shop> has arrived" ||
		!strings.Contains(m.Body, "- T-shirt (Black, M) × 2") || strings.Contains(m.Body, "Mug") || !strings.Contains(m.Body, link) {
		t.Fatalf("mail %+v", m)
	}
	token := regexp.MustCompile(`/reviews/\d+/([0-9a-f]{32})`).FindStringSubmatch(m.Body)
	if token == nil || !reviews.Valid(links.SigningKey, store, items[0], token[1]) {
		t.Fatalf("the review link is not signed for the item: %q", m.Body)
	}
	if !strings.Contains(m.HTML, `<a href="`+link) || !strings.Contains(m.HTML, "from Corner &lt;Shop&gt; has arrived") {
		t.Fatalf("html %q", m.HTML)
	}

	db.MustExec(`UPDATE stores SET review_setting = 'disable'`)
	if err := h.ProcessTask(ctx, asynq.NewTask(tasks.TypeDeliveryMail, payloads[0])); err != nil {
		t.Fatal(err)
	}
	if m := rec.msgs[1]; strings.Contains(m.Body, "/reviews/") || strings.Contains(m.HTML, "Write a review") || !strings.Contains(m.Body, "T-shirt") {
		t.Fatalf("a store without reviews: %+v", m)
	}
}
