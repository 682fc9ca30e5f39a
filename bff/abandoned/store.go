package abandoned

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/commerce/money"
)

// Checkout is a row of the list: an abandoned checkout, its lines and total as the buyer left
// them, the recovery e-mails (steps 1 to 3) and what became of it.
type Checkout struct {
	ID          string      `json:"id"`
	StoreID     int64       `json:"store_id"`
	StoreName   string      `json:"store_name"`
	Email       string      `json:"email"`
	Items       int         `json:"items"`
	Lines       []Line      `json:"lines"`
	Total       money.Money `json:"total"`
	LeftAt      time.Time   `json:"left_at"`
	AbandonedAt time.Time   `json:"abandoned_at"`
	Mails       []Mail      `json:"recovery_mails"`
	OpenedAt    *time.Time  `json:"opened_at"`
	RecoveredAt *time.Time  `json:"recovered_at"`
	OrderID     *int64      `json:"order_id"`
	OrderNumber string      `json:"order_number"`
}

// Line is what the buyer had picked.
type Line struct {
	Name     string `json:"name"`
	Color    string `json:"color"`
	Size     string `json:"size"`
	Quantity int    `json:"quantity"`
}

// Mail is a recovery e-mail step: sending (claimed), sent (with when) or failed.
type Mail struct {
	Step   int        `json:"step"`
	Status string     `json:"status"`
	SentAt *time.Time `json:"sent_at"`
}

type row struct {
	ID          string     `db:"id"`
	StoreID     int64      `db:"store_id"`
	StoreName   string     `db:"store_name"`
	Email       string     `db:"email"`
	Lines       []byte     `db:"lines"`
	Currency    string     `db:"currency"`
	Total       int64      `db:"total"`
	LeftAt      time.Time  `db:"updated_at"`
	AbandonedAt time.Time  `db:"abandoned_at"`
	Mails       []byte     `db:"mails"`
	OpenedAt    *time.Time `db:"recovery_opened_at"`
	RecoveredAt *time.Time `db:"recovered_at"`
	OrderID     *int64     `db:"order_id"`
	OrderNumber string     `db:"order_number"`
}

func (r row) checkout() (Checkout, error) {
	k := Checkout{ID: r.ID, StoreID: r.StoreID, StoreName: r.StoreName, Email: r.Email,
		Total: money.Money{Amount: r.Total, Currency: money.Currency(r.Currency)}, LeftAt: r.LeftAt,
		AbandonedAt: r.AbandonedAt, OpenedAt: r.OpenedAt, RecoveredAt: r.RecoveredAt, OrderID: r.OrderID,
		OrderNumber: r.OrderNumber, Lines: []Line{}, Mails: []Mail{}}
	if err := json.Unmarshal(r.Lines, &k.Lines); err != nil {
		return Checkout{}, fmt.Errorf("checkout %s lines: %w", r.ID, err)
	}
	if err := json.Unmarshal(r.Mails, &k.Mails); err != nil {
		return Checkout{}, fmt.Errorf("checkout %s recovery mails: %w", r.ID, err)
	}
	for _, l := range k.Lines {
		k.Items += l.Quantity
	}
	return k, nil
}

// Filter narrows the list: [From, To) bounds abandoned_at; Recovered is "yes", "no" or "" (all);
// Q is the start of the buyer's e-mail.
type Filter struct {
	From, To  *time.Time
	Recovered string
	Q         string
}

func (f Filter) args(sc listing.Scope) []any {
	return append(sc.Args(), f.From, f.To, f.Recovered, f.Q, listing.Prefix(f.Q))
}

// where keeps the abandoned checkouts of the scope's stores ($1 seller, $2-$3 the store filter) and
// the filter ($4 from, $5 to, $6 recovered, $7 search, $8 e-mail prefix pattern). A checkout once
// abandoned stays listed when its buyer comes back or pays.
const where = `WHERE s.owner_id = $1 AND (NOT $2 OR k.store_id = ANY($3)) AND k.abandoned_at IS NOT NULL
	AND ($4::timestamptz IS NULL OR k.abandoned_at >= $4) AND ($5::timestamptz IS NULL OR k.abandoned_at < $5)
	AND ($6 = '' OR ($6 = 'yes') = (k.recovered_at IS NOT NULL))
	AND ($7 = '' OR lower(k.email) LIKE $8 ESCAPE '\')`

const (
	qList = `SELECT k.id, k.store_id, s.name AS store_name, k.email, k.lines, k.currency, k.total, k.updated_at,
	k.abandoned_at, k.recovery_opened_at, k.recovered_at, o.id AS order_id, coalesce(o.number, '') AS order_number,
	coalesce((SELECT jsonb_agg(jsonb_build_object('step', m.step, 'status', m.status, 'sent_at', m.sent_at) ORDER BY m.step)
		FROM checkout_recovery_mails m WHERE m.checkout_id = k.id), '[]') AS mails
FROM checkouts k JOIN stores s ON s.id = k.store_id LEFT JOIN orders o ON o.id = k.order_id AND o.status <> 'deleted'
` + where + ` ORDER BY k.abandoned_at DESC, k.id DESC LIMIT $9 OFFSET $10`
	qCount = `SELECT count(*) FROM checkouts k JOIN stores s ON s.id = k.store_id ` + where
)

type store struct{ db *sqlx.DB }

func (s store) list(ctx context.Context, sc listing.Scope, f Filter, limit, offset int) ([]Checkout, int, error) {
	var rows []row
	if err := s.db.SelectContext(ctx, &rows, qList, append(f.args(sc), limit, offset)...); err != nil {
		return nil, 0, fmt.Errorf("list abandoned checkouts: %w", err)
	}
	var total int
	if err := s.db.GetContext(ctx, &total, qCount, f.args(sc)...); err != nil {
		return nil, 0, fmt.Errorf("count abandoned checkouts: %w", err)
	}
	out := make([]Checkout, len(rows))
	for i, r := range rows {
		k, err := r.checkout()
		if err != nil {
			return nil, 0, err
		}
		out[i] = k
	}
	return out, total, nil
}
