package promotions

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/customers"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/promotions"
	"github.com/pressroom/pressroom/platform/database"
)

// Errors of the store.
var (
	// ErrNotFound: no such promotion in the account.
	ErrNotFound = errors.New("promotion not found")
	// ErrTaken: the seller has the code already (in any letter case).
	ErrTaken = errors.New("code taken")
	// ErrUsed: the code has uses and cannot be deleted.
	ErrUsed = errors.New("code used")
)

// Named is a store or a campaign a code applies to.
type Named struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// Sales are the placed orders that used a code in one currency: what they totalled and what the
// code took off.
type Sales struct {
	Revenue  money.Money `json:"revenue"`
	Discount money.Money `json:"discount"`
}

// Listed is a promotion with its state, uses and sales.
type Listed struct {
	promotions.Promotion
	Status    string    `json:"status"`
	Uses      int       `json:"uses"`
	Sales     []Sales   `json:"sales"`
	Stores    []Named   `json:"stores"`
	Campaigns []Named   `json:"campaigns"`
	CreatedAt time.Time `json:"created_at"`
}

type listedRow struct {
	promotions.Row
	Uses      int       `db:"uses"`
	Sales     []byte    `db:"sales"`
	Stores    []byte    `db:"stores"`
	Campaigns []byte    `db:"campaigns"`
	CreatedAt time.Time `db:"created_at"`
	Total     int       `db:"total"`
}

func (r listedRow) listed(now time.Time) (Listed, error) {
	out := Listed{Promotion: r.Promotion(), Uses: r.Uses, CreatedAt: r.CreatedAt}
	out.Status = promotions.Status(out.Promotion, now, r.Uses)
	var sales []struct {
		Currency string `json:"currency"`
		Revenue  int64  `json:"revenue"`
		Discount int64  `json:"discount"`
	}
	for _, f := range []struct {
		raw []byte
		dst any
	}{{r.Sales, &sales}, {r.Stores, &out.Stores}, {r.Campaigns, &out.Campaigns}} {
		if err := json.Unmarshal(f.raw, f.dst); err != nil {
			return Listed{}, fmt.Errorf("promotion %d: %w", r.ID, err)
		}
	}
	out.Sales = make([]Sales, len(sales))
	for i, s := range sales {
		c := money.Currency(s.Currency)
		out.Sales[i] = Sales{Revenue: money.Money{Amount: s.Revenue, Currency: c}, Discount: money.Money{Amount: s.Discount, Currency: c}}
	}
	return out, nil
}

// qListed reads the seller's ($1) promotions whose code contains $2 (or the one with id $3), with
// their paid uses and the placed orders' sales per currency.
var qListed = `SELECT ` + promotions.Columns + `, d.created_at, count(*) OVER () AS total,
	(SELECT count(*) FROM discount_code_uses u WHERE u.discount_code_id = d.id AND u.order_id IS NOT NULL) AS uses,
	coalesce((SELECT jsonb_agg(jsonb_build_object('currency', t.currency, 'revenue', t.revenue, 'discount', t.discount) ORDER BY t.currency)
		FROM (SELECT o.currency, sum(o.total) AS revenue, sum(o.discount) AS discount
			FROM discount_code_uses u JOIN orders o ON o.id = u.order_id
			WHERE u.discount_code_id = d.id AND ` + customers.Placed("o") + ` GROUP BY o.currency) t), '[]') AS sales,
	coalesce((SELECT jsonb_agg(jsonb_build_object('id', s.id, 'name', s.name) ORDER BY s.name)
		FROM discount_code_stores x JOIN stores s ON s.id = x.store_id WHERE x.discount_code_id = d.id), '[]') AS stores,
	coalesce((SELECT jsonb_agg(jsonb_build_object('id', c.id, 'name', c.name) ORDER BY c.name)
		FROM discount_code_campaigns x JOIN campaigns c ON c.id = x.campaign_id WHERE x.discount_code_id = d.id), '[]') AS campaigns
FROM discount_codes d
WHERE d.seller_id = $1 AND ($2 = '' OR d.code ILIKE '%' || $2 || '%') AND ($3::bigint = 0 OR d.id = $3)
ORDER BY d.id DESC`

type store struct{ db *sqlx.DB }

