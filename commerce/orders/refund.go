package orders

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/ledger"
	"github.com/pressroom/pressroom/commerce/money"
)

// RefundStatus is a refund row's state: pending from the reservation until the gateway answers.
type RefundStatus string

// Refund states.
const (
	RefundPending   RefundStatus = "pending"
	RefundSucceeded RefundStatus = "succeeded"
	RefundFailed    RefundStatus = "failed"
)

// RefundRequest asks for money back from an order. Key names the request (the client's
// Idempotency-Key, or one the caller makes): the same order and key are the same refund.
type RefundRequest struct {
	Amount money.Money
	Reason string
	Key    string
	Actor  string
}

// Refund is a refund row with what the gateway needs to send it.
type Refund struct {
	ID             int64        `db:"id"`
	PaymentID      int64        `db:"payment_id"`
	OrderID        int64        `db:"order_id"`
	Gateway        string       `db:"gateway"`
	IntentID       string       `db:"intent_id"`
	Cents          int64        `db:"amount"`
	Currency       string       `db:"currency"`
	Reason         string       `db:"reason"`
	IdempotencyKey string       `db:"idempotency_key"`
	Status         RefundStatus `db:"status"`
	Message        string       `db:"message"`
}

// Amount is the refund's money.
func (r Refund) Amount() money.Money {
	return money.Money{Amount: r.Cents, Currency: money.Currency(r.Currency)}
}

// Refund errors.
var (
	// ErrOverRefund: the amount is more than what is left to refund; its message says how much is.
	ErrOverRefund = errors.New("more than is left to refund")
	// ErrKeyReused: the key was used for another refund of the order (another amount).
	ErrKeyReused = errors.New("this request key was used for another refund")
	// ErrNoRefund: no refund row has that id.
	ErrNoRefund = errors.New("refund not found")
)

// RefundKey is the gateway's idempotency key of a refund: the order and the client's key, so a
// retry of one request is one refund and two orders never share one.
func RefundKey(orderID int64, clientKey string) string {
	return fmt.Sprintf("refund-%d-%s", orderID, clientKey)
}

const (
	// qRefund reads Refund rows; qRefundByKey and qRefundByID pick one.
	qRefund = `
SELECT r.id, r.payment_id, p.order_id, p.gateway, p.intent_id, r.amount, p.currency, r.reason, r.idempotency_key,
	r.status, r.message
FROM refunds r JOIN payments p ON p.id = r.payment_id`
	qRefundByKey = qRefund + ` WHERE r.idempotency_key = $1`
	qRefundByID  = qRefund + ` WHERE r.id = $1`
	// qRefundable is each succeeded payment of an order with what is left of it: refunds that
	// succeeded or are still pending count, so two refunds at once cannot both take the last of it.
	qRefundable = `
SELECT p.id, p.amount - coalesce((SELECT sum(r.amount) FROM refunds r
	WHERE r.payment_id = p.id AND r.status IN ('pending', 'succeeded')), 0) AS remaining
FROM payments p WHERE p.order_id = $1 AND p.status = 'succeeded' ORDER BY remaining DESC, p.id`
	qReserve = `
INSERT INTO refunds (payment_id, amount, status, reason, idempotency_key, actor)
VALUES ($1, $2, 'pending', $3, $4, $5) RETURNING id`
	qSettle = `
UPDATE refunds SET status = $2, gateway_refund_id = $3, message = $4, updated_at = now()
WHERE id = $1 AND status = 'pending'`
)

