package abandoned

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/checkout"
	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/commerce/recovery"
	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/testinfra"
)

const evil = `<script>alert(1)</script>`

type fixture struct {
	db      *sqlx.DB
	co      *checkout.Service
	run     *Runner
	storeID int64
	product int64
}

// setup makes a store "shop" selling one T-shirt (named with a script) at 20.00, whose
// abandoned-checkout e-mails 1 (after 60 minutes) and 2 (after a day) are on, 3 off, offering
// the code COMEBACK; mail goes to the local outbox.
func setup(t *testing.T) fixture {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	f := fixture{db: db}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	var seller, campaign, tmpl int64
	must(db.Get(&seller, `INSERT INTO users (name, email, password_hash) VALUES ('S', 's@example.com', 'x') RETURNING id`))
	must(db.Get(&f.storeID, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'Shop', 's.example', 'shop') RETURNING id`, seller))
	must(db.Get(&campaign, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'C') RETURNING id`, seller))
	must(db.Get(&tmpl, `INSERT INTO product_templates (name, product_type, print_spaces, options) VALUES ('T', 'tshirt', '[]', '{"colors":[{"name":"Black","hex":"#000000"}]}') RETURNING id`))
	must(db.Get(&f.product, `INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, options)
		SELECT $1, id, $3, product_type, print_spaces, options FROM product_templates WHERE id = $2 RETURNING id`, campaign, tmpl, "Shirt "+evil))
	db.MustExec(`INSERT INTO store_products (store_id, product_id, campaign_id, price, currency) VALUES ($1, $2, $3, 2000, 'USD')`, f.storeID, f.product, campaign)
	db.MustExec(`INSERT INTO discount_codes (seller_id, code, kind, percent) VALUES ($1, 'COMEBACK', 'discount_with_percent', 10)`, seller)
	db.MustExec(`INSERT INTO email_abandoned_settings (store_id, coupon_code) VALUES ($1, 'COMEBACK')`, f.storeID)
	db.MustExec(`INSERT INTO email_abandoned_steps (store_id, step, enabled, delay_minutes, subject, body_html) VALUES
		($1, 1, true, 60, 'You left something', '<p>Still thinking?</p>'),
		($1, 2, true, 1440, 'Your cart is waiting', '<p>Come back</p>'),
		($1, 3, false, 4320, 'Last chance', '<p>Last</p>')`, f.storeID)
	gw, err := payments.NewTest("test")
	must(err)
	f.co, err = checkout.New(checkout.Deps{DB: db, Gateway: gw})
	must(err)
	mailer, err := mail.New(mail.DefaultConfig(), db)
	must(err)
	f.run, err = New(DefaultConfig(), db, mailer, nil)
	must(err)
	return f
}

// leave makes a checkout for buyer and answers its id and the time the buyer left it.
func (f fixture) leave(t *testing.T, buyer string) (string, time.Time) {
	t.Helper()
	ctx := context.Background()
	cart, err := f.co.AddToCart(ctx, f.storeID, "", checkout.AddItem{ProductID: f.product, Color: "Black", Size: "M", Quantity: 2})
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.co.Save(ctx, f.storeID, cart, checkout.Input{Email: buyer,
		Address: checkout.Address{Name: "B", Line1: "1 St", City: "Town", Country: "DE", PostalCode: "10115"}})
	if err != nil {
		t.Fatal(err)
	}
	var left time.Time
	if err := f.db.Get(&left, `SELECT updated_at FROM checkouts WHERE id = $1`, c.ID); err != nil {
		t.Fatal(err)
	}
	return c.ID, left
}

func (f fixture) pass(t *testing.T, now time.Time) {
	t.Helper()
	if _, err := f.run.Pass(context.Background(), now); err != nil {
		t.Fatal(err)
	}
}

