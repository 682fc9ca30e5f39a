package ledger_test

import (
	"errors"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/ledger"
	"github.com/pressroom/pressroom/commerce/money"
)

// TestPayoutNeedsAValidAccount: a payout goes to a valid payment account of the seller, the default
// one unless another is named; without one, to an account that is new or invalid, or to another
// seller's, it is refused and no money moves.
func TestPayoutNeedsAValidAccount(t *testing.T) {
	f := newFixture(t)
	var seller int64
	if err := f.db.Get(&seller, `INSERT INTO users (name, email, password_hash, roles) VALUES ('S', 'two@example.com', 'x', '{seller}') RETURNING id`); err != nil {
		t.Fatal(err)
	}
	if _, err := in(t, f.db, func(tx *sqlx.Tx) (ledger.Entry, error) {
		return ledger.Adjust(ctx, tx, ledger.Adjustment{SellerID: seller, Amount: 5000, Currency: money.USD, Reason: "start", ActorID: f.admin, Key: "two"})
	}); err != nil {
		t.Fatal(err)
	}
	fresh := payoutAccount(t, f.db, seller, "new", false)
	invalid := payoutAccount(t, f.db, seller, "invalid", false)
	var theirs int64
	f.db.Get(&theirs, `SELECT id FROM payment_accounts WHERE seller_id = $1`, f.seller)
	for name, account := range map[string]int64{"no default account": 0, "a new account": fresh, "an invalid account": invalid,
		"another seller's account": theirs} {
		if _, err := ledger.RequestPayout(ctx, f.db, seller, seller, account, usd(2000)); !errors.Is(err, ledger.ErrNoAccount) {
			t.Errorf("%s: %v", name, err)
		}
	}
	var payouts int
	f.db.Get(&payouts, `SELECT count(*) FROM payouts`)
	all, _ := ledger.Balances(ctx, f.db, seller)
	if payouts != 0 || len(all) != 1 || all[0].Available != 5000 || all[0].Paying != 0 {
		t.Fatalf("refused payouts moved money: %d payouts, %+v", payouts, all)
	}
	valid := payoutAccount(t, f.db, seller, "valid", false)
	p, err := ledger.RequestPayout(ctx, f.db, seller, seller, valid, usd(2000))
	if err != nil || p.PaymentAccountID == nil || *p.PaymentAccountID != valid || p.PaymentAccountLabel != "Bank transfer ••••6789" {
		t.Fatalf("to a valid account: %+v %v", p, err)
	}
	checkSums(t, f.db)
}
