package payments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pressroom/pressroom/commerce/money"
)

// Status is an intent's state, as gateways report it.
type Status string

// Intent statuses.
const (
	StatusRequiresConfirmation Status = "requires_confirmation"
	StatusProcessing           Status = "processing"
	StatusSucceeded            Status = "succeeded"
	StatusFailed               Status = "failed"
	StatusCanceled             Status = "canceled"
)

// Intent is one attempt to take an amount from a buyer.
type Intent struct {
	ID     string
	Amount money.Money
	Status Status
	// Message says why a failed intent failed, in words a buyer can read.
	Message string
	// ClientSecret lets the buyer's browser confirm the intent (Stripe's Payment Element); empty for
	// gateways that confirm on the server.
	ClientSecret string
}

// IntentRequest asks for an intent. IdempotencyKey makes a repeated request (a double click, a
// retry after a timeout) answer the same intent instead of a second charge.
type IntentRequest struct {
	IdempotencyKey string
	Amount         money.Money
	Email          string
	Metadata       map[string]string
}

// Event is a gateway's notice about an intent (a webhook). ID is unique per event: a delivery seen
// before is ignored.
type Event struct {
	ID     string
	Type   string // e.g. payment_intent.succeeded
	Intent Intent
}

// RefundRequest gives back part or all of a succeeded intent. IdempotencyKey makes a retry (after a
// timeout or a lost answer) the same refund instead of a second one.
type RefundRequest struct {
	IdempotencyKey string
	IntentID       string
	Amount         money.Money
	// Reason is the seller's words, kept with the refund at the gateway.
	Reason string
}

// Refund is a gateway's answer to a refund: StatusSucceeded (or StatusProcessing: accepted, the money
// is on its way), or StatusFailed with a Message a seller can read.
type Refund struct {
	ID      string
	Status  Status
	Message string
}

// Gateway takes payments.
type Gateway interface {
	// Name is the gateway's name as payments rows record it ("test", "stripe").
	Name() string
	// TestMode is true when no money moves; pages say so.
	TestMode() bool
	CreateIntent(ctx context.Context, r IntentRequest) (Intent, error)
	// Confirm confirms an intent where the server can (the test gateway), or reads its state where
	// the buyer's browser confirms it (Stripe).
	Confirm(ctx context.Context, intentID string) (Intent, error)
	// ParseEvent verifies a webhook's signature and reads its event.
	ParseEvent(payload []byte, signature string) (Event, error)
	// Refund gives money back. A gateway's definite no is a Refund with StatusFailed; an error means
	// the answer is unknown (the network, the gateway down), so the same request may be sent again.
	Refund(ctx context.Context, r RefundRequest) (Refund, error)
}

// Errors of gateways.
var (
	// ErrProduction: the test gateway was asked for in production.
	ErrProduction = errors.New("the test gateway is refused in production")
	// ErrUnknownIntent: the intent id is not one this gateway issued.
	ErrUnknownIntent = errors.New("unknown payment intent")
	// ErrNoWebhooks: the gateway sends no webhooks.
	ErrNoWebhooks = errors.New("this gateway sends no webhooks")
	// ErrNoGateway: no gateway is configured, so nothing can be paid.
	ErrNoGateway = errors.New("no payment gateway is configured")
	// ErrBadSignature: a webhook's signature does not verify; it is not from the gateway.
	ErrBadSignature = errors.New("webhook signature does not verify")
)

// None is the gateway of a production deployment without a real one: it takes no payment.
type None struct{}

// Name implements Gateway.
func (None) Name() string { return "none" }

// TestMode implements Gateway.
func (None) TestMode() bool { return false }

// CreateIntent implements Gateway: always ErrNoGateway.
func (None) CreateIntent(context.Context, IntentRequest) (Intent, error) {
	return Intent{}, ErrNoGateway
}

// Confirm implements Gateway: always ErrNoGateway.
func (None) Confirm(context.Context, string) (Intent, error) { return Intent{}, ErrNoGateway }

// ParseEvent implements Gateway: always ErrNoGateway.
func (None) ParseEvent([]byte, string) (Event, error) { return Event{}, ErrNoGateway }