// ReserveRefund records a pending refund of order id in tx, the order's row locked, before any
// gateway is asked: the amount is taken off what is left to refund at once, so refunds sent together
// never pass what was paid. A key seen before answers its refund as it is (whatever its state), the
// same request again. The order's status must allow "refund" (wraps ErrRefused); an amount above
// what is left wraps ErrOverRefund with the remainder.
func ReserveRefund(ctx context.Context, tx *sqlx.Tx, id int64, r RefundRequest) (Refund, error) {
	s, err := Load(ctx, tx, id)
	if err != nil {
		return Refund{}, err
	}
	key := RefundKey(id, r.Key)
	var prior Refund
	if err := tx.GetContext(ctx, &prior, qRefundByKey, key); err == nil {
		if prior.OrderID != id || prior.Amount() != r.Amount {
			return Refund{}, ErrKeyReused
		}
		return prior, nil
	} else if !errors.Is(err, sql.ErrNoRows) {
		return Refund{}, fmt.Errorf("refund by key: %w", err)
	}
	if _, err := Next(s, ActionRefund); err != nil {
		return Refund{}, err
	}
	var cur string
	if err := tx.GetContext(ctx, &cur, `SELECT currency FROM orders WHERE id = $1`, id); err != nil {
		return Refund{}, err
	}
	if string(r.Amount.Currency) != cur || r.Amount.Amount <= 0 {
		return Refund{}, fmt.Errorf("%w: a refund is a positive amount of %s", ErrOverRefund, cur)
	}
	var left []struct {
		PaymentID int64 `db:"id"`
		Left      int64 `db:"remaining"`
	}
	if err := tx.SelectContext(ctx, &left, qRefundable, id); err != nil {
		return Refund{}, fmt.Errorf("refundable: %w", err)
	}
	if len(left) == 0 || left[0].Left < r.Amount.Amount {
		var most int64
		if len(left) > 0 {
			most = max(left[0].Left, 0)
		}
		return Refund{}, fmt.Errorf("%w: at most %s can be refunded", ErrOverRefund, money.Money{Amount: most, Currency: r.Amount.Currency})
	}
	var rid int64
	if err := tx.GetContext(ctx, &rid, qReserve, left[0].PaymentID, r.Amount.Amount, r.Reason, key, r.Actor); err != nil {
		return Refund{}, fmt.Errorf("reserve refund: %w", err)
	}
	var out Refund
	if err := tx.GetContext(ctx, &out, qRefundByID, rid); err != nil {
		return Refund{}, err
	}
	return out, nil
}

// SettleRefund records the gateway's answer to pending refund refundID in tx, the order's row
// locked. A refund that succeeded updates the derived payment status, writes the order's "refund"
// event, and moves an order whose money is all back to refunded. A failed one frees its amount. A
// refund settled before is left as it is. Whatever must happen when money goes back (the ledger)
// belongs here, in tx, where ok is true.
func SettleRefund(ctx context.Context, tx *sqlx.Tx, refundID int64, ok bool, gatewayRefundID, message, actor string) (Refund, error) {
	var r Refund
	if err := tx.GetContext(ctx, &r, qRefundByID, refundID); errors.Is(err, sql.ErrNoRows) {
		return Refund{}, ErrNoRefund
	} else if err != nil {
		return Refund{}, err
	}
	before, err := Load(ctx, tx, r.OrderID)
	if err != nil {
		return Refund{}, err
	}
	status := RefundFailed
	if ok {
		status = RefundSucceeded
	}
	res, err := tx.ExecContext(ctx, qSettle, refundID, string(status), gatewayRefundID, message)
	if err != nil {
		return Refund{}, fmt.Errorf("settle refund: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 || !ok {
		return r, tx.GetContext(ctx, &r, qRefundByID, refundID)
	}
	if _, err := Refresh(ctx, tx, r.OrderID); err != nil {
		return Refund{}, err
	}
	// The seller gives back what the refund takes from the order's earnings (docs/money.md).
	if _, err := ledger.BookRefund(ctx, tx, refundID); err != nil {
		return Refund{}, fmt.Errorf("book refund: %w", err)
	}
	note := r.Amount().String()
	if r.Reason != "" {
		note += ": " + r.Reason
	}
	// The money is back whatever the order did meanwhile: the event is written, not judged (the
	// table judged the refund when it was reserved).
	if _, err := tx.ExecContext(ctx, qInsertEvent, r.OrderID, string(ActionRefund), string(before.Status), string(before.Status), actor, note); err != nil {
		return Refund{}, fmt.Errorf("order event: %w", err)
	}
	if now, err := Load(ctx, tx, r.OrderID); err != nil {
		return Refund{}, err
	} else if _, err := Next(now, ActionRefunded); err == nil {
		if _, err := Apply(ctx, tx, r.OrderID, ActionRefunded, "system", "every payment is refunded"); err != nil {
			return Refund{}, err
		}
	}
	return r, tx.GetContext(ctx, &r, qRefundByID, refundID)
}
