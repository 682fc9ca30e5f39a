package promotions

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/pricing"
)

// Hold is how long a use reserved by a checkout that was not paid keeps counting against the
// limits: a buyer who left the payment page gives the code back after it.
const Hold = time.Hour

// Columns reads a promotion with its stores and campaigns from discount_codes d.
const Columns = `d.id, d.seller_id, d.code, d.kind, d.percent, d.starts_at, d.ends_at, d.usage_limit, d.per_buyer_limit,
	d.min_order, d.min_order_currency, d.applies_to, d.disabled_at IS NOT NULL AS disabled,
	ARRAY(SELECT store_id FROM discount_code_stores WHERE discount_code_id = d.id ORDER BY store_id) AS store_ids,
	ARRAY(SELECT campaign_id FROM discount_code_campaigns WHERE discount_code_id = d.id ORDER BY campaign_id) AS campaign_ids`

// Row is a promotion as Columns reads it.
type Row struct {
	ID            int64         `db:"id"`
	SellerID      int64         `db:"seller_id"`
	Code          string        `db:"code"`
	Kind          string        `db:"kind"`
	Percent       int           `db:"percent"`
	StartsAt      sql.NullTime  `db:"starts_at"`
	EndsAt        sql.NullTime  `db:"ends_at"`
	UsageLimit    sql.NullInt32 `db:"usage_limit"`
	PerBuyerLimit sql.NullInt32 `db:"per_buyer_limit"`
	MinOrder      int64         `db:"min_order"`
	MinCurrency   string        `db:"min_order_currency"`
	AppliesTo     string        `db:"applies_to"`
	Disabled      bool          `db:"disabled"`
	StoreIDs      pq.Int64Array `db:"store_ids"`
	CampaignIDs   pq.Int64Array `db:"campaign_ids"`
}

// Promotion converts the row.
func (r Row) Promotion() Promotion {
	p := Promotion{ID: r.ID, SellerID: r.SellerID, Code: r.Code, Kind: r.Kind, Percent: r.Percent,
		MinOrder: money.Money{Amount: r.MinOrder, Currency: money.Currency(r.MinCurrency)}, AppliesTo: r.AppliesTo,
		Disabled: r.Disabled, StoreIDs: []int64(r.StoreIDs), CampaignIDs: []int64(r.CampaignIDs)}
	if p.StoreIDs == nil {
		p.StoreIDs = []int64{}
	}
	if p.CampaignIDs == nil {
		p.CampaignIDs = []int64{}
	}
	if r.StartsAt.Valid {
		p.StartsAt = &r.StartsAt.Time
	}
	if r.EndsAt.Valid {
		p.EndsAt = &r.EndsAt.Time
	}
	if r.UsageLimit.Valid {
		n := int(r.UsageLimit.Int32)
		p.UsageLimit = &n
	}
	if r.PerBuyerLimit.Valid {
		n := int(r.PerBuyerLimit.Int32)
		p.PerBuyerLimit = &n
	}
	return p
}

// Find reads the code (any letter case) of the seller who owns storeID; lock takes the code's row
// lock (inside a transaction) so uses are counted and added one buyer at a time. A code the seller
// does not have answers Unknown().
func Find(ctx context.Context, db sqlx.QueryerContext, storeID int64, code string, lock bool) (Promotion, error) {
	q := `SELECT ` + Columns + ` FROM discount_codes d JOIN stores s ON s.owner_id = d.seller_id
WHERE s.id = $1 AND lower(d.code) = lower($2)`
	if lock {
		q += ` FOR UPDATE OF d`
	}
	var r Row
	if err := sqlx.GetContext(ctx, db, &r, q, storeID, code); errors.Is(err, sql.ErrNoRows) {
		return Promotion{}, Unknown()
	} else if err != nil {
		return Promotion{}, fmt.Errorf("find discount code: %w", err)
	}
	return r.Promotion(), nil
}

// CountUses counts the uses of code id that count against its limits, leaving out checkoutID's own:
// paid ones and reservations younger than Hold.
func CountUses(ctx context.Context, db sqlx.QueryerContext, id int64, email, checkoutID string) (Uses, error) {
	const q = `SELECT count(*) AS total, count(*) FILTER (WHERE lower(email) = lower($2)) AS buyer FROM discount_code_uses
WHERE discount_code_id = $1 AND checkout_id::text <> $3 AND (order_id IS NOT NULL OR created_at > now() - $4 * interval '1 second')`
	var u Uses
	if err := sqlx.GetContext(ctx, db, &u, q, id, email, checkoutID, Hold.Seconds()); err != nil {
		return Uses{}, fmt.Errorf("count discount code uses: %w", err)
	}
	return u, nil
}