func (s store) list(ctx context.Context, seller int64, q string, limit, offset int) ([]Listed, int, error) {
	var rows []listedRow
	if err := s.db.SelectContext(ctx, &rows, qListed+` LIMIT $4 OFFSET $5`, seller, q, 0, limit, offset); err != nil {
		return nil, 0, fmt.Errorf("list promotions: %w", err)
	}
	now := time.Now()
	out := make([]Listed, len(rows))
	total := 0
	for i, r := range rows {
		l, err := r.listed(now)
		if err != nil {
			return nil, 0, err
		}
		out[i], total = l, r.Total
	}
	if len(rows) == 0 && offset > 0 {
		if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM discount_codes WHERE seller_id = $1 AND ($2 = '' OR code ILIKE '%' || $2 || '%')`, seller, q); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

func (s store) get(ctx context.Context, seller, id int64) (Listed, error) {
	if id <= 0 {
		return Listed{}, ErrNotFound
	}
	var r listedRow
	if err := s.db.GetContext(ctx, &r, qListed, seller, "", id); errors.Is(err, sql.ErrNoRows) {
		return Listed{}, ErrNotFound
	} else if err != nil {
		return Listed{}, fmt.Errorf("get promotion: %w", err)
	}
	return r.listed(time.Now())
}

func (s store) ownedStores(ctx context.Context, seller int64, ids []int64) ([]int64, error) {
	out := []int64{}
	if err := s.db.SelectContext(ctx, &out, `SELECT id FROM stores WHERE owner_id = $1 AND id = ANY($2) ORDER BY id`, seller, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("stores of the seller: %w", err)
	}
	return out, nil
}

func (s store) ownedCampaigns(ctx context.Context, seller int64, ids []int64) ([]int64, error) {
	out := []int64{}
	if err := s.db.SelectContext(ctx, &out, `SELECT id FROM campaigns WHERE user_id = $1 AND id = ANY($2) ORDER BY id`, seller, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("campaigns of the seller: %w", err)
	}
	return out, nil
}

// save creates (id 0) or replaces promotion id of p.SellerID with its stores and campaigns.
func (s store) save(ctx context.Context, id int64, p promotions.Promotion) (int64, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	args := []any{p.SellerID, p.Code, p.Kind, p.Percent, p.StartsAt, p.EndsAt, p.UsageLimit, p.PerBuyerLimit,
		p.MinOrder.Amount, string(p.MinOrder.Currency), p.AppliesTo}
	if id == 0 {
		err = tx.GetContext(ctx, &id, `INSERT INTO discount_codes (seller_id, code, kind, percent, starts_at, ends_at, usage_limit,
	per_buyer_limit, min_order, min_order_currency, applies_to)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`, args...)
	} else {
		err = tx.GetContext(ctx, &id, `UPDATE discount_codes SET code = $2, kind = $3, percent = $4, starts_at = $5, ends_at = $6,
	usage_limit = $7, per_buyer_limit = $8, min_order = $9, min_order_currency = $10, applies_to = $11, updated_at = now()
WHERE id = $12 AND seller_id = $1 RETURNING id`, append(args, id)...)
	}
	if database.UniqueViolation(err) {
		return 0, ErrTaken
	} else if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrNotFound
	} else if err != nil {
		return 0, fmt.Errorf("save promotion: %w", err)
	}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`DELETE FROM discount_code_stores WHERE discount_code_id = $1`, []any{id}},
		{`DELETE FROM discount_code_campaigns WHERE discount_code_id = $1`, []any{id}},
		{`INSERT INTO discount_code_stores (discount_code_id, store_id) SELECT $1, unnest($2::bigint[])`, []any{id, pq.Array(p.StoreIDs)}},
		{`INSERT INTO discount_code_campaigns (discount_code_id, campaign_id) SELECT $1, unnest($2::bigint[])`, []any{id, pq.Array(p.CampaignIDs)}},
	} {
		if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
			return 0, fmt.Errorf("save promotion targets: %w", err)
		}
	}
	return id, tx.Commit()
}

func (s store) setDisabled(ctx context.Context, seller, id int64, disabled bool) error {
	const q = `UPDATE discount_codes SET disabled_at = CASE WHEN $3 THEN coalesce(disabled_at, now()) END, updated_at = now()
WHERE id = $1 AND seller_id = $2`
	res, err := s.db.ExecContext(ctx, q, id, seller, disabled)
	if err != nil {
		return fmt.Errorf("disable promotion: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// remove deletes an unused promotion. The code's row lock keeps a checkout from reserving it
// meanwhile (reservations take the same lock).
func (s store) remove(ctx context.Context, seller, id int64) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var used bool
	err = tx.GetContext(ctx, &used, `SELECT EXISTS (SELECT 1 FROM discount_code_uses WHERE discount_code_id = d.id)
FROM discount_codes d WHERE d.id = $1 AND d.seller_id = $2 FOR UPDATE`, id, seller)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	} else if err != nil {
		return fmt.Errorf("delete promotion: %w", err)
	}
	if used {
		return ErrUsed
	}
	var code string
	if err := tx.GetContext(ctx, &code, `DELETE FROM discount_codes WHERE id = $1 RETURNING code`, id); err != nil {
		return fmt.Errorf("delete promotion: %w", err)
	}
	// The abandoned-checkout e-mails stop offering it.
	const qCoupon = `UPDATE email_abandoned_settings a SET coupon_code = '', updated_at = now() FROM stores s
WHERE s.id = a.store_id AND s.owner_id = $1 AND lower(a.coupon_code) = lower($2)`
	if _, err := tx.ExecContext(ctx, qCoupon, seller, code); err != nil {
		return fmt.Errorf("abandoned-checkout coupon: %w", err)
	}
	return tx.Commit()
}

// Offer is a promotion as the on-promotion list names it.
type Offer struct {
	ID      int64  `json:"id"`
	Code    string `json:"code"`
	Kind    string `json:"kind"`
	Percent int    `json:"percent"`
}

// OnPromotion is a campaign with the active promotions that apply to it.
type OnPromotion struct {
	ID         int64   `json:"id"`
	Name       string  `json:"name"`
	Promotions []Offer `json:"promotions"`
}

// onPromotion lists the seller's campaigns an active promotion applies to: every campaign on sale
// in a store the code covers (all the seller's stores, or the chosen ones), or the chosen campaigns.
func (s store) onPromotion(ctx context.Context, seller int64, limit, offset int) ([]OnPromotion, int, error) {
	all, _, err := s.list(ctx, seller, "", 1_000_000, 0)
	if err != nil {
		return nil, 0, err
	}
	active := []int64{}
	for _, p := range all {
		if p.Status == promotions.StatusActive {
			active = append(active, p.ID)
		}
	}
	const q = `
WITH d AS (SELECT * FROM discount_codes WHERE seller_id = $1 AND id = ANY($2)),
hits AS (
	SELECT sp.campaign_id, d.id FROM d JOIN stores s ON s.owner_id = d.seller_id
		JOIN store_products sp ON sp.store_id = s.id AND sp.status = 'active' WHERE d.applies_to = 'all'
	UNION SELECT sp.campaign_id, d.id FROM d JOIN discount_code_stores x ON x.discount_code_id = d.id
		JOIN store_products sp ON sp.store_id = x.store_id AND sp.status = 'active' WHERE d.applies_to = 'stores'
	UNION SELECT x.campaign_id, d.id FROM d JOIN discount_code_campaigns x ON x.discount_code_id = d.id WHERE d.applies_to = 'campaigns')
SELECT c.id, c.name, count(*) OVER () AS total,
	jsonb_agg(jsonb_build_object('id', d.id, 'code', d.code, 'kind', d.kind, 'percent', d.percent) ORDER BY d.code) AS promotions
FROM hits h JOIN campaigns c ON c.id = h.campaign_id AND c.user_id = $1 JOIN d ON d.id = h.id
GROUP BY c.id, c.name ORDER BY c.id DESC LIMIT $3 OFFSET $4`
	var rows []struct {
		ID         int64  `db:"id"`
		Name       string `db:"name"`
		Total      int    `db:"total"`
		Promotions []byte `db:"promotions"`
	}
	if err := s.db.SelectContext(ctx, &rows, q, seller, pq.Array(active), limit, offset); err != nil {
		return nil, 0, fmt.Errorf("campaigns on promotion: %w", err)
	}
	out := make([]OnPromotion, len(rows))
	total := 0
	for i, r := range rows {
		out[i] = OnPromotion{ID: r.ID, Name: r.Name}
		if err := json.Unmarshal(r.Promotions, &out[i].Promotions); err != nil {
			return nil, 0, err
		}
		total = r.Total
	}
	return out, total, nil
}
