package reports

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/bff/customers"
	"github.com/pressroom/pressroom/bff/listing"
)

// filter is what a report reads: $1-$3 the scope, $4 one store (0: every store the scope sees),
// $5 the currency, and the range [$6, $7).
type filter struct {
	sc       listing.Scope
	store    int64
	currency string
	from, to time.Time
}

func (f filter) args() []any { return append(f.sc.Args(), f.store, f.currency, f.from, f.to) }

// anyCurrency are the filter's arguments without its currency: $5 and $6 are the range.
func (f filter) anyCurrency() []any { return append(f.sc.Args(), f.store, f.from, f.to) }

// ordersIn are the placed orders of the filter: those a buyer paid for, as the customers count them.
const ordersIn = `SELECT o.* FROM orders o
WHERE o.seller_id = $1 AND (NOT $2 OR o.store_id = ANY($3)) AND ($4 = 0 OR o.store_id = $4)
	AND o.currency = $5 AND o.created_at >= $6 AND o.created_at < $7 AND `

var qOrdersIn = ordersIn + customers.Placed("o")

// earned is what an order aliased o ends up giving its seller: its sale, fulfil and refund entries
// in the ledger, plus, when the buyer paid into the seller's own account, what was paid there less
// what went back from there (docs/money.md).
const earned = `coalesce((SELECT sum(e.d_available + e.d_held - e.d_owed) FROM ledger_entries e
		WHERE e.order_id = o.id AND e.type IN ('sale', 'fulfill', 'refund')), 0)
	+ coalesce((SELECT sum(p.amount) FROM payments p
		WHERE p.order_id = o.id AND p.status = 'succeeded' AND p.payment_gateway_id IS NOT NULL), 0)
	- coalesce((SELECT sum(r.amount) FROM refunds r JOIN payments p ON p.id = r.payment_id
		WHERE p.order_id = o.id AND p.payment_gateway_id IS NOT NULL), 0)`

// totals are the order figures of one period.
type totals struct {
	Orders   int64 `db:"orders"`
	Sales    int64 `db:"sales"`
	Items    int64 `db:"items"`
	Earnings int64 `db:"earnings"`
}

var qTotals = `SELECT count(*) AS orders, coalesce(sum(o.total), 0)::bigint AS sales,
	coalesce(sum((SELECT sum(i.quantity) FROM order_items i WHERE i.order_id = o.id)), 0)::bigint AS items,
	coalesce(sum(` + earned + `), 0)::bigint AS earnings
FROM (` + qOrdersIn + `) o`

// qVisits adds up the visits the storefront counted in the scope's stores over [$5, $6), per device.
const qVisits = `SELECT v.device AS key, sum(v.visits)::bigint AS visits
FROM store_visits v JOIN stores s ON s.id = v.store_id
WHERE s.owner_id = $1 AND (NOT $2 OR v.store_id = ANY($3)) AND ($4 = 0 OR v.store_id = $4)
	AND v.hour >= $5 AND v.hour < $6
GROUP BY v.device`

// qCurrencies are the currencies the scope sold in over [$5, $6), the most orders first.
var qCurrencies = `SELECT o.currency FROM orders o
WHERE o.seller_id = $1 AND (NOT $2 OR o.store_id = ANY($3)) AND ($4 = 0 OR o.store_id = $4)
	AND o.created_at >= $5 AND o.created_at < $6 AND ` + customers.Placed("o") + `
GROUP BY o.currency ORDER BY count(*) DESC, o.currency`

// A dimension is what a breakdown groups the orders by: the key and label of an order aliased o,
// with the joins they need.
type dimension struct{ key, label, join string }

var (
	// byDay reads the order's day in the caller's clock, $8 seconds east of UTC.
	byDay     = dimension{key: `to_char((o.created_at AT TIME ZONE 'UTC') + make_interval(secs => $8), 'YYYY-MM-DD')`, label: `''`}
	byCountry = dimension{key: `coalesce(o.shipping_address->>'country', '')`, label: `coalesce(min(co.name), '')`,
		join: `LEFT JOIN countries co ON co.code = o.shipping_address->>'country'`}
	byStore = dimension{key: `coalesce(o.store_id::text, '')`, label: `coalesce(min(st.name), '')`,
		join: `LEFT JOIN stores st ON st.id = o.store_id`}
	byDevice = dimension{key: `coalesce(ch.device, '')`, label: `''`, join: `LEFT JOIN checkouts ch ON ch.id = o.checkout_id`}
	// byPayment: the gateway of the order's first successful payment; "own" for a seller's own account.
	byPayment = dimension{key: `coalesce((SELECT CASE WHEN p.payment_gateway_id IS NOT NULL THEN 'own' ELSE p.gateway END
		FROM payments p WHERE p.order_id = o.id AND p.status = 'succeeded' ORDER BY p.id LIMIT 1), '')`, label: `''`}
)

