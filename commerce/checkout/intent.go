package checkout

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

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
	known, err := s.knownIntent(ctx, c)
	if err != nil {
		return payments.Intent{}, err
	}
	if known == "" {
		return s.createIntent(ctx, c)
	}
	in, err := s.gw.Confirm(ctx, known)
	if err != nil {
		return payments.Intent{}, fmt.Errorf("read payment intent: %w", err)
	}
	return in, nil
}

// knownIntent answers the id of the intent recorded for the checkout at its current total, or ""
// when there is none yet.
func (s *Service) knownIntent(ctx context.Context, c Checkout) (string, error) {
	const q = `SELECT intent_id FROM payments WHERE gateway = $1 AND idempotency_key = $2 AND checkout_id = $3`
	var id string
	err := s.db.GetContext(ctx, &id, q, s.gw.Name(), idempotencyKey(c), c.ID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id, err
}

// createIntent asks the gateway for an intent of the checkout's total and records it as the
// checkout's pending payment. The idempotency key makes concurrent calls one intent at the gateway.
// The checkout's discount code is reserved first, so a code used up meanwhile stops the payment
// before the buyer is charged (an *InvalidError on discount_code).
func (s *Service) createIntent(ctx context.Context, c Checkout) (payments.Intent, error) {
	if err := s.reserveCode(ctx, c); err != nil {
		return payments.Intent{}, err
	}
	key := idempotencyKey(c)
	in, err := s.gw.CreateIntent(ctx, payments.IntentRequest{IdempotencyKey: key, Amount: c.Totals.Total, Email: c.Email,
		Metadata: map[string]string{"checkout_id": c.ID}})
	if err != nil {
		return payments.Intent{}, fmt.Errorf("create payment intent: %w", err)
	}
	if err := recordPending(ctx, s.db, s.gw.Name(), c.ID, key, in); err != nil {
		return payments.Intent{}, err
	}
	return in, nil
}

// recordPending records an intent of a checkout as its pending payment, once: the same intent or
// idempotency key again changes nothing.
func recordPending(ctx context.Context, db sqlx.ExecerContext, gateway, checkoutID, key string, in payments.Intent) error {
	const q = `INSERT INTO payments (checkout_id, gateway, intent_id, idempotency_key, amount, currency, status)
VALUES ($1, $2, $3, $4, $5, $6, 'pending') ON CONFLICT DO NOTHING`
	if _, err := db.ExecContext(ctx, q, checkoutID, gateway, in.ID, key, in.Amount.Amount, string(in.Amount.Currency)); err != nil {
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
