package payments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/platform/env"
)

// StripeConfig is the platform's Stripe account. The gateway is on when SecretKey is set.
type StripeConfig struct {
	// SecretKey calls Stripe's API (PRESSROOM_STRIPE_SECRET_KEY, sk_live_... or sk_test_...).
	SecretKey string
	// PublishableKey is given to Stripe.js on the checkout page (PRESSROOM_STRIPE_PUBLISHABLE_KEY).
	PublishableKey string
	// WebhookSecret verifies the signature of Stripe's webhooks (PRESSROOM_STRIPE_WEBHOOK_SECRET, whsec_...).
	WebhookSecret string
	// APIBase is Stripe's API address (PRESSROOM_STRIPE_API_BASE, default https://api.stripe.com);
	// tests point it at stripe-mock.
	APIBase string
	// HTTPClient, when set, carries the calls (the sellers' gateways share one, with its connections);
	// nil: stripe-go's own.
	HTTPClient *http.Client
}

// LoadStripeConfig reads the PRESSROOM_STRIPE_* variables.
func LoadStripeConfig(lookup env.Lookup) (StripeConfig, error) {
	c := StripeConfig{APIBase: stripe.APIURL}
	r := env.NewReader(lookup)
	r.String(&c.SecretKey, "PRESSROOM_STRIPE_SECRET_KEY")
	r.String(&c.PublishableKey, "PRESSROOM_STRIPE_PUBLISHABLE_KEY")
	r.String(&c.WebhookSecret, "PRESSROOM_STRIPE_WEBHOOK_SECRET")
	r.String(&c.APIBase, "PRESSROOM_STRIPE_API_BASE")
	return c, r.Err()
}

// Enabled reports whether Stripe takes the payments.
func (c StripeConfig) Enabled() bool { return c.SecretKey != "" }

// Validate names the variable to fix. Without a secret key nothing else is needed; with one, the
// publishable key and the webhook secret are required too (no webhook, no order).
func (c StripeConfig) Validate() error {
	if !c.Enabled() {
		if c.PublishableKey != "" || c.WebhookSecret != "" {
			return errors.New("PRESSROOM_STRIPE_SECRET_KEY: required when the publishable key or webhook secret is set")
		}
		return nil
	}
	if !strings.HasPrefix(c.SecretKey, "sk_") && !strings.HasPrefix(c.SecretKey, "rk_") {
		return errors.New("PRESSROOM_STRIPE_SECRET_KEY: want a secret key (sk_live_... or sk_test_...)")
	}
	if !strings.HasPrefix(c.PublishableKey, "pk_") {
		return errors.New("PRESSROOM_STRIPE_PUBLISHABLE_KEY: required with the secret key (pk_live_... or pk_test_...)")
	}
	if c.WebhookSecret == "" {
		return errors.New("PRESSROOM_STRIPE_WEBHOOK_SECRET: required with the secret key (whsec_..., from the webhook endpoint in Stripe's dashboard)")
	}
	if !strings.HasPrefix(c.APIBase, "http://") && !strings.HasPrefix(c.APIBase, "https://") {
		return errors.New("PRESSROOM_STRIPE_API_BASE: want an http(s) address such as https://api.stripe.com")
	}
	return nil
}

// webhookTolerance is how old a webhook's signed timestamp may be: older deliveries are refused as
// replays.
const webhookTolerance = 5 * time.Minute

// Stripe takes payments with Stripe PaymentIntents. The buyer's browser confirms an intent with the
// Payment Element; Stripe then reports the outcome by webhook.
type Stripe struct {
	cfg    StripeConfig
	client *stripe.Client
}

// NewStripe builds the gateway of cfg.
func NewStripe(cfg StripeConfig) (*Stripe, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if !cfg.Enabled() {
		return nil, errors.New("PRESSROOM_STRIPE_SECRET_KEY: not set")
	}
	return &Stripe{cfg: cfg, client: newClient(cfg.SecretKey, cfg.APIBase, cfg.HTTPClient)}, nil
}

// newClient is a Stripe API client of secretKey at apiBase, retrying twice.
func newClient(secretKey, apiBase string, httpClient *http.Client) *stripe.Client {
	base := strings.TrimRight(apiBase, "/")
	retries := int64(2)
	backends := stripe.NewBackendsWithConfig(&stripe.BackendConfig{URL: &base, MaxNetworkRetries: &retries, HTTPClient: httpClient})
	return stripe.NewClient(secretKey, stripe.WithBackends(backends))
}

