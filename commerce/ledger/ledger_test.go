package ledger_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/ledger"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/orders"
	"github.com/pressroom/pressroom/commerce/pricing"
	"github.com/pressroom/pressroom/platform/testinfra"
)

var ctx = context.Background()

func usd(a int64) money.Money { return money.Money{Amount: a, Currency: money.USD} }

// fixture is a seller with a product (base cost 8.00, extra print cost 1.50, designed on two
// print spaces) and an admin.
type fixture struct {
	db              *sqlx.DB
	seller, admin   int64
	product, campID int64
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	f := fixture{db: db}
	user := func(email, role string) int64 {
		var id int64
		if err := db.Get(&id, `INSERT INTO users (name, email, password_hash, roles) VALUES ($1, $1, 'x', $2) RETURNING id`,
			email, "{"+role+"}"); err != nil {
			t.Fatal(err)
		}
		return id
	}
	f.seller, f.admin = user("seller@example.com", "seller"), user("admin@example.com", "admin")
	payoutAccount(t, db, f.seller, "valid", true)
	var tpl int64
	db.MustExec(`INSERT INTO product_templates (name, product_type, print_spaces) VALUES ('Tee', 'tshirt', '[]')`)
	if err := db.Get(&tpl, `SELECT id FROM product_templates WHERE name = 'Tee'`); err != nil {
		t.Fatal(err)
	}
	if err := db.Get(&f.campID, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'C') RETURNING id`, f.seller); err != nil {
		t.Fatal(err)
	}
	if err := db.Get(&f.product, `INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, base_cost, extra_print_cost)
		VALUES ($1, $2, 'Tee', 'tshirt', '[]', 8.00, 1.50) RETURNING id`, f.campID, tpl); err != nil {
		t.Fatal(err)
	}
	for _, space := range []string{"front", "back", "sleeve"} {
		objects := `[{"type":"text"}]`
		if space == "sleeve" {
			objects = `[]` // an empty print space costs nothing
		}
		db.MustExec(`INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json) VALUES ($1, $2, $3, $4)`,
			f.campID, f.product, space, `{"objects":`+objects+`}`)
	}
	db.MustExec(`UPDATE system_configs SET value = '4' WHERE key = 'processing_fee'`)
	db.MustExec(`UPDATE system_configs SET value = '0.50' WHERE key = 'processing_fee_min'`)
	db.MustExec(`UPDATE system_configs SET value = '10.00' WHERE key = 'payout_min'`)
	return f
}

// order makes a paid order of qty of the product at price each, with a discount, and answers its
// id and its payment's id.
func (f fixture) order(t *testing.T, price, qty, discount int64) (int64, int64) {
	t.Helper()
	tx := f.db.MustBeginTx(ctx, nil)
	defer tx.Rollback()
	sub := price * qty
	c, _, err := orders.Create(ctx, tx, orders.New{SellerID: f.seller, Email: "b@example.com", Subtotal: usd(sub),
		Discount: usd(discount), Total: usd(sub - discount), Items: []orders.Item{{CampaignID: f.campID, ProductID: f.product,
			ProductName: "Tee", Quantity: int(qty), UnitPrice: usd(price)}}}, orders.PendingPayment, "test")
	if err != nil {
		t.Fatal(err)
	}
	var pay int64
	if err := tx.Get(&pay, `INSERT INTO payments (order_id, gateway, intent_id, idempotency_key, amount, currency, status)
		VALUES ($1, 'test', $2, $2, $3, 'USD', 'succeeded') RETURNING id`, c.ID, fmt.Sprint("pi_", c.ID), sub-discount); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return c.ID, pay
}

// payoutAccount gives seller a payment account in status (the default one when def), as the
// payment accounts screen leaves it, and answers its id.
func payoutAccount(t *testing.T, db *sqlx.DB, seller int64, status string, def bool) int64 {
	t.Helper()
	var id int64
	if err := db.Get(&id, `INSERT INTO payment_accounts (seller_id, method, label, secrets_sealed, status, is_default)
		VALUES ($1, 'bank', 'Bank transfer ••••6789', '\x00', $2, $3) RETURNING id`, seller, status, def); err != nil {
		t.Fatal(err)
	}
	return id
}

// in runs fn in a committed transaction.
func in[T any](t *testing.T, db *sqlx.DB, fn func(tx *sqlx.Tx) (T, error)) (T, error) {
	t.Helper()
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	v, err := fn(tx)
	if err != nil {
		return v, err
	}
	return v, tx.Commit()
}

func (f fixture) balance(t *testing.T) ledger.Balance {
	t.Helper()
	all, err := ledger.Balances(ctx, f.db, f.seller)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range all {
		if b.Currency == money.USD {
			return b
		}
	}
	return ledger.Balance{SellerID: f.seller, Currency: money.USD}
}

// checkSums holds the ledger's invariants: every balance row equals the sum of its entries, each
// entry's *_after columns chain from the previous one, and nothing is below zero.
func checkSums(t *testing.T, db *sqlx.DB) {
	t.Helper()
	var bad []string
	const q = `
