package crossselling

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
	"github.com/pressroom/pressroom/platform/database"
)

// Errors of the store.
var (
	// ErrNotFound: no such rule in the account.
	ErrNotFound = errors.New("cross-selling rule not found")
	// ErrTaken: the campaign already has a rule.
	ErrTaken = errors.New("campaign already has a rule")
)

// Campaign names a campaign of a rule.
type Campaign struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// Rule is a cross-selling rule with the orders it produced.
type Rule struct {
	ID        int64      `json:"id"`
	Campaign  Campaign   `json:"campaign"`
	Targets   []Campaign `json:"targets"`
	Orders    int        `json:"orders"`
	CreatedAt time.Time  `json:"created_at"`
	UpdatedAt time.Time  `json:"updated_at"`
}

type ruleRow struct {
	ID           int64     `db:"id"`
	CampaignID   int64     `db:"campaign_id"`
	CampaignName string    `db:"campaign_name"`
	Targets      []byte    `db:"targets"`
	Orders       int       `db:"orders"`
	CreatedAt    time.Time `db:"created_at"`
	UpdatedAt    time.Time `db:"updated_at"`
}

func (r ruleRow) rule() (Rule, error) {
	out := Rule{ID: r.ID, Campaign: Campaign{ID: r.CampaignID, Name: r.CampaignName}, Orders: r.Orders,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, Targets: []Campaign{}}
	if err := json.Unmarshal(r.Targets, &out.Targets); err != nil {
		return Rule{}, fmt.Errorf("rule %d targets: %w", r.ID, err)
	}
	return out, nil
}

// qProduced counts a rule's orders: placed orders holding a suggested campaign, made since the rule
// exists, by a buyer (same e-mail, any case) who placed an order of the rule's campaign then or
// before. The rule is one hint among others, so this counts what followed it, not what it caused.
var qProduced = `(SELECT count(DISTINCT o.id) FROM orders o JOIN order_items i ON i.order_id = o.id
	JOIN cross_sell_targets t ON t.rule_id = r.id AND t.campaign_id = i.campaign_id
	WHERE o.seller_id = r.seller_id AND o.created_at >= r.created_at AND ` + customers.Placed("o") + `
	AND EXISTS (SELECT 1 FROM orders b JOIN order_items bi ON bi.order_id = b.id
		WHERE b.seller_id = r.seller_id AND lower(b.email) = lower(o.email) AND bi.campaign_id = r.campaign_id
		AND b.created_at <= o.created_at AND ` + customers.Placed("b") + `))`

var qRules = `SELECT r.id, r.campaign_id, c.name AS campaign_name, r.created_at, r.updated_at,
	coalesce((SELECT jsonb_agg(jsonb_build_object('id', tc.id, 'name', tc.name) ORDER BY t.position)
		FROM cross_sell_targets t JOIN campaigns tc ON tc.id = t.campaign_id WHERE t.rule_id = r.id), '[]') AS targets,
	` + qProduced + ` AS orders
FROM cross_sell_rules r JOIN campaigns c ON c.id = r.campaign_id
WHERE r.seller_id = $1 AND ($2::bigint = 0 OR r.id = $2)`

type store struct{ db *sqlx.DB }

func (s store) list(ctx context.Context, seller int64, limit, offset int) ([]Rule, int, error) {
	var rows []ruleRow
	if err := s.db.SelectContext(ctx, &rows, qRules+` ORDER BY r.id DESC LIMIT $3 OFFSET $4`, seller, 0, limit, offset); err != nil {
		return nil, 0, fmt.Errorf("list cross-selling rules: %w", err)
	}
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM cross_sell_rules WHERE seller_id = $1`, seller); err != nil {
		return nil, 0, fmt.Errorf("count cross-selling rules: %w", err)
	}
	out := make([]Rule, len(rows))
	for i, r := range rows {
		rule, err := r.rule()
		if err != nil {
			return nil, 0, err
		}
		out[i] = rule
	}
	return out, total, nil
}

func (s store) get(ctx context.Context, seller, id int64) (Rule, error) {
	var r ruleRow
	if err := s.db.GetContext(ctx, &r, qRules, seller, id); errors.Is(err, sql.ErrNoRows) {
		return Rule{}, ErrNotFound
	} else if err != nil {
		return Rule{}, fmt.Errorf("get cross-selling rule: %w", err)
	}
	return r.rule()
}

// owned answers which of ids are campaigns of seller.
func (s store) owned(ctx context.Context, seller int64, ids []int64) ([]int64, error) {
	var out []int64
	if err := s.db.SelectContext(ctx, &out, `SELECT id FROM campaigns WHERE user_id = $1 AND id = ANY($2)`, seller, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("campaigns of the seller: %w", err)
	}
	return out, nil
}

// save creates (id 0) or replaces rule id of seller: its campaign and its targets in order.
func (s store) save(ctx context.Context, seller, id int64, in Input) (int64, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	if id == 0 {
		err = tx.GetContext(ctx, &id, `INSERT INTO cross_sell_rules (seller_id, campaign_id) VALUES ($1, $2) RETURNING id`, seller, in.CampaignID)
	} else {
		err = tx.GetContext(ctx, &id, `UPDATE cross_sell_rules SET campaign_id = $3, updated_at = now() WHERE id = $1 AND seller_id = $2 RETURNING id`,
			id, seller, in.CampaignID)
	}
	if database.UniqueViolation(err) {
		return 0, ErrTaken
	} else if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrNotFound
	} else if err != nil {
		return 0, fmt.Errorf("save cross-selling rule: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM cross_sell_targets WHERE rule_id = $1`, id); err != nil {
		return 0, fmt.Errorf("clear targets: %w", err)
	}
	const qTargets = `INSERT INTO cross_sell_targets (rule_id, campaign_id, position)
SELECT $1, t.id, t.n FROM unnest($2::bigint[]) WITH ORDINALITY AS t(id, n)`
	if _, err := tx.ExecContext(ctx, qTargets, id, pq.Array(in.TargetIDs)); err != nil {
		return 0, fmt.Errorf("save targets: %w", err)
	}
	return id, tx.Commit()
}

func (s store) remove(ctx context.Context, seller, id int64) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM cross_sell_rules WHERE id = $1 AND seller_id = $2`, id, seller)
	if err != nil {
		return fmt.Errorf("remove cross-selling rule: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}
