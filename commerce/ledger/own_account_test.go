package ledger_test

import (
	"fmt"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/ledger"
	"github.com/pressroom/pressroom/commerce/orders"
)

// paidOrder makes an order of the fixture's product for seller, paid in full (shipping and tip
// included), through the seller's own gateway when gateway is not 0, and answers the order and its
// payment.
func (f fixture) paidOrder(t *testing.T, seller, gateway, price, qty, discount, shipping, tip int64) (int64, int64) {
	t.Helper()
	tx := f.db.MustBeginTx(ctx, nil)
	defer tx.Rollback()
	sub := price * qty
	total := sub - discount + shipping + tip
	c, _, err := orders.Create(ctx, tx, orders.New{SellerID: seller, Email: "b@example.com", Subtotal: usd(sub), Discount: usd(discount),
		Shipping: usd(shipping), Tip: usd(tip), Total: usd(total), Items: []orders.Item{{CampaignID: f.campID, ProductID: f.product,
			ProductName: "Tee", Quantity: int(qty), UnitPrice: usd(price)}}}, orders.PendingPayment, "test")
	if err != nil {
		t.Fatal(err)
	}
	var own any
	if gateway != 0 {
		own = gateway
	}
	var pay int64
	if err := tx.Get(&pay, `INSERT INTO payments (order_id, gateway, intent_id, idempotency_key, amount, currency, status, payment_gateway_id)
		VALUES ($1, $2, $3, $3, $4, 'USD', 'succeeded', $5) RETURNING id`, c.ID, fmt.Sprint("stripe:", gateway), fmt.Sprint("pi_", c.ID), total, own); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return c.ID, pay
}