SELECT b.seller_id || ' ' || b.currency FROM ledger_balances b
LEFT JOIN (SELECT seller_id, currency, sum(d_available) a, sum(d_held) h, sum(d_paying) p, sum(d_owed) o
           FROM ledger_entries GROUP BY 1, 2) s USING (seller_id, currency)
WHERE (b.available, b.held, b.paying, b.owed) IS DISTINCT FROM (COALESCE(s.a, 0), COALESCE(s.h, 0), COALESCE(s.p, 0), COALESCE(s.o, 0))
   OR b.available < 0 OR b.held < 0 OR b.paying < 0 OR b.owed < 0`
	if err := db.Select(&bad, q); err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Errorf("balances differ from the sum of their entries: %v", bad)
	}
	var broken int
	const qChain = `
SELECT count(*) FROM (
  SELECT available_after - d_available AS a0, held_after - d_held AS h0, paying_after - d_paying AS p0, owed_after - d_owed AS o0,
         lag(available_after, 1, 0::bigint) OVER w AS a, lag(held_after, 1, 0::bigint) OVER w AS h,
         lag(paying_after, 1, 0::bigint) OVER w AS p, lag(owed_after, 1, 0::bigint) OVER w AS o,
         least(available_after, held_after, paying_after, owed_after) AS lowest
  FROM ledger_entries WINDOW w AS (PARTITION BY seller_id, currency ORDER BY id)) x