// Slice is one bar or point of a chart: the orders of one key and what they sold.
type Slice struct {
	Key    string `db:"key" json:"key"`
	Label  string `db:"label" json:"label"`
	Orders int64  `db:"orders" json:"orders"`
	Sales  int64  `db:"sales" json:"sales"`
	Visits int64  `db:"-" json:"visits,omitempty"`
}

func (d dimension) query() string {
	return `SELECT ` + d.key + ` AS key, ` + d.label + ` AS label, count(*) AS orders, sum(o.total)::bigint AS sales
FROM (` + qOrdersIn + `) o ` + d.join + `
GROUP BY 1 ORDER BY sales DESC, key`
}

// Campaign is one of the top campaigns: what its items sold (unit price times quantity), in how
// many orders.
type Campaign struct {
	ID     int64  `db:"id" json:"id"`
	Name   string `db:"name" json:"name"`
	Orders int64  `db:"orders" json:"orders"`
	Items  int64  `db:"items" json:"items"`
	Sales  int64  `db:"sales" json:"sales"`
}

// topCampaigns is how many campaigns the overview lists.
const topCampaigns = 10

var qCampaigns = `SELECT i.campaign_id AS id, coalesce(c.name, min(i.product_name)) AS name,
	count(DISTINCT o.id) AS orders, sum(i.quantity)::bigint AS items, sum(i.quantity * i.unit_price)::bigint AS sales
FROM (` + qOrdersIn + `) o JOIN order_items i ON i.order_id = o.id LEFT JOIN campaigns c ON c.id = i.campaign_id
WHERE i.campaign_id IS NOT NULL
GROUP BY i.campaign_id, c.name ORDER BY sales DESC, i.campaign_id LIMIT ` + fmt.Sprint(topCampaigns)

type store struct{ db *sqlx.DB }

func (s store) totals(ctx context.Context, f filter) (totals, error) {
	var t totals
	if err := s.db.GetContext(ctx, &t, qTotals, f.args()...); err != nil {
		return totals{}, fmt.Errorf("overview totals: %w", err)
	}
	return t, nil
}

// visits answers the visits of the filter's stores and range by device.
func (s store) visits(ctx context.Context, f filter) (map[string]int64, error) {
	var rows []struct {
		Key    string `db:"key"`
		Visits int64  `db:"visits"`
	}
	if err := s.db.SelectContext(ctx, &rows, qVisits, f.anyCurrency()...); err != nil {
		return nil, fmt.Errorf("overview visits: %w", err)
	}
	out := map[string]int64{}
	for _, r := range rows {
		out[r.Key] = r.Visits
	}
	return out, nil
}

// currencies answers the currencies sold in over the filter's range, whatever its currency.
func (s store) currencies(ctx context.Context, f filter) ([]string, error) {
	var out []string
	if err := s.db.SelectContext(ctx, &out, qCurrencies, f.anyCurrency()...); err != nil {
		return nil, fmt.Errorf("overview currencies: %w", err)
	}
	return out, nil
}

// breakdown groups the filter's orders by d; offset is the caller's clock in seconds east of UTC.
func (s store) breakdown(ctx context.Context, f filter, d dimension, offset int) ([]Slice, error) {
	q, args := d.query(), f.args()
	if d == byDay {
		args = append(args, offset)
	}
	out := []Slice{}
	if err := s.db.SelectContext(ctx, &out, q, args...); err != nil {
		return nil, fmt.Errorf("overview breakdown: %w", err)
	}
	return out, nil
}

func (s store) campaigns(ctx context.Context, f filter) ([]Campaign, error) {
	out := []Campaign{}
	if err := s.db.SelectContext(ctx, &out, qCampaigns, f.args()...); err != nil {
		return nil, fmt.Errorf("overview campaigns: %w", err)
	}
	return out, nil
}

// ownsStore tells whether the scope sees store id.
func (s store) ownsStore(ctx context.Context, sc listing.Scope, id int64) (bool, error) {
	var ok bool
	err := s.db.GetContext(ctx, &ok, `SELECT EXISTS (SELECT 1 FROM stores WHERE id = $4 AND owner_id = $1
		AND (NOT $2 OR id = ANY($3)))`, append(sc.Args(), id)...)
	return ok, err
}