// Name implements Gateway.
func (*Stripe) Name() string { return "stripe" }

// TestMode implements Gateway: Stripe's test keys move no money.
func (s *Stripe) TestMode() bool {
	return strings.HasPrefix(s.cfg.SecretKey, "sk_test_") || strings.HasPrefix(s.cfg.SecretKey, "rk_test_")
}

// PublishableKey is the key Stripe.js is started with on the checkout page.
func (s *Stripe) PublishableKey() string { return s.cfg.PublishableKey }

// CreateIntent implements Gateway: one PaymentIntent per idempotency key (Stripe answers a repeated
// key with the intent it made first, for 24 hours).
func (s *Stripe) CreateIntent(ctx context.Context, r IntentRequest) (Intent, error) {
	if r.IdempotencyKey == "" {
		return Intent{}, errors.New("stripe: an idempotency key is required")
	}
	if _, err := money.New(r.Amount.Amount, r.Amount.Currency); err != nil {
		return Intent{}, fmt.Errorf("stripe: %w", err)
	}
	p := &stripe.PaymentIntentCreateParams{
		Amount:                  stripe.Int64(r.Amount.Amount),
		Currency:                stripe.String(strings.ToLower(string(r.Amount.Currency))),
		AutomaticPaymentMethods: &stripe.PaymentIntentCreateAutomaticPaymentMethodsParams{Enabled: stripe.Bool(true)},
	}
	if r.Email != "" {
		p.ReceiptEmail = stripe.String(r.Email)
	}
	for k, v := range r.Metadata {
		p.AddMetadata(k, v)
	}
	p.SetIdempotencyKey(r.IdempotencyKey)
	pi, err := s.client.V1PaymentIntents.Create(ctx, p)
	if err != nil {
		return Intent{}, fmt.Errorf("stripe: create payment intent: %w", err)
	}
	return intentOf(pi)
}

// Errors of checking a Stripe key.
var (
	// ErrKeyRefused: Stripe refused the secret key (it is not a key of any account, revoked, or
	// lacks the permission to read its account).
	ErrKeyRefused = errors.New("stripe refused the key")
	// ErrUnreachable: Stripe did not answer, or answered with its own failure; nothing is known about
	// the key.
	ErrUnreachable = errors.New("stripe could not be reached")
)

// AccountOf answers the id of the Stripe account secretKey belongs to, asking Stripe at apiBase
// (through httpClient, nil for stripe-go's): the call that proves a key works. Stripe refusing the
// key is ErrKeyRefused (with Stripe's reason); no answer, a 5xx or a rate limit is ErrUnreachable.
func AccountOf(ctx context.Context, secretKey, apiBase string, httpClient *http.Client) (string, error) {
	acct, err := newClient(secretKey, apiBase, httpClient).V1Accounts.Retrieve(ctx, nil)
	var se *stripe.Error
	switch {
	case errors.As(err, &se) && se.HTTPStatusCode == http.StatusUnauthorized:
		return "", fmt.Errorf("%w: it is not a valid API key of any Stripe account", ErrKeyRefused)
	case errors.As(err, &se) && se.HTTPStatusCode >= 400 && se.HTTPStatusCode < 500 && se.HTTPStatusCode != http.StatusTooManyRequests:
		return "", fmt.Errorf("%w: %s", ErrKeyRefused, se.Msg)
	case err != nil:
		return "", fmt.Errorf("%w: %v", ErrUnreachable, err)
	case acct.ID == "":
		return "", fmt.Errorf("%w: Stripe answered no account", ErrUnreachable)
	}
	return acct.ID, nil
}

// Confirm implements Gateway. With Stripe the buyer's browser confirms (the card details never reach
// us), so this reads the intent's current state.
func (s *Stripe) Confirm(ctx context.Context, intentID string) (Intent, error) {
	pi, err := s.client.V1PaymentIntents.Retrieve(ctx, intentID, nil)
	var se *stripe.Error
	if errors.As(err, &se) && se.HTTPStatusCode == 404 {
		return Intent{}, ErrUnknownIntent
	} else if err != nil {
		return Intent{}, fmt.Errorf("stripe: read payment intent: %w", err)
	}
	return intentOf(pi)
}