// position is what seller has in the ledger, all buckets together (available + held + paying − owed).
func position(t *testing.T, db *sqlx.DB, seller int64) int64 {
	t.Helper()
	var p int64
	if err := db.Get(&p, `SELECT COALESCE(sum(d_available + d_held + d_paying - d_owed), 0) FROM ledger_entries WHERE seller_id = $1`, seller); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOwnAccountSales is the rule for an order paid into the seller's own account (docs/money.md),
// by table, each case run twice: paid into the platform's account and into the seller's. The
// platform's books the earnings held; the seller's books what the seller owes (everything the
// buyer paid beyond the earnings) as a "fulfill" entry taken from the available balance, the rest
// owed. Refunds are borne by the seller up to what the order still earns them, by the platform
// beyond, both ways. The seller ends with the same money either way: what they hold in the ledger
// plus what they kept in their own account.
func TestOwnAccountSales(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name                                   string
		price, qty, discount, shipping, tip    int64
		available                              int64 // on the seller's balance before the sale
		refunds                                []int64
		wantOwed, wantAvailable, wantFinalOwed int64 // after the sale: the fulfill entry's owed and available parts; owed after the refunds
		wantNet                                int64 // the order's earnings
	}{
		// sale 25.00 − base 8.00 − extra 1.50 − fee 4% of 29.99 = 1.20 = 14.30 earned; owed 29.99 − 14.30 = 15.69
		{name: "nothing available: all owed", price: 2500, qty: 1, shipping: 499, available: 0,
			wantOwed: 1569, wantAvailable: 0, wantFinalOwed: 1569, wantNet: 1430},
		{name: "taken from what is available", price: 2500, qty: 1, shipping: 499, available: 5000,
			wantOwed: 0, wantAvailable: -1569, wantNet: 1430},
		{name: "partly available, the rest owed", price: 2500, qty: 1, shipping: 499, available: 1000,
			wantOwed: 569, wantAvailable: -1000, wantFinalOwed: 569, wantNet: 1430},
		// sale 60.00 − base 16.00 − extra 3.00 − fee 4% of 63.99 = 2.56 − discount 6.00 = 32.44; owed 63.99 − 32.44 = 31.55
		{name: "discount, shipping and tip", price: 3000, qty: 2, discount: 600, shipping: 699, tip: 300, available: 0,
			wantOwed: 3155, wantFinalOwed: 3155, wantNet: 3244},
		{name: "a refund within the earnings is the seller's", price: 2500, qty: 1, shipping: 499, refunds: []int64{1000},
			wantOwed: 1569, wantFinalOwed: 1569, wantNet: 1430},
		{name: "a full refund gives the platform's share back", price: 2500, qty: 1, shipping: 499, refunds: []int64{2999},
			wantOwed: 1569, wantFinalOwed: 0, wantNet: 1430},
		{name: "refunds in parts across the earnings", price: 2500, qty: 1, shipping: 499, refunds: []int64{1000, 1000, 999},
			wantOwed: 1569, wantFinalOwed: 0, wantNet: 1430},
		{name: "a refund past the earnings", price: 2500, qty: 1, shipping: 499, available: 3000, refunds: []int64{2000},
			wantAvailable: -1569, wantNet: 1430},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ends := map[bool]int64{}
			for _, own := range []bool{false, true} {
				var seller, gateway int64
				if err := f.db.Get(&seller, `INSERT INTO users (name, email, password_hash, roles) VALUES ('S', $1, 'x', '{seller}') RETURNING id`,
					fmt.Sprintf("own-%d-%t@example.com", i, own)); err != nil {
					t.Fatal(err)
				}
				if own {
					if err := f.db.Get(&gateway, `INSERT INTO payment_gateways (seller_id, name, account_id, test_mode, publishable_key,
						secret_key_sealed, secret_key_hint, webhook_secret_sealed, webhook_secret_hint)
						VALUES ($1, 'Mine', 'acct_1', true, 'pk_test_1', '\x00', 'sk', '\x00', 'wh') RETURNING id`, seller); err != nil {
						t.Fatal(err)
					}
				}
				if tt.available > 0 {
					if _, err := in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) {
						return ledger.Adjust(ctx, tx, ledger.Adjustment{SellerID: seller, Amount: tt.available, Currency: "USD", Reason: "start",
							ActorID: f.admin, Key: fmt.Sprint("start-", seller)})
					}); err != nil {
						t.Fatal(err)
					}
				}
				orderID, pay := f.paidOrder(t, seller, gateway, tt.price, tt.qty, tt.discount, tt.shipping, tt.tip)
				e, err := in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) { return ledger.BookSale(ctx, tx, orderID) })
				if err != nil {
					t.Fatal(err)
				}
				total := tt.price*tt.qty - tt.discount + tt.shipping + tt.tip
				if own {
					if e.Type != ledger.TypeFulfill || e.DOwed != tt.wantOwed || e.DAvailable != tt.wantAvailable || e.DHeld != 0 ||
						e.Amount() != tt.wantNet-total {
						t.Errorf("own account: entry %s %+d available %+d owed (amount %d), want %+d, %+d (amount %d): %s",
							e.Type, e.DAvailable, e.DOwed, e.Amount(), tt.wantAvailable, tt.wantOwed, tt.wantNet-total, e.Description)
					}
				} else if e.Type != ledger.TypeSale || e.DHeld != tt.wantNet {
					t.Errorf("platform: entry %s %+d held, want %+d", e.Type, e.DHeld, tt.wantNet)
				}
				// Shipping makes nothing available for an order whose earnings the seller holds already.
				if r, err := in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) { return ledger.ReleaseOrder(ctx, tx, orderID) }); err != nil {
					t.Fatal(err)
				} else if own && r.ID != 0 {
					t.Errorf("own account: shipping released %+v", r)
				}
				refunded := int64(0)
				for _, amount := range tt.refunds {
					var rid int64
					if err := f.db.Get(&rid, `INSERT INTO refunds (payment_id, amount) VALUES ($1, $2) RETURNING id`, pay, amount); err != nil {
						t.Fatal(err)
					}
					if _, err := in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) { return ledger.BookRefund(ctx, tx, rid) }); err != nil {
						t.Fatal(err)
					}
					refunded += amount
				}
				var owed int64
				f.db.Get(&owed, `SELECT COALESCE((SELECT owed FROM ledger_balances WHERE seller_id = $1), 0)`, seller)
				if own && owed != tt.wantFinalOwed {
					t.Errorf("own account: %d owed after the refunds, want %d", owed, tt.wantFinalOwed)
				}
				kept := int64(0) // what the seller holds outside the ledger
				if own {
					kept = total - refunded
				}
				ends[own] = position(t, f.db, seller) - tt.available + kept
			}
			seller, _ := ledger.RefundShare(sum(tt.refunds), tt.wantNet)
			if ends[false] != ends[true] || ends[true] != tt.wantNet-seller {
				t.Errorf("the seller ends with %d through the platform, %d through their own account; want %d", ends[false], ends[true], tt.wantNet-seller)
			}
		})
	}
	checkSums(t, f.db)
}

func sum(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return s
}
