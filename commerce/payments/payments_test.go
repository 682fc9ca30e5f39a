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

// TestTestGatewayRefund: the same key is the same refund, amounts ending in 51 cents and amounts
// that do not fit the payment are refused with a message, an unknown intent or no key is an error.
func TestTestGatewayRefund(t *testing.T) {
	g, err := NewTest("test")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	in, err := g.CreateIntent(ctx, IntentRequest{IdempotencyKey: "c", Amount: money.Money{Amount: 2000, Currency: money.USD}})
	if err != nil {
		t.Fatal(err)
	}
	usd := func(a int64) money.Money { return money.Money{Amount: a, Currency: money.USD} }
	a, err := g.Refund(ctx, RefundRequest{IdempotencyKey: "r-1", IntentID: in.ID, Amount: usd(700)})
	if err != nil || a.Status != StatusSucceeded || a.ID == "" {
		t.Fatalf("refund = %+v, %v", a, err)
	}
	b, _ := g.Refund(ctx, RefundRequest{IdempotencyKey: "r-1", IntentID: in.ID, Amount: usd(700)})
	c, _ := g.Refund(ctx, RefundRequest{IdempotencyKey: "r-2", IntentID: in.ID, Amount: usd(700)})
	if a.ID != b.ID || a.ID == c.ID {
		t.Errorf("idempotency: %s %s %s", a.ID, b.ID, c.ID)
	}
	for name, m := range map[string]money.Money{"ends in 51": usd(1051), "more than paid": usd(2001), "zero": usd(0),
		"another currency": {Amount: 700, Currency: money.EUR}} {
		if got, err := g.Refund(ctx, RefundRequest{IdempotencyKey: "r-" + name, IntentID: in.ID, Amount: m}); err != nil ||
			got.Status != StatusFailed || got.Message == "" {
			t.Errorf("%s: %+v, %v", name, got, err)
		}
	}
	if _, err := g.Refund(ctx, RefundRequest{IdempotencyKey: "r-x", IntentID: "pi_123", Amount: usd(700)}); !errors.Is(err, ErrUnknownIntent) {
		t.Errorf("unknown intent: %v", err)
	}
	if _, err := g.Refund(ctx, RefundRequest{IntentID: in.ID, Amount: usd(700)}); err == nil {
		t.Error("no idempotency key accepted")
	}
}
