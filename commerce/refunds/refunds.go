package refunds

import (
	"context"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/gateways"
	"github.com/pressroom/pressroom/commerce/orders"
	"github.com/pressroom/pressroom/commerce/payments"
)

// Errors of a refund the gateway did not take.
var (
	// ErrUnavailable: the gateway did not answer (or is not configured here). The refund stays
	// reserved; the same request again sends it with the same key.
	ErrUnavailable = errors.New("the payment gateway did not answer")
	// ErrFailed: the gateway refused the refund; its amount is free again.
	ErrFailed = errors.New("the payment gateway refused the refund")
)

// Gateways finds the gateway a payment names, the platform's or a seller's own
// (commerce/gateways.Resolver).
type Gateways interface {
	ByName(ctx context.Context, name string) (payments.Gateway, error)
}

// Service sends refunds.
type Service struct {
	db       *sqlx.DB
	gateways Gateways
}

// New builds the service over the gateways payments rows name.
func New(db *sqlx.DB, gateways Gateways) (*Service, error) {
	if db == nil || gateways == nil {
		return nil, errors.New("refunds: a database and the gateways are required")
	}
	return &Service{db: db, gateways: gateways}, nil
}

// Refund gives r.Amount of order id back: reserve, ask the gateway, settle. The same order and key
// answer the first refund (sent again to the gateway while it is pending, never a second one). It
// answers the refund as settled, or an error wrapping orders.ErrRefused, orders.ErrOverRefund,
// orders.ErrKeyReused, ErrUnavailable or ErrFailed.
func (s *Service) Refund(ctx context.Context, id int64, r orders.RefundRequest) (orders.Refund, error) {
	rf, err := s.inTx(ctx, func(tx *sqlx.Tx) (orders.Refund, error) { return orders.ReserveRefund(ctx, tx, id, r) })
	if err != nil {
		return orders.Refund{}, err
	}
	switch rf.Status {
	case orders.RefundSucceeded:
		return rf, nil
	case orders.RefundFailed:
		return rf, fmt.Errorf("%w: %s", ErrFailed, rf.Message)
	}
	gw, err := s.gateways.ByName(ctx, rf.Gateway)
	if errors.Is(err, gateways.ErrNotFound) {
		return rf, fmt.Errorf("%w: the %s gateway is not configured", ErrUnavailable, rf.Gateway)
	} else if err != nil {
		return rf, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	ans, err := gw.Refund(ctx, payments.RefundRequest{IdempotencyKey: rf.IdempotencyKey, IntentID: rf.IntentID,
		Amount: rf.Amount(), Reason: rf.Reason})
	if err != nil {
		return rf, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	took := ans.Status == payments.StatusSucceeded || ans.Status == payments.StatusProcessing
	rf, err = s.inTx(ctx, func(tx *sqlx.Tx) (orders.Refund, error) {
		return orders.SettleRefund(ctx, tx, rf.ID, took, ans.ID, ans.Message, r.Actor)
	})
	if err != nil {
		return orders.Refund{}, err
	}
	if rf.Status == orders.RefundFailed {
		return rf, fmt.Errorf("%w: %s", ErrFailed, rf.Message)
	}
	return rf, nil
}

// inTx runs fn in a transaction of its own, committed when fn succeeds.
func (s *Service) inTx(ctx context.Context, fn func(tx *sqlx.Tx) (orders.Refund, error)) (orders.Refund, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return orders.Refund{}, err
	}
	defer tx.Rollback()
	rf, err := fn(tx)
	if err != nil {
		return orders.Refund{}, err
	}
	return rf, tx.Commit()
}
