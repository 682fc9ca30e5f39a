package payments

import (
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v84/webhook"
)

func TestStripeConfigValidate(t *testing.T) {
	ok := StripeConfig{SecretKey: "sk_test_1", PublishableKey: "pk_test_1", WebhookSecret: "whsec_1", APIBase: "https://api.stripe.com"}
	for _, tc := range []struct {
		name  string
		edit  func(*StripeConfig)
		wants string // the variable the error names; "" for no error
	}{
		{"complete", func(*StripeConfig) {}, ""},
		{"off", func(c *StripeConfig) { *c = StripeConfig{APIBase: "https://api.stripe.com"} }, ""},
		{"no webhook secret", func(c *StripeConfig) { c.WebhookSecret = "" }, "PRESSROOM_STRIPE_WEBHOOK_SECRET"},
		{"no publishable key", func(c *StripeConfig) { c.PublishableKey = "" }, "PRESSROOM_STRIPE_PUBLISHABLE_KEY"},
		{"publishable key as secret", func(c *StripeConfig) { c.SecretKey = "pk_test_1" }, "PRESSROOM_STRIPE_SECRET_KEY"},
		{"webhook secret alone", func(c *StripeConfig) { c.SecretKey, c.PublishableKey = "", "" }, "PRESSROOM_STRIPE_SECRET_KEY"},
		{"bad base", func(c *StripeConfig) { c.APIBase = "api.stripe.com" }, "PRESSROOM_STRIPE_API_BASE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			err := c.Validate()
			if tc.wants == "" && err != nil || tc.wants != "" && (err == nil || !strings.Contains(err.Error(), tc.wants)) {
				t.Errorf("Validate() = %v, want one naming %q", err, tc.wants)
			}
		})
	}
}

// TestStripeParseEvent reads a signed event's intent and refuses a signature made with another
// secret or too long ago.
func TestStripeParseEvent(t *testing.T) {
	gw, err := NewStripe(StripeConfig{SecretKey: "sk_test_1", PublishableKey: "pk_test_1", WebhookSecret: "whsec_1", APIBase: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte(`{"id":"evt_1","object":"event","type":"payment_intent.payment_failed","data":{"object":{"id":"pi_1",` +
		`"object":"payment_intent","amount":2498,"currency":"eur","status":"requires_payment_method","last_payment_error":{"message":"Declined."}}}}`)
	sign := func(secret string, at time.Time) string {
		return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at}).Header
	}
	ev, err := gw.ParseEvent(payload, sign("whsec_1", time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	if ev.ID != "evt_1" || ev.Intent.ID != "pi_1" || ev.Intent.Amount.Amount != 2498 || ev.Intent.Amount.Currency != "EUR" ||
		ev.Intent.Status != StatusFailed || ev.Intent.Message != "Declined." {
		t.Errorf("event %+v", ev)
	}
	for name, sig := range map[string]string{"other secret": sign("whsec_2", time.Now()), "stale": sign("whsec_1", time.Now().Add(-time.Hour)), "none": ""} {
		if _, err := gw.ParseEvent(payload, sig); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