func (f fixture) status(t *testing.T, id string) string {
	t.Helper()
	var s string
	if err := f.db.Get(&s, `SELECT status FROM checkouts WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	return s
}

func (f fixture) mails(t *testing.T, to string) []mail.Stored {
	t.Helper()
	var out []mail.Stored
	if err := f.db.Select(&out, `SELECT id, to_address, subject, body, created_at FROM mail_outbox WHERE to_address = $1 ORDER BY id`, to); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAbandonAtThreshold: a checkout is open a moment before PRESSROOM_ABANDON_AFTER and abandoned
// at it; a paid checkout never is.
func TestAbandonAtThreshold(t *testing.T) {
	f := setup(t)
	id, left := f.leave(t, "left@example.com")
	paid, _ := f.leave(t, "paid@example.com")
	if _, err := f.co.Pay(context.Background(), f.storeID, paid); err != nil {
		t.Fatal(err)
	}
	f.pass(t, left.Add(time.Hour-time.Second))
	if s := f.status(t, id); s != "open" {
		t.Fatalf("a second before the threshold: %s", s)
	}
	at := left.Add(time.Hour)
	f.pass(t, at)
	var got struct {
		Status      string    `db:"status"`
		AbandonedAt time.Time `db:"abandoned_at"`
		UpdatedAt   time.Time `db:"updated_at"`
	}
	if err := f.db.Get(&got, `SELECT status, abandoned_at, updated_at FROM checkouts WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	if got.Status != "abandoned" || !got.AbandonedAt.Equal(at) || !got.UpdatedAt.Equal(left) {
		t.Errorf("at the threshold: %+v, want abandoned at %v, left at %v", got, at, left)
	}
	f.pass(t, left.Add(72*time.Hour))
	if s := f.status(t, paid); s != "paid" {
		t.Errorf("paid checkout is %s", s)
	}
	if steps := f.mailsOfRecovery(t, paid); len(steps) != 0 || len(f.mails(t, "paid@example.com")) != 0 {
		t.Errorf("paid checkout was mailed: steps %v", steps)
	}
}

func (f fixture) mailsOfRecovery(t *testing.T, id string) []int {
	t.Helper()
	var steps []int
	if err := f.db.Select(&steps, `SELECT step FROM checkout_recovery_mails WHERE checkout_id = $1 ORDER BY step`, id); err != nil {
		t.Fatal(err)
	}
	return steps
}

// TestStepsOnce runs two passes at once at each moment: each enabled step is mailed once, after
// its delay, with the store's code and a link that the storefront accepts; the disabled step never.
func TestStepsOnce(t *testing.T) {
	f := setup(t)
	id, left := f.leave(t, "buyer@example.com")
	twice := func(now time.Time) {
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := f.run.Pass(context.Background(), now); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	for _, c := range []struct {
		after time.Duration
		want  []string
	}{
		{59 * time.Minute, nil},
		{time.Hour, []string{"You left something"}},
		{2 * time.Hour, []string{"You left something"}},
		{24 * time.Hour, []string{"You left something", "Your cart is waiting"}},
		{30 * 24 * time.Hour, []string{"You left something", "Your cart is waiting"}},
	} {
		twice(left.Add(c.after))
		twice(left.Add(c.after))
		var got []string
		for _, m := range f.mails(t, "buyer@example.com") {
			got = append(got, m.Subject)
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Fatalf("after %v: mailed %q, want %q", c.after, got, c.want)
		}
	}
	m := f.mails(t, "buyer@example.com")[0]
	link := "http://127.0.0.1:8082/s/shop" + recovery.Path(DefaultConfig().Links.SigningKey, f.storeID, id)
	for _, want := range []string{"Still thinking?", "COMEBACK", link, "Shirt " + evil, "$40.00"} {
		if !strings.Contains(m.Body, want) {
			t.Errorf("step 1 lacks %q:\n%s", want, m.Body)
		}
	}
	var sent int
	f.db.Get(&sent, `SELECT count(*) FROM checkout_recovery_mails WHERE checkout_id = $1 AND status = 'sent' AND sent_at IS NOT NULL`, id)
	if sent != 2 {
		t.Errorf("%d steps recorded sent, want 2", sent)
	}

	// A checkout first seen 9 days after the buyer left is abandoned but too old to mail.
	old, oldLeft := f.leave(t, "old@example.com")
	f.pass(t, oldLeft.Add(9*24*time.Hour))
	if s := f.status(t, old); s != "abandoned" || len(f.mails(t, "old@example.com")) != 0 {
		t.Errorf("checkout left 9 days ago: %s, mailed %d", s, len(f.mails(t, "old@example.com")))
	}
}

// TestMailEscapes: the buyer's lines and the store's name are escaped in the HTML; the seller's
// sanitized body is kept as HTML.
func TestMailEscapes(t *testing.T) {
	f := setup(t)
	id, left := f.leave(t, "buyer@example.com")
	f.db.MustExec(`UPDATE stores SET name = $1`, "Shop "+evil)
	if _, err := recovery.MarkAbandoned(context.Background(), f.db, left.Add(time.Hour), time.Hour, 10); err != nil {
		t.Fatal(err)
	}
	due, err := recovery.ClaimDue(context.Background(), f.db, left.Add(time.Hour), 10)
	if err != nil || len(due) != 1 || due[0].CheckoutID != id {
		t.Fatalf("claimed %+v, %v", due, err)
	}
	msg, err := f.run.message(due[0])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(msg.HTML, evil) || strings.Count(msg.HTML, "&lt;script&gt;") != 2 || !strings.Contains(msg.HTML, "<p>Still thinking?</p>") {
		t.Errorf("HTML not escaped as it should be:\n%s", msg.HTML)
	}
}

// TestNoMailAfterPayment: a checkout paid after it was abandoned is recovered and mailed no further
// step; one paid before its threshold is never abandoned nor recovered.
func TestNoMailAfterPayment(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	id, left := f.leave(t, "late@example.com")
	f.pass(t, left.Add(time.Hour))
	if got := f.mailsOfRecovery(t, id); len(got) != 1 {
		t.Fatalf("steps %v, want step 1", got)
	}
	if _, err := f.co.Pay(ctx, f.storeID, id); err != nil {
		t.Fatal(err)
	}
	f.pass(t, left.Add(30*24*time.Hour))
	if got := f.mailsOfRecovery(t, id); len(got) != 1 {
		t.Errorf("steps after payment %v, want only step 1", got)
	}
	var recovered bool
	f.db.Get(&recovered, `SELECT recovered_at IS NOT NULL FROM checkouts WHERE id = $1 AND status = 'paid'`, id)
	if !recovered {
		t.Errorf("paid after abandonment but not marked recovered")
	}

	quick, qleft := f.leave(t, "quick@example.com")
	if _, err := f.co.Pay(ctx, f.storeID, quick); err != nil {
		t.Fatal(err)
	}
	f.pass(t, qleft.Add(30*24*time.Hour))
	var row struct {
		Status    string `db:"status"`
		Abandoned bool   `db:"abandoned"`
		Recovered bool   `db:"recovered"`
	}
	f.db.Get(&row, `SELECT status, abandoned_at IS NOT NULL AS abandoned, recovered_at IS NOT NULL AS recovered FROM checkouts WHERE id = $1`, quick)
	if row.Status != "paid" || row.Abandoned || row.Recovered || len(f.mailsOfRecovery(t, quick)) != 0 {
		t.Errorf("checkout paid in time: %+v, steps %v", row, f.mailsOfRecovery(t, quick))
	}
}

// TestClaimOnce: a step claimed in a transaction not yet committed is not claimed again by another
// pass; once the first commits, the second finds it taken.
func TestClaimOnce(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	_, left := f.leave(t, "buyer@example.com")
	at := left.Add(time.Hour)
	if _, err := recovery.MarkAbandoned(ctx, f.db, at, time.Hour, 10); err != nil {
		t.Fatal(err)
	}
	tx, err := f.db.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, err := recovery.ClaimDue(ctx, tx, at, 10)
	if err != nil || len(first) != 1 {
		t.Fatalf("first claim %v, %v", first, err)
	}
	second := make(chan []recovery.Mail, 1)
	go func() {
		m, err := recovery.ClaimDue(ctx, f.db, at, 10)
		if err != nil {
			t.Error(err)
		}
		second <- m
	}()
	time.Sleep(100 * time.Millisecond) // let the second claim reach the first one's row
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if m := <-second; len(m) != 0 {
		t.Errorf("the step was claimed twice: %+v", m)
	}
}

// TestComeBackWithoutLink: a buyer back at the same cart after the checkout was abandoned takes up
// the same checkout, open again, and gets no step for it while it is open.
func TestComeBackWithoutLink(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	id, left := f.leave(t, "buyer@example.com")
	var cart string
	f.db.Get(&cart, `SELECT cart_id FROM checkouts WHERE id = $1`, id)
	if n, err := recovery.MarkAbandoned(ctx, f.db, left.Add(time.Hour), time.Hour, 10); err != nil || n != 1 {
		t.Fatalf("abandoned %d, %v", n, err)
	}
	c, err := f.co.Save(ctx, f.storeID, cart, checkout.Input{Email: "buyer@example.com",
		Address: checkout.Address{Name: "B", Line1: "1 St", City: "Town", Country: "DE", PostalCode: "10115"}})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	f.db.Get(&n, `SELECT count(*) FROM checkouts`)
	if c.ID != id || c.Status != "open" || n != 1 {
		t.Fatalf("came back: checkout %s %s (%d checkouts), want %s open", c.ID, c.Status, n, id)
	}
	// Step 1 would be due a minute after the buyer left; the checkout is open, so it is not sent.
	f.db.MustExec(`UPDATE email_abandoned_steps SET delay_minutes = 1 WHERE step = 1`)
	f.pass(t, left.Add(30*time.Minute))
	if steps := f.mailsOfRecovery(t, id); len(steps) != 0 {
		t.Errorf("mailed the open checkout: steps %v", steps)
	}
}