WHERE (a0, h0, p0, o0) IS DISTINCT FROM (a, h, p, o) OR lowest < 0`
	if err := db.Get(&broken, qChain); err != nil {
		t.Fatal(err)
	}
	if broken > 0 {
		t.Errorf("%d entries do not chain from the one before or went below zero", broken)
	}
}

// TestEarnings is the earnings rule, by table.
func TestEarnings(t *testing.T) {
	fees := pricing.Fees{BasisPoints: 400, Min: 50}
	tests := []struct {
		name  string
		order ledger.OrderFacts
		fees  pricing.Fees
		want  ledger.Earnings
	}{
		{"one shirt", ledger.OrderFacts{Lines: []ledger.Line{{UnitPrice: 2500, Quantity: 1, BaseCost: 800}}, Total: 2500}, fees,
			ledger.Earnings{Sale: 2500, BaseCost: 800, Fee: 100, Net: 1600}},
		{"quantity multiplies price and costs", ledger.OrderFacts{Lines: []ledger.Line{{UnitPrice: 2500, Quantity: 3, BaseCost: 800, ExtraPrintCost: 150}}, Total: 7500}, fees,
			ledger.Earnings{Sale: 7500, BaseCost: 2400, ExtraPrint: 450, Fee: 300, Net: 4350}},
		{"the minimum fee on a small order", ledger.OrderFacts{Lines: []ledger.Line{{UnitPrice: 900, Quantity: 1, BaseCost: 500}}, Total: 900}, fees,
			ledger.Earnings{Sale: 900, BaseCost: 500, Fee: 50, Net: 350}},
		{"the fee rounds half away from zero", ledger.OrderFacts{Lines: []ledger.Line{{UnitPrice: 2513, Quantity: 1}}, Total: 2513}, pricing.Fees{BasisPoints: 350},
			ledger.Earnings{Sale: 2513, Fee: 88, Net: 2425}}, // 87.955
		{"a discount is the seller's", ledger.OrderFacts{Lines: []ledger.Line{{UnitPrice: 3000, Quantity: 2, BaseCost: 1000}}, Discount: 600, Total: 5400}, fees,
			ledger.Earnings{Sale: 6000, BaseCost: 2000, Fee: 216, Discount: 600, Net: 3184}},
		{"the fee is on what the buyer paid, shipping included", ledger.OrderFacts{Lines: []ledger.Line{{UnitPrice: 2000, Quantity: 1}}, Total: 2599}, fees,
			ledger.Earnings{Sale: 2000, Fee: 104, Net: 1896}},
		{"several lines", ledger.OrderFacts{Lines: []ledger.Line{{UnitPrice: 2000, Quantity: 1, BaseCost: 700}, {UnitPrice: 1500, Quantity: 2, BaseCost: 400, ExtraPrintCost: 200}}, Total: 5000}, fees,
			ledger.Earnings{Sale: 5000, BaseCost: 1500, ExtraPrint: 400, Fee: 200, Net: 2900}},
		{"costs above the price earn less than nothing", ledger.OrderFacts{Lines: []ledger.Line{{UnitPrice: 1000, Quantity: 1, BaseCost: 900}}, Discount: 500, Total: 500}, fees,
			ledger.Earnings{Sale: 1000, BaseCost: 900, Fee: 50, Discount: 500, Net: -450}},
		{"an order paid nothing has no fee", ledger.OrderFacts{Lines: []ledger.Line{{UnitPrice: 1000, Quantity: 1}}, Discount: 1000}, fees,
			ledger.Earnings{Sale: 1000, Discount: 1000}},
		{"no fee settings", ledger.OrderFacts{Lines: []ledger.Line{{UnitPrice: 1000, Quantity: 1, BaseCost: 400}}, Total: 1000}, pricing.Fees{},
			ledger.Earnings{Sale: 1000, BaseCost: 400, Net: 600}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ledger.Compute(tt.order, tt.fees); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestCheckSetting refuses a payout minimum that would break the next payout; the fee settings are
// commerce/pricing's.
func TestCheckSetting(t *testing.T) {
	for _, tt := range []struct {
		key, value string
		ok         bool
	}{
		{ledger.KeyPayoutMin, "50.00", true}, {ledger.KeyPayoutMin, "abc", false}, {ledger.KeyPayoutMin, "0.505", false},
		{"maintenance", "anything", true},
	} {
		if err := ledger.CheckSetting(tt.key, tt.value); (err == nil) != tt.ok {
			t.Errorf("%s=%q: %v", tt.key, tt.value, err)
		}
	}
}

// TestSizeCostsMore: a size that costs more to make (the seeded T-shirt 2XL, 2.00 more) books its
// base cost with the size's extra, as the Pricing screen explains it (pricing.Cost.SizeCost).
func TestSizeCostsMore(t *testing.T) {
	f := newFixture(t)
	tx := f.db.MustBeginTx(ctx, nil)
	defer tx.Rollback()
	c, _, err := orders.Create(ctx, tx, orders.New{SellerID: f.seller, Email: "b@example.com", Subtotal: usd(2700), Total: usd(2700),
		Items: []orders.Item{{CampaignID: f.campID, ProductID: f.product, ProductName: "Tee", ProductType: "tshirt", Size: "2XL", Quantity: 1,
			UnitPrice: usd(2700)}}}, orders.PendingPayment, "test")
	if err != nil {
		t.Fatal(err)
	}
	sale, err := ledger.BookSale(ctx, tx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	// 27.00 − base 8.00 + 2.00 for the 2XL − extra print 1.50 − fee 4% 1.08 = 14.42
	want := "Order 1001: sale $27.00 − base cost $10.00 − extra print cost $1.50 − processing fee $1.08 = $14.42, held until the order ships"
	if sale.DHeld != 1442 || sale.Description != want {
		t.Errorf("sale %d %q\nwant %s", sale.DHeld, sale.Description, want)
	}
}

// TestOrderLifecycle books a paid order as held (its breakdown in the entry), makes it available
// when it ships, pays it out, and then takes a refund that came after the payout from the next
// earnings, with an entry saying so.
func TestOrderLifecycle(t *testing.T) {
	f := newFixture(t)
	orderID, pay := f.order(t, 2500, 2, 500)
	// sale 50.00 − base 16.00 − extra (2 designed spaces: 1 extra) 3.00 − fee 4% of 45.00 = 1.80 − discount 5.00 = 24.20
	sale, err := in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) { return ledger.BookSale(ctx, tx, orderID) })
	if err != nil {
		t.Fatal(err)
	}
	if sale.DHeld != 2420 || sale.Type != ledger.TypeSale || *sale.OrderID != orderID {
		t.Fatalf("sale entry %+v", sale)
	}
	want := "Order 1001: sale $50.00 − base cost $16.00 − extra print cost $3.00 − processing fee $1.80 − discount $5.00 = $24.20, held until the order ships"
	if sale.Description != want {
		t.Errorf("description\n got %s\nwant %s", sale.Description, want)
	}
	if b := f.balance(t); b.Held != 2420 || b.Available != 0 {
		t.Fatalf("after the sale: %+v", b)
	}
	if _, err := in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) { return ledger.ReleaseOrder(ctx, tx, orderID) }); err != nil {
		t.Fatal(err)
	}
	if b := f.balance(t); b.Held != 0 || b.Available != 2420 {
		t.Fatalf("after shipping: %+v", b)
	}
	p, err := ledger.RequestPayout(ctx, f.db, f.seller, f.seller, 0, usd(2420))
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []ledger.Step{ledger.StepApprove, ledger.StepComplete} {
		if p, err = ledger.StepPayout(ctx, f.db, p.ID, st, f.admin, "WIRE-1", ""); err != nil {
			t.Fatalf("%s: %v", st, err)
		}
	}
	if p.Status != ledger.PayoutCompleted || p.Reference != "WIRE-1" {
		t.Fatalf("payout %+v", p)
	}
	if b := f.balance(t); b != (ledger.Balance{SellerID: f.seller, Currency: money.USD}) {
		t.Fatalf("after the payout: %+v", b)
	}
	var refundID int64
	if err := f.db.Get(&refundID, `INSERT INTO refunds (payment_id, amount) VALUES ($1, 1000) RETURNING id`, pay); err != nil {
		t.Fatal(err)
	}
	ref, err := in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) { return ledger.BookRefund(ctx, tx, refundID) })
	if err != nil {
		t.Fatal(err)
	}
	if ref.DOwed != 1000 || ref.Description != "Refund of $10.00 on order 1001: $10.00 was already paid out and is deducted from your next earnings" {
		t.Fatalf("refund after payout %+v", ref)
	}
	// The next order ships: the owed 10.00 comes out of it in an entry of its own.
	next, _ := f.order(t, 2500, 1, 0) // 25.00 − 8.00 − 1.50 − 1.00 = 14.50
	if _, err := in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) {
		if _, err := ledger.BookSale(ctx, tx, next); err != nil {
			return ledger.Entry{}, err
		}
		return ledger.ReleaseOrder(ctx, tx, next)
	}); err != nil {
		t.Fatal(err)
	}
	if b := f.balance(t); b.Available != 450 || b.Owed != 0 {
		t.Fatalf("after the next order shipped: %+v", b)
	}
	var settled int64
	if err := f.db.Get(&settled, `SELECT d_available FROM ledger_entries WHERE type = 'refund' AND d_owed < 0`); err != nil || settled != -1000 {
		t.Errorf("settling entry %d %v", settled, err)
	}
	// A refund beyond what the order still earns takes only those earnings.
	if err := f.db.Get(&refundID, `INSERT INTO refunds (payment_id, amount) VALUES ($1, 5000) RETURNING id`, pay); err != nil {
		t.Fatal(err)
	}
	ref, err = in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) { return ledger.BookRefund(ctx, tx, refundID) })
	if err != nil || ref.Amount() != -1420 {
		t.Fatalf("second refund %+v %v", ref, err)
	}
	checkSums(t, f.db)
}

// TestIdempotentByKey posts every kind of write twice (and a third time concurrently): each makes
// one entry, and a key reused for another operation is refused.
func TestIdempotentByKey(t *testing.T) {
	f := newFixture(t)
	orderID, pay := f.order(t, 3000, 1, 0)
	var refundID int64
	if err := f.db.Get(&refundID, `INSERT INTO refunds (payment_id, amount) VALUES ($1, 100) RETURNING id`, pay); err != nil {
		t.Fatal(err)
	}
	writes := map[string]func(tx *sqlx.Tx) (ledger.Entry, error){
		"sale":    func(tx *sqlx.Tx) (ledger.Entry, error) { return ledger.BookSale(ctx, tx, orderID) },
		"release": func(tx *sqlx.Tx) (ledger.Entry, error) { return ledger.ReleaseOrder(ctx, tx, orderID) },
		"refund":  func(tx *sqlx.Tx) (ledger.Entry, error) { return ledger.BookRefund(ctx, tx, refundID) },
		"topup": func(tx *sqlx.Tx) (ledger.Entry, error) {
			return ledger.TopUp(ctx, tx, f.seller, usd(5000), "pi_topup_1")
		},
		"admin": func(tx *sqlx.Tx) (ledger.Entry, error) {
			return ledger.Adjust(ctx, tx, ledger.Adjustment{SellerID: f.seller, Amount: -700, Currency: money.USD, Reason: "Chargeback", ActorID: f.admin, Key: "a1"})
		},
	}
	for _, name := range []string{"sale", "release", "refund", "topup", "admin"} {
		var wg sync.WaitGroup
		ids := make([]int64, 4)
		for i := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				e, err := in(t, f.db, writes[name])
				if err != nil {
					t.Errorf("%s #%d: %v", name, i, err)
				}
				ids[i] = e.ID
			}()
		}
		wg.Wait()
		for _, id := range ids[1:] {
			if id != ids[0] || id == 0 {
				t.Errorf("%s posted several entries: %v", name, ids)
			}
		}
	}
	var n int
	if err := f.db.Get(&n, `SELECT count(*) FROM ledger_entries`); err != nil || n != 5 {
		t.Errorf("%d entries, want 5 (%v)", n, err)
	}
	_, err := in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) {
		return ledger.Adjust(ctx, tx, ledger.Adjustment{SellerID: f.seller, Amount: 700, Currency: money.USD, Reason: "Other", ActorID: f.admin, Key: "a1"})
	})
	if !errors.Is(err, ledger.ErrKeyReused) {
		t.Errorf("key reused for another amount: %v", err)
	}
	p, err := ledger.RequestPayout(ctx, f.db, f.seller, f.seller, 0, usd(1000))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := ledger.StepPayout(ctx, f.db, p.ID, ledger.StepHold, f.admin, "", "checking the account"); err != nil {
			t.Fatal(err)
		}
	}
	var steps int
	if err := f.db.Get(&steps, `SELECT count(*) FROM ledger_entries WHERE payout_id = $1`, p.ID); err != nil || steps != 2 {
		t.Errorf("request and one hold: %d entries (%v)", steps, err)
	}
	if _, err := ledger.StepPayout(ctx, f.db, p.ID, ledger.StepComplete, f.admin, "REF", ""); !errors.Is(err, ledger.ErrStepRefused) {
		t.Errorf("complete an on-hold payout: %v", err)
	}
	checkSums(t, f.db)
}

// TestBadAmounts refuses negative, zero, absurd amounts and unknown currencies with a message.
func TestBadAmounts(t *testing.T) {
	f := newFixture(t)
	for name, m := range map[string]money.Money{
		"negative": usd(-1), "zero": usd(0), "absurd": usd(money.MaxAmount + 1), "unknown currency": {Amount: 100, Currency: "XYZ"},
		"no currency": {Amount: 100},
	} {
		_, err := in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) { return ledger.TopUp(ctx, tx, f.seller, m, "pi_"+name) })
		if !errors.Is(err, ledger.ErrInvalid) {
			t.Errorf("top-up %s: %v", name, err)
		}
		if _, err := ledger.RequestPayout(ctx, f.db, f.seller, f.seller, 0, m); !errors.Is(err, ledger.ErrInvalid) {
			t.Errorf("payout %s: %v", name, err)
		}
	}
	_, err := in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) {
		return ledger.Adjust(ctx, tx, ledger.Adjustment{SellerID: f.seller, Amount: -1, Currency: money.USD, Reason: "x", ActorID: f.admin, Key: "neg"})
	})
	if !errors.Is(err, ledger.ErrInsufficient) {
		t.Errorf("taking from an empty balance: %v", err)
	}
	_, err = in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) {
		return ledger.Adjust(ctx, tx, ledger.Adjustment{SellerID: f.seller, Amount: 100, Currency: money.USD, Reason: " ", ActorID: f.admin, Key: "noreason"})
	})
	if !errors.Is(err, ledger.ErrInvalid) {
		t.Errorf("adjustment without a reason: %v", err)
	}
	if _, err := in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) { return ledger.TopUp(ctx, tx, f.seller, usd(1000), "pi_ok") }); err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.RequestPayout(ctx, f.db, f.seller, f.seller, 0, usd(999)); !errors.Is(err, ledger.ErrBelowMinimum) || err.Error() != "below the payout minimum: the least payout is $10.00" {
		t.Errorf("under the minimum: %v", err)
	}
	if _, err := ledger.RequestPayout(ctx, f.db, f.seller, f.seller, 0, usd(1001)); !errors.Is(err, ledger.ErrInsufficient) {
		t.Errorf("more than available: %v", err)
	}
	if _, err := ledger.StepPayout(ctx, f.db, 999999, ledger.StepApprove, f.admin, "", ""); !errors.Is(err, ledger.ErrPayoutNotFound) {
		t.Errorf("unknown payout: %v", err)
	}
	checkSums(t, f.db)
}

// TestConcurrentPayoutRequests fires 50 payout requests at once: one payout is open, the others
// are refused, and the available balance never goes below zero.
func TestConcurrentPayoutRequests(t *testing.T) {
	f := newFixture(t)
	if _, err := in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) { return ledger.TopUp(ctx, tx, f.seller, usd(10_000), "pi_t") }); err != nil {
		t.Fatal(err)
	}
	var ok, open, other atomic.Int32
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := ledger.RequestPayout(ctx, f.db, f.seller, f.seller, 0, usd(int64(6000+i*10)))
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, ledger.ErrPayoutOpen):
				open.Add(1)
			default:
				other.Add(1)
				t.Errorf("request %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 1 || open.Load() != 49 {
		t.Errorf("%d made, %d refused as open, %d other", ok.Load(), open.Load(), other.Load())
	}
	var pending int
	if err := f.db.Get(&pending, `SELECT count(*) FROM payouts WHERE status = 'pending'`); err != nil || pending != 1 {
		t.Errorf("%d pending payouts (%v)", pending, err)
	}
	b := f.balance(t)
	if b.Available < 0 || b.Available+b.Paying != 10_000 {
		t.Errorf("balance %+v", b)
	}
	checkSums(t, f.db)
}

// TestWithdrawPayout: a seller cancels their own pending payout and the amount is available again
// once, however many times it is sent at once and even against an admin approving it at the same
// moment; another seller cannot, and neither can the seller once the payout is being processed.
func TestWithdrawPayout(t *testing.T) {
	f := newFixture(t)
	if _, err := in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) { return ledger.TopUp(ctx, tx, f.seller, usd(5000), "pi_w") }); err != nil {
		t.Fatal(err)
	}
	p, err := ledger.RequestPayout(ctx, f.db, f.seller, f.seller, 0, usd(3000))
	if err != nil || !p.Withdrawable {
		t.Fatalf("request: %+v %v", p, err)
	}
	if _, err := ledger.WithdrawPayout(ctx, f.db, f.admin, p.ID, f.admin); !errors.Is(err, ledger.ErrPayoutNotFound) {
		t.Errorf("another account withdrawing: %v", err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if w, err := ledger.WithdrawPayout(ctx, f.db, f.seller, p.ID, f.seller); err != nil || w.Status != ledger.PayoutCancelled || w.Withdrawable {
				t.Errorf("withdraw: %+v %v", w, err)
			}
		}()
	}
	wg.Wait()
	if b := f.balance(t); b.Available != 5000 || b.Paying != 0 {
		t.Errorf("after withdrawing: %+v; want all 50.00 available again", b)
	}
	var cancels int
	if err := f.db.Get(&cancels, `SELECT count(*) FROM ledger_entries WHERE payout_id = $1 AND d_available > 0`, p.ID); err != nil || cancels != 1 {
		t.Errorf("%d entries gave the amount back (%v); want 1", cancels, err)
	}

	// Withdrawing against an admin's approval: one of them wins, and the money is counted once.
	for round := range 4 {
		p, err := ledger.RequestPayout(ctx, f.db, f.seller, f.seller, 0, usd(2000))
		if err != nil {
			t.Fatal(err)
		}
		var withdrawErr, approveErr error
		wg.Add(2)
		go func() { defer wg.Done(); _, withdrawErr = ledger.WithdrawPayout(ctx, f.db, f.seller, p.ID, f.seller) }()
		go func() {
			defer wg.Done()
			_, approveErr = ledger.StepPayout(ctx, f.db, p.ID, ledger.StepApprove, f.admin, "", "")
		}()
		wg.Wait()
		b := f.balance(t)
		switch {
		case withdrawErr == nil && errors.Is(approveErr, ledger.ErrStepRefused):
			if b.Available != 5000 || b.Paying != 0 {
				t.Errorf("round %d, withdrawn first: %+v", round, b)
			}
		case approveErr == nil && errors.Is(withdrawErr, ledger.ErrStepRefused):
			if b.Available != 3000 || b.Paying != 2000 {
				t.Errorf("round %d, approved first: %+v", round, b)
			}
			if _, err := ledger.StepPayout(ctx, f.db, p.ID, ledger.StepCancel, f.admin, "", ""); err != nil {
				t.Fatal(err)
			}
		default:
			t.Errorf("round %d: withdraw %v, approve %v; want exactly one refused", round, withdrawErr, approveErr)
		}
	}
	checkSums(t, f.db)
}

// TestPropertyRandomOperations applies thousands of random sales, shipments, refunds, top-ups,
// adjustments and payout steps for several sellers from several goroutines at once, then checks that
// every balance is the sum of its entries and that no bucket ever went below zero (each entry
// records the balance after it).
func TestPropertyRandomOperations(t *testing.T) {
	f := newFixture(t)
	sellers := []int64{f.seller}
	for i := range 2 {
		var id int64
		if err := f.db.Get(&id, `INSERT INTO users (name, email, password_hash, roles) VALUES ('S', $1, 'x', '{seller}') RETURNING id`,
			fmt.Sprintf("s%d@example.com", i)); err != nil {
			t.Fatal(err)
		}
		sellers = append(sellers, id)
		payoutAccount(t, f.db, id, "valid", true)
	}
	const workers, opsPerWorker = 6, 400
	var wg sync.WaitGroup
	var applied atomic.Int64
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 42))
			var orderIDs, payIDs []int64
			for i := range opsPerWorker {
				seller := sellers[r.IntN(len(sellers))]
				var err error
				switch op := r.IntN(10); {
				case op < 3: // a paid order
					var oid, pid int64
					oid, pid, err = randomOrder(f, seller, r)
					if err == nil {
						_, err = in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) { return ledger.BookSale(ctx, tx, oid) })
						orderIDs, payIDs = append(orderIDs, oid), append(payIDs, pid)
					}
				case op < 5 && len(orderIDs) > 0: // a shipment
					oid := orderIDs[r.IntN(len(orderIDs))]
					_, err = in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) { return ledger.ReleaseOrder(ctx, tx, oid) })
				case op < 6 && len(payIDs) > 0: // a refund
					pid := payIDs[r.IntN(len(payIDs))]
					_, err = in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) {
						var rid int64
						if err := tx.Get(&rid, `INSERT INTO refunds (payment_id, amount) VALUES ($1, $2) RETURNING id`, pid, 1+r.Int64N(4000)); err != nil {
							return ledger.Entry{}, err
						}
						return ledger.BookRefund(ctx, tx, rid)
					})
				case op < 7: // a top-up
					_, err = in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) {
						return ledger.TopUp(ctx, tx, seller, usd(1+r.Int64N(5000)), fmt.Sprintf("pi_%d_%d", w, i))
					})
				case op < 8: // an admin adjustment either way
					_, err = in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) {
						return ledger.Adjust(ctx, tx, ledger.Adjustment{SellerID: seller, Amount: r.Int64N(4000) - 2000 + 1, Currency: money.USD,
							Reason: "random", ActorID: f.admin, Key: fmt.Sprintf("%d-%d", w, i)})
					})
				case op < 9: // a payout request
					_, err = ledger.RequestPayout(ctx, f.db, seller, seller, 0, usd(1000+r.Int64N(10_000)))
				default: // a step of the seller's open payout
					var p *ledger.Payout
					if p, err = ledger.OpenPayout(ctx, f.db, seller); err == nil && p != nil {
						_, err = ledger.StepPayout(ctx, f.db, p.ID, ledger.Steps[r.IntN(len(ledger.Steps))], f.admin, "R", "")
					}
				}
				if err != nil && !errors.Is(err, ledger.ErrInsufficient) && !errors.Is(err, ledger.ErrPayoutOpen) && !errors.Is(err, ledger.ErrStepRefused) &&
					!errors.Is(err, ledger.ErrBelowMinimum) {
					t.Errorf("worker %d op %d: %v", w, i, err)
					return
				}
				if err == nil {
					applied.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	var n int
	if err := f.db.Get(&n, `SELECT count(*) FROM ledger_entries`); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d operations applied, %d entries", applied.Load(), n)
	if n < 1000 {
		t.Errorf("only %d entries: the test did not exercise the ledger", n)
	}
	checkSums(t, f.db)
}

func randomOrder(f fixture, seller int64, r *rand.Rand) (int64, int64, error) {
	tx, err := f.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	price, qty := 500+r.Int64N(5000), 1+r.Int64N(3)
	discount := r.Int64N(price * qty / 2)
	c, _, err := orders.Create(ctx, tx, orders.New{SellerID: seller, Email: "b@example.com", Subtotal: usd(price * qty),
		Discount: usd(discount), Total: usd(price*qty - discount), Items: []orders.Item{{CampaignID: f.campID, ProductID: f.product,
			ProductName: "Tee", Quantity: int(qty), UnitPrice: usd(price)}}}, orders.PendingPayment, "test")
	if err != nil {
		return 0, 0, err
	}
	var pay int64
	if err := tx.Get(&pay, `INSERT INTO payments (order_id, gateway, intent_id, idempotency_key, amount, currency, status)
		VALUES ($1, 'test', $2, $2, $3, 'USD', 'succeeded') RETURNING id`, c.ID, fmt.Sprint("pi_", c.ID), price*qty-discount); err != nil {
		return 0, 0, err
	}
	return c.ID, pay, tx.Commit()
}
