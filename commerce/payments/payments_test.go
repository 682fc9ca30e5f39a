package payments

import (
	"context"
	"errors"
	"testing"

	"github.com/pressroom/pressroom/commerce/money"
)

func TestTestGateway(t *testing.T) {
	if _, err := NewTest("production"); !errors.Is(err, ErrProduction) {
		t.Fatalf("production: %v", err)
	}
	g, err := NewTest("development")
	if err != nil || !g.TestMode() {
		t.Fatal(err)
	}
	ctx := context.Background()
	amount := money.Money{Amount: 2499, Currency: money.USD}
	a, err := g.CreateIntent(ctx, IntentRequest{IdempotencyKey: "checkout-1", Amount: amount})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := g.CreateIntent(ctx, IntentRequest{IdempotencyKey: "checkout-1", Amount: amount})
	c, _ := g.CreateIntent(ctx, IntentRequest{IdempotencyKey: "checkout-2", Amount: amount})
	if a.ID != b.ID || a.ID == c.ID {
		t.Errorf("idempotency: %s %s %s", a.ID, b.ID, c.ID)
	}
	got, err := g.Confirm(ctx, a.ID)
	if err != nil || got.Status != StatusSucceeded || got.Amount != amount {
		t.Errorf("Confirm = %+v, %v", got, err)
	}
	declined, _ := g.CreateIntent(ctx, IntentRequest{IdempotencyKey: "k", Amount: money.Money{Amount: 1051, Currency: money.EUR}})
	if got, _ := g.Confirm(ctx, declined.ID); got.Status != StatusFailed || got.Message == "" {
		t.Errorf("declined = %+v", got)
	}
	for _, bad := range []string{"", "pi_123", "test_pi_x_abc_USD", "test_pi_x_100_GBP"} {
		if _, err := g.Confirm(ctx, bad); !errors.Is(err, ErrUnknownIntent) {
			t.Errorf("Confirm(%q): %v", bad, err)
		}
	}
	if _, err := g.CreateIntent(ctx, IntentRequest{Amount: amount}); err == nil {
		t.Error("no idempotency key accepted")
	}
}
