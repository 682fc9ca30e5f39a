package checkout

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/gateways"
	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/commerce/promotions"
)

// Prepare answers the intent the buyer's browser confirms (Stripe's Payment Element): the intent
// recorded for this checkout at its current total when there is one, otherwise a new one, recorded as
// a pending payment of the checkout. Showing the page again, in any number of tabs or processes,
// answers the same intent. A checkout that has its order answers ErrNotFound.
func (s *Service) Prepare(ctx context.Context, storeID int64, id string) (payments.Intent, error) {
	c, err := s.Get(ctx, storeID, id)
	if err != nil {
		return payments.Intent{}, err
	}
	if c.OrderID != 0 || c.Status != "open" {
		return payments.Intent{}, ErrNotFound
	}
	if err := inStock(ctx, s.db, c.Lines); err != nil {
		return payments.Intent{}, err
	}
	gw, err := s.GatewayFor(ctx, storeID)
	if err != nil {
		return payments.Intent{}, err
	}
	known, err := s.knownIntent(ctx, gw, c)
	if err != nil {
		return payments.Intent{}, err
	}
	if known == "" {
		return s.createIntent(ctx, gw, c)
	}
	in, err := gw.Confirm(ctx, known)
	if err != nil {
		return payments.Intent{}, fmt.Errorf("read payment intent: %w", err)
	}
	return in, nil
}

// knownIntent answers the id of the intent recorded for the checkout at its current total through
// gw, or "" when there is none yet (a store that changed gateways starts a new one with the new one).
func (s *Service) knownIntent(ctx context.Context, gw payments.Gateway, c Checkout) (string, error) {
	const q = `SELECT intent_id FROM payments WHERE gateway = $1 AND idempotency_key = $2 AND checkout_id = $3`
	var id string
	err := s.db.GetContext(ctx, &id, q, gw.Name(), idempotencyKey(c), c.ID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id, err
}

// createIntent asks the gateway for an intent of the checkout's total and records it as the
// checkout's pending payment. The idempotency key makes concurrent calls one intent at the gateway.
// The checkout's discount code is reserved first, so a code used up meanwhile stops the payment
// before the buyer is charged (an *InvalidError on discount_code).
func (s *Service) createIntent(ctx context.Context, gw payments.Gateway, c Checkout) (payments.Intent, error) {
	if err := s.reserveCode(ctx, c); err != nil {
		return payments.Intent{}, err
	}
	key := idempotencyKey(c)
	in, err := gw.CreateIntent(ctx, payments.IntentRequest{IdempotencyKey: key, Amount: c.Totals.Total, Email: c.Email,
		Metadata: map[string]string{"checkout_id": c.ID, "store_id": strconv.FormatInt(c.StoreID, 10)}})
	if err != nil {
		return payments.Intent{}, fmt.Errorf("create payment intent: %w", err)
	}
	if err := recordPending(ctx, s.db, gw, c.ID, key, in); err != nil {
		return payments.Intent{}, err
	}
	return in, nil
}

// recordPending records an intent of a checkout as its pending payment, once: the same intent or
// idempotency key again changes nothing. A payment through a seller's own gateway names it: the
// money goes to the seller's account (docs/money.md).
func recordPending(ctx context.Context, db sqlx.ExecerContext, gw payments.Gateway, checkoutID, key string, in payments.Intent) error {
	var sellerGateway *int64
	if g, ok := gw.(*gateways.Gateway); ok {
		sellerGateway = &g.ID
	}
	const q = `INSERT INTO payments (checkout_id, gateway, intent_id, idempotency_key, amount, currency, status, payment_gateway_id)
VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7) ON CONFLICT DO NOTHING`
	if _, err := db.ExecContext(ctx, q, checkoutID, gw.Name(), in.ID, key, in.Amount.Amount, string(in.Amount.Currency), sellerGateway); err != nil {
		return fmt.Errorf("record payment: %w", err)
	}
	return nil
}

// reserveCode reserves the checkout's discount code (or removes its reservation when it has none).
func (s *Service) reserveCode(ctx context.Context, c Checkout) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	err = promotions.Reserve(ctx, tx, c.ID, c.DiscountCode, promoCart(c.StoreID, c.Email, c.Totals.Subtotal, c.Lines))
	var refused *promotions.RefusedError
	if errors.As(err, &refused) {
		return invalid("discount_code", refused.Message)
	} else if err != nil {
		return err
	}
	return tx.Commit()
}
