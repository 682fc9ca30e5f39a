package recovery

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/checkout"
	"github.com/pressroom/pressroom/commerce/money"
)

// ErrNotFound: no such checkout in this store.
var ErrNotFound = errors.New("no such checkout")

// qAbandon marks open checkouts with an e-mail, untouched since $1 and without a payment that
// succeeded or was authorized, abandoned at $2. Rows another transaction holds (a payment being
// completed, another worker's pass) are skipped, so passes in several workers never collide.
const qAbandon = `
WITH due AS (
    SELECT k.id FROM checkouts k
    WHERE k.status = 'open' AND k.email <> '' AND k.updated_at <= $1
        AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.checkout_id = k.id AND p.status IN ('succeeded', 'authorized'))
    ORDER BY k.updated_at LIMIT $3
    FOR UPDATE OF k SKIP LOCKED
)
UPDATE checkouts k SET status = 'abandoned', abandoned_at = $2 FROM due WHERE k.id = due.id RETURNING k.id`

// MarkAbandoned marks up to limit checkouts left for at least after, as of now, abandoned and
// answers how many it marked. The time a buyer left a checkout is its updated_at, which stays as
// it was: the e-mails' delays count from it.
func MarkAbandoned(ctx context.Context, db sqlx.QueryerContext, now time.Time, after time.Duration, limit int) (int, error) {
	var ids []string
	if err := sqlx.SelectContext(ctx, db, &ids, qAbandon, now.Add(-after), now, limit); err != nil {
		return 0, fmt.Errorf("mark abandoned checkouts: %w", err)
	}
	return len(ids), nil
}

// Mail is a recovery e-mail claimed for sending: the step of the store's abandoned-checkout
// e-mails, the buyer, what the checkout held and the discount code the store offers.
type Mail struct {
	CheckoutID string `db:"checkout_id"`
	Step       int    `db:"step"`
	StoreID    int64  `db:"store_id"`
	StoreName  string `db:"store_name"`
	StoreSlug  string `db:"store_slug"`
	Email      string `db:"email"`
	Subject    string `db:"subject"`
	BodyHTML   string `db:"body_html"`
	Coupon     string `db:"coupon_code"`
	LinesJSON  []byte `db:"lines"`
	Total      int64  `db:"total"`
	Currency   string `db:"currency"`
}

// Lines are the checkout's lines as priced when it was saved.
func (m Mail) Lines() ([]checkout.Line, error) {
	var out []checkout.Line
	if err := json.Unmarshal(m.LinesJSON, &out); err != nil {
		return nil, fmt.Errorf("checkout %s lines: %w", m.CheckoutID, err)
	}
	return out, nil
}

// TotalMoney is the checkout's total.
func (m Mail) TotalMoney() money.Money {
	return money.Money{Amount: m.Total, Currency: money.Currency(m.Currency)}
}

// qClaim claims, per abandoned checkout, the lowest enabled step of its store that is due as of $1
// (the buyer left delay_minutes ago or more) and was never claimed, among the checkouts left in the
// last 8 days (the longest delay is 7 days: a store that turns its e-mails on does not mail buyers
// who left months ago, and the pass reads a bounded set): the row inserted is the step's
// idempotency, so of two passes at once one claims it and the other finds it taken. A checkout
// being paid right now is locked by the payment and skipped; once paid it is no longer abandoned.
const qClaim = `
WITH due AS (
    SELECT DISTINCT ON (k.id) k.id, s.step, k.updated_at FROM checkouts k
    JOIN email_abandoned_steps s ON s.store_id = k.store_id AND s.enabled
    WHERE k.status = 'abandoned' AND k.updated_at + make_interval(mins => s.delay_minutes) <= $1
        AND k.updated_at >= $1 - interval '8 days'
        AND NOT EXISTS (SELECT 1 FROM checkout_recovery_mails m WHERE m.checkout_id = k.id AND m.step = s.step)
    ORDER BY k.id, s.step
), held AS (
    SELECT k.id FROM checkouts k JOIN due ON due.id = k.id WHERE k.status = 'abandoned'
    ORDER BY due.updated_at LIMIT $2
    FOR SHARE OF k SKIP LOCKED
), claimed AS (
    INSERT INTO checkout_recovery_mails (checkout_id, step, created_at)
    SELECT due.id, due.step, $1 FROM due JOIN held ON held.id = due.id
    ON CONFLICT (checkout_id, step) DO NOTHING
    RETURNING checkout_id, step
)
SELECT c.checkout_id, c.step, k.store_id, st.name AS store_name, st.slug AS store_slug, k.email, s.subject, s.body_html,
    coalesce(a.coupon_code, '') AS coupon_code, k.lines, k.total, k.currency
FROM claimed c
JOIN checkouts k ON k.id = c.checkout_id
JOIN stores st ON st.id = k.store_id
JOIN email_abandoned_steps s ON s.store_id = k.store_id AND s.step = c.step
LEFT JOIN email_abandoned_settings a ON a.store_id = k.store_id`