// Check applies code to cart as the store's checkout sees it now, counting the uses of other
// checkouts than checkoutID. It answers the code as the seller spelt it with the discount, or a
// *RefusedError.
func Check(ctx context.Context, db sqlx.QueryerContext, checkoutID, code string, cart Cart) (string, pricing.Discount, error) {
	p, err := Find(ctx, db, cart.StoreID, code, false)
	if err != nil {
		return "", pricing.Discount{}, err
	}
	used, err := CountUses(ctx, db, p.ID, cart.Email, checkoutID)
	if err != nil {
		return "", pricing.Discount{}, err
	}
	d, err := Apply(cart, p, time.Now(), used)
	return p.Code, d, err
}

// Reserve records checkoutID's use of code before its buyer is charged: under the code's row lock it
// counts the other uses, applies the code again (a *RefusedError when it no longer applies: used up
// meanwhile, expired, disabled) and writes or moves the checkout's use. An empty code removes the
// checkout's reservation. Call it inside the transaction that ends before the charge.
func Reserve(ctx context.Context, tx *sqlx.Tx, checkoutID, code string, cart Cart) error {
	if code == "" {
		return Release(ctx, tx, checkoutID)
	}
	p, err := Find(ctx, tx, cart.StoreID, code, true)
	if err != nil {
		return err
	}
	used, err := CountUses(ctx, tx, p.ID, cart.Email, checkoutID)
	if err != nil {
		return err
	}
	if _, err := Apply(cart, p, time.Now(), used); err != nil {
		return err
	}
	const q = `INSERT INTO discount_code_uses (discount_code_id, checkout_id, email) VALUES ($1, $2, $3)
ON CONFLICT (checkout_id) DO UPDATE SET discount_code_id = excluded.discount_code_id, email = excluded.email, created_at = now()
WHERE discount_code_uses.order_id IS NULL`
	if _, err := tx.ExecContext(ctx, q, p.ID, checkoutID, cart.Email); err != nil {
		return fmt.Errorf("reserve discount code: %w", err)
	}
	return nil
}

// Release removes checkoutID's reserved use (not a paid one): its payment failed or it has no code.
func Release(ctx context.Context, db sqlx.ExecerContext, checkoutID string) error {
	if _, err := db.ExecContext(ctx, `DELETE FROM discount_code_uses WHERE checkout_id = $1 AND order_id IS NULL`, checkoutID); err != nil {
		return fmt.Errorf("release discount code: %w", err)
	}
	return nil
}

// Redeem ties checkoutID's use of code to the order its payment made, in the transaction that makes
// it. A use released after a failed payment is written again: the buyer paid after all.
func Redeem(ctx context.Context, tx *sqlx.Tx, storeID int64, checkoutID, code, email string, orderID int64) error {
	if code == "" {
		return nil
	}
	const q = `INSERT INTO discount_code_uses (discount_code_id, checkout_id, email, order_id)
SELECT d.id, $3, $4, $5 FROM discount_codes d JOIN stores s ON s.owner_id = d.seller_id
WHERE s.id = $1 AND lower(d.code) = lower($2)
ON CONFLICT (checkout_id) DO UPDATE SET order_id = excluded.order_id, discount_code_id = excluded.discount_code_id`
	if _, err := tx.ExecContext(ctx, q, storeID, code, checkoutID, email, orderID); err != nil {
		return fmt.Errorf("redeem discount code: %w", err)
	}
	return nil
}

// Offered lists the enabled codes that may apply in storeID (for all the seller's stores, for this
// store, or for campaigns it sells) whose code contains q, at most limit, by code.
func Offered(ctx context.Context, db sqlx.QueryerContext, storeID int64, q string, limit int) ([]Promotion, error) {
	query := `SELECT ` + Columns + ` FROM discount_codes d JOIN stores s ON s.owner_id = d.seller_id
WHERE s.id = $1 AND d.disabled_at IS NULL AND ($2 = '' OR d.code ILIKE '%' || $2 || '%')
	AND (d.applies_to = 'all'
		OR (d.applies_to = 'stores' AND EXISTS (SELECT 1 FROM discount_code_stores x WHERE x.discount_code_id = d.id AND x.store_id = s.id))
		OR (d.applies_to = 'campaigns' AND EXISTS (SELECT 1 FROM discount_code_campaigns x JOIN store_products sp
			ON sp.campaign_id = x.campaign_id AND sp.store_id = s.id WHERE x.discount_code_id = d.id)))
ORDER BY d.code LIMIT $3`
	var rows []Row
	if err := sqlx.SelectContext(ctx, db, &rows, query, storeID, q, limit); err != nil {
		return nil, fmt.Errorf("discount codes of the store: %w", err)
	}
	out := make([]Promotion, len(rows))
	for i, r := range rows {
		out[i] = r.Promotion()
	}
	return out, nil
}