// ParseEvent implements Gateway: the Stripe-Signature header must sign payload with the webhook
// secret within the tolerance. Only the intent's id, amount, currency, status and failure message are
// read, so the account's API version does not matter.
func (s *Stripe) ParseEvent(payload []byte, signature string) (Event, error) {
	ev, err := webhook.ConstructEventWithOptions(payload, signature, s.cfg.WebhookSecret,
		webhook.ConstructEventOptions{Tolerance: webhookTolerance, IgnoreAPIVersionMismatch: true})
	if err != nil {
		return Event{}, fmt.Errorf("%w: %v", ErrBadSignature, err)
	}
	out := Event{ID: ev.ID, Type: string(ev.Type)}
	if !strings.HasPrefix(out.Type, "payment_intent.") || ev.Data == nil {
		return out, nil
	}
	var pi stripe.PaymentIntent
	if err := json.Unmarshal(ev.Data.Raw, &pi); err != nil {
		return Event{}, fmt.Errorf("stripe: event %s: %w", ev.ID, err)
	}
	if out.Intent, err = intentOf(&pi); err != nil {
		return Event{}, fmt.Errorf("stripe: event %s: %w", ev.ID, err)
	}
	if out.Type == "payment_intent.payment_failed" {
		// A failed attempt leaves the intent waiting for another payment method; for the checkout it
		// is a failure the buyer can retry.
		out.Intent.Status = StatusFailed
	}
	return out, nil
}

// Refund implements Gateway with a Refund of the PaymentIntent, sent with the idempotency key (Stripe
// answers a repeated key with the refund it made first). Stripe refusing the request (a 4xx: the
// amount is more than is left, the payment cannot be refunded) is a failed Refund; no answer, a 5xx
// or a rate limit is an error, to be retried with the same key.
func (s *Stripe) Refund(ctx context.Context, r RefundRequest) (Refund, error) {
	if r.IdempotencyKey == "" {
		return Refund{}, errors.New("stripe: an idempotency key is required")
	}
	p := &stripe.RefundCreateParams{PaymentIntent: stripe.String(r.IntentID), Amount: stripe.Int64(r.Amount.Amount)}
	if r.Reason != "" {
		p.AddMetadata("reason", r.Reason)
	}
	p.SetIdempotencyKey(r.IdempotencyKey)
	rf, err := s.client.V1Refunds.Create(ctx, p)
	var se *stripe.Error
	if errors.As(err, &se) && se.HTTPStatusCode >= 400 && se.HTTPStatusCode < 500 && se.HTTPStatusCode != 409 && se.HTTPStatusCode != 429 {
		return Refund{Status: StatusFailed, Message: se.Msg}, nil
	} else if err != nil {
		return Refund{}, fmt.Errorf("stripe: create refund: %w", err)
	}
	out := Refund{ID: rf.ID}
	switch rf.Status {
	case stripe.RefundStatusSucceeded:
		out.Status = StatusSucceeded
	case stripe.RefundStatusPending, stripe.RefundStatusRequiresAction:
		out.Status = StatusProcessing
	default: // failed, canceled
		out.Status, out.Message = StatusFailed, "Stripe refused the refund ("+string(rf.Status)+")."
		if rf.FailureReason != "" {
			out.Message = "Stripe refused the refund: " + strings.ReplaceAll(string(rf.FailureReason), "_", " ") + "."
		}
	}
	return out, nil
}

// intentOf reads a PaymentIntent.
func intentOf(pi *stripe.PaymentIntent) (Intent, error) {
	m, err := money.New(pi.Amount, money.Currency(strings.ToUpper(string(pi.Currency))))
	if err != nil {
		return Intent{}, err
	}
	in := Intent{ID: pi.ID, Amount: m, ClientSecret: pi.ClientSecret}
	switch pi.Status {
	case stripe.PaymentIntentStatusSucceeded:
		in.Status = StatusSucceeded
	case stripe.PaymentIntentStatusProcessing:
		in.Status = StatusProcessing
	case stripe.PaymentIntentStatusCanceled:
		in.Status = StatusCanceled
	default: // requires_payment_method, requires_confirmation, requires_action, requires_capture
		in.Status = StatusRequiresConfirmation
	}
	if pi.LastPaymentError != nil {
		in.Message = pi.LastPaymentError.Msg
	}
	return in, nil
}