// ClaimDue claims up to limit recovery e-mails due as of now. A claimed e-mail is the caller's to
// send and Settle; it is never claimed again.
func ClaimDue(ctx context.Context, db sqlx.QueryerContext, now time.Time, limit int) ([]Mail, error) {
	var out []Mail
	if err := sqlx.SelectContext(ctx, db, &out, qClaim, now, limit); err != nil {
		return nil, fmt.Errorf("claim recovery e-mails: %w", err)
	}
	return out, nil
}

// Settle records how sending a claimed e-mail went: sent at now, or failed with sendErr.
func Settle(ctx context.Context, db sqlx.ExecerContext, m Mail, now time.Time, sendErr error) error {
	status, msg := "sent", ""
	if sendErr != nil {
		status, msg = "failed", sendErr.Error()
	}
	const q = `UPDATE checkout_recovery_mails SET status = $3, error = $4, sent_at = CASE WHEN $3 = 'sent' THEN $5::timestamptz END
WHERE checkout_id = $1 AND step = $2 AND status = 'sending'`
	if _, err := db.ExecContext(ctx, q, m.CheckoutID, m.Step, status, msg, now); err != nil {
		return fmt.Errorf("record recovery e-mail %s/%d: %w", m.CheckoutID, m.Step, err)
	}
	return nil
}

// Restored is what a recovery link leads to: the cart to put back in the buyer's cookie, or the
// order when the checkout was paid meanwhile.
type Restored struct {
	CartID  string
	OrderID int64
}

// Restore puts an abandoned checkout of the store back in front of its buyer: its cart (made again
// from the checkout's lines when it is gone or emptied) and the checkout open again, so paying it
// is the same checkout, which then counts as recovered. A paid checkout answers its order.
func Restore(ctx context.Context, db *sqlx.DB, storeID int64, checkoutID string) (Restored, error) {
	if _, err := uuid.Parse(checkoutID); err != nil {
		return Restored{}, ErrNotFound
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return Restored{}, err
	}
	defer tx.Rollback()
	var k struct {
		CartID  sql.NullString `db:"cart_id"`
		OrderID sql.NullInt64  `db:"order_id"`
	}
	err = tx.GetContext(ctx, &k, `SELECT cart_id, order_id FROM checkouts WHERE id = $1 AND store_id = $2 FOR UPDATE`, checkoutID, storeID)
	if errors.Is(err, sql.ErrNoRows) {
		return Restored{}, ErrNotFound
	} else if err != nil {
		return Restored{}, fmt.Errorf("load checkout: %w", err)
	}
	if k.OrderID.Valid {
		return Restored{OrderID: k.OrderID.Int64}, nil
	}
	cartID := k.CartID.String
	var exists bool
	if err := tx.GetContext(ctx, &exists, `SELECT EXISTS (SELECT 1 FROM carts WHERE id = $1 AND store_id = $2)`, k.CartID, storeID); err != nil {
		return Restored{}, err
	}
	if !exists {
		cartID = uuid.NewString()
		if _, err := tx.ExecContext(ctx, `INSERT INTO carts (id, store_id) VALUES ($1, $2)`, cartID, storeID); err != nil {
			return Restored{}, fmt.Errorf("create cart: %w", err)
		}
	}
	// An emptied cart gets the checkout's lines back (of products that still exist); a cart the buyer
	// changed since is left as the buyer left it.
	const qRefill = `
INSERT INTO cart_items (cart_id, product_id, color, size, quantity)
SELECT $1, l.product_id, l.color, l.size, l.quantity
FROM checkouts k, jsonb_to_recordset(k.lines) AS l(product_id bigint, color text, size text, quantity integer)
WHERE k.id = $2 AND NOT EXISTS (SELECT 1 FROM cart_items WHERE cart_id = $1)
    AND EXISTS (SELECT 1 FROM campaign_products p WHERE p.id = l.product_id)
ON CONFLICT DO NOTHING`
	if _, err := tx.ExecContext(ctx, qRefill, cartID, checkoutID); err != nil {
		return Restored{}, fmt.Errorf("refill cart: %w", err)
	}
	// The first opening of a link is kept: the seller's list shows the e-mails were opened.
	const qReopen = `UPDATE checkouts SET cart_id = $2, status = 'open', updated_at = now(),
	recovery_opened_at = coalesce(recovery_opened_at, now()) WHERE id = $1`
	if _, err := tx.ExecContext(ctx, qReopen, checkoutID, cartID); err != nil {
		return Restored{}, fmt.Errorf("reopen checkout: %w", err)
	}
	return Restored{CartID: cartID}, tx.Commit()
}