// Refund implements Gateway: always ErrNoGateway.
func (None) Refund(context.Context, RefundRequest) (Refund, error) { return Refund{}, ErrNoGateway }

// Test is the gateway of development and test stacks: every intent succeeds when confirmed, except
// for amounts ending in 51 cents, which fail as a declined card does (so the refusal path can be
// tried). Its intent ids carry the amount, so any number of storefront processes agree on them.
type Test struct{}

// NewTest answers the test gateway, or ErrProduction when env is production.
func NewTest(env string) (*Test, error) {
	if env == "production" {
		return nil, ErrProduction
	}
	return &Test{}, nil
}

// Name implements Gateway.
func (*Test) Name() string { return "test" }

// TestMode implements Gateway.
func (*Test) TestMode() bool { return true }

// CreateIntent implements Gateway: the same key and amount give the same intent id.
func (*Test) CreateIntent(_ context.Context, r IntentRequest) (Intent, error) {
	if r.IdempotencyKey == "" {
		return Intent{}, errors.New("test gateway: an idempotency key is required")
	}
	if _, err := money.New(r.Amount.Amount, r.Amount.Currency); err != nil {
		return Intent{}, fmt.Errorf("test gateway: %w", err)
	}
	sum := sha256.Sum256([]byte(r.IdempotencyKey))
	id := fmt.Sprintf("test_pi_%s_%d_%s", hex.EncodeToString(sum[:12]), r.Amount.Amount, r.Amount.Currency)
	return Intent{ID: id, Amount: r.Amount, Status: StatusRequiresConfirmation}, nil
}

// Confirm implements Gateway.
func (g *Test) Confirm(_ context.Context, intentID string) (Intent, error) {
	in, err := g.intent(intentID)
	if err != nil {
		return Intent{}, err
	}
	if in.Amount.Amount%100 == 51 {
		in.Status, in.Message = StatusFailed, "The card was declined (test gateway: amounts ending in .51 fail)."
	}
	return in, nil
}

// Refund implements Gateway: the same key gives the same refund id; refunds of amounts ending in 51
// cents are refused, as a gateway refuses one.
func (g *Test) Refund(_ context.Context, r RefundRequest) (Refund, error) {
	if r.IdempotencyKey == "" {
		return Refund{}, errors.New("test gateway: an idempotency key is required")
	}
	in, err := g.intent(r.IntentID)
	if err != nil {
		return Refund{}, err
	}
	if r.Amount.Currency != in.Amount.Currency || r.Amount.Amount <= 0 || r.Amount.Amount > in.Amount.Amount {
		return Refund{Status: StatusFailed, Message: fmt.Sprintf("The refund of %s does not fit the payment of %s.", r.Amount, in.Amount)}, nil
	}
	sum := sha256.Sum256([]byte(r.IdempotencyKey))
	out := Refund{ID: "test_re_" + hex.EncodeToString(sum[:12]), Status: StatusSucceeded}
	if r.Amount.Amount%100 == 51 {
		out.Status, out.Message = StatusFailed, "The refund was refused (test gateway: amounts ending in .51 fail)."
	}
	return out, nil
}

// intent reads a test intent's id back into its amount; it is StatusSucceeded.
func (*Test) intent(intentID string) (Intent, error) {
	parts := strings.Split(intentID, "_")
	if len(parts) != 5 || parts[0] != "test" || parts[1] != "pi" {
		return Intent{}, ErrUnknownIntent
	}
	amount, err := strconv.ParseInt(parts[3], 10, 64)
	if err != nil {
		return Intent{}, ErrUnknownIntent
	}
	m, err := money.New(amount, money.Currency(parts[4]))
	if err != nil {
		return Intent{}, ErrUnknownIntent
	}
	return Intent{ID: intentID, Amount: m, Status: StatusSucceeded}, nil
}

// ParseEvent implements Gateway: the test gateway confirms synchronously and sends no webhooks.
func (*Test) ParseEvent([]byte, string) (Event, error) { return Event{}, ErrNoWebhooks }
