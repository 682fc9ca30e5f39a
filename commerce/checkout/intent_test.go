package checkout

import (
	"context"
	"testing"

	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/platform/testinfra"
)

// TestPrepareReusesIntent: showing a checkout's payment form again answers the intent made the first
// time (stripe-mock makes a new id for every create, so a second create would show), and the
// intent is for the checkout's total in minor units.
func TestPrepareReusesIntent(t *testing.T) {
	base, db, storeID, product := newShop(t)
	gw, err := payments.NewStripe(payments.StripeConfig{SecretKey: "sk_test_1", PublishableKey: "pk_test_1", WebhookSecret: "whsec_1",
		APIBase: testinfra.StripeURL(t)})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Deps{DB: db, Gateway: gw})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cart, err := base.AddToCart(ctx, storeID, "", AddItem{ProductID: product, Color: "Black", Size: "M", Quantity: 2})
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.Save(ctx, storeID, cart, input())
	if err != nil {
		t.Fatal(err)
	}
	first, err := s.Prepare(ctx, storeID, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if first.ClientSecret == "" || first.Amount != c.Totals.Total || first.Amount.Amount != 4000+c.Totals.Shipping.Amount {
		t.Errorf("intent %+v for a checkout of %s", first, c.Totals.Total)
	}
	for range 3 {
		again, err := s.Prepare(ctx, storeID, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if again.ID != first.ID || again.ClientSecret == "" {
			t.Errorf("intent %s, first %s", again.ID, first.ID)
		}
	}
	var n int
	var key string
	db.QueryRow(`SELECT count(*), max(idempotency_key) FROM payments WHERE checkout_id = $1`, c.ID).Scan(&n, &key)
	if n != 1 || key != idempotencyKey(c) {
		t.Errorf("%d payments, key %q", n, key)
	}
}
