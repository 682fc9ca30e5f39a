package customers

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/commerce/money"
)

// ErrNotFound: no such customer in the caller's account, or none of their orders is in a store the
// caller may see.
var ErrNotFound = errors.New("customer not found")

// Customer is a row of the list and the head of a customer's page. Spent is what the buyer paid,
// less refunds, one amount per currency, by currency code.
type Customer struct {
	ID           int64         `json:"id"`
	Email        string        `json:"email"`
	Name         string        `json:"name"`
	Country      string        `json:"country"`
	CountryName  string        `json:"country_name"`
	Orders       int           `json:"orders"`
	Spent        []money.Money `json:"total_spent"`
	FirstOrderAt time.Time     `json:"first_order_at"`
	LastOrderAt  time.Time     `json:"last_order_at"`
}

type customerRow struct {
	ID           int64     `db:"id"`
	Email        string    `db:"email"`
	Name         string    `db:"name"`
	Country      string    `db:"country"`
	CountryName  string    `db:"country_name"`
	Orders       int       `db:"orders"`
	Spent        []byte    `db:"spent"`
	FirstOrderAt time.Time `db:"first_order_at"`
	LastOrderAt  time.Time `db:"last_order_at"`
	Total        int       `db:"total"`
}

func (r customerRow) customer() (Customer, error) {
	c := Customer{ID: r.ID, Email: r.Email, Name: r.Name, Country: r.Country, CountryName: r.CountryName,
		Orders: r.Orders, FirstOrderAt: r.FirstOrderAt, LastOrderAt: r.LastOrderAt, Spent: []money.Money{}}
	if err := json.Unmarshal(r.Spent, &c.Spent); err != nil {
		return Customer{}, fmt.Errorf("customer %d spent: %w", r.ID, err)
	}
	return c, nil
}

// Order is one of a customer's orders on their page.
type Order struct {
	ID                int64       `db:"id" json:"id"`
	Number            string      `db:"number" json:"number"`
	StoreName         string      `db:"store_name" json:"store_name"`
	Status            string      `db:"status" json:"status"`
	PaymentStatus     string      `db:"payment_status" json:"payment_status"`
	FulfillmentStatus string      `db:"fulfillment_status" json:"fulfillment_status"`
	Items             int         `db:"items" json:"items"`
	Total             money.Money `db:"-" json:"total"`
	CreatedAt         time.Time   `db:"created_at" json:"created_at"`
	Cents             int64       `db:"total" json:"-"`
	Currency          string      `db:"currency" json:"-"`
}

// Detail is a customer's page: the customer, the shipping address of their last order and their
// orders, newest first.
type Detail struct {
	Customer
	ShippingAddress json.RawMessage `json:"shipping_address"`
	OrderList       []Order         `json:"order_list"`
}

// Placed is the SQL condition that the order aliased alias was placed by a buyer: drafts, orders
// still waiting for their payment and deleted ones do not count as anyone's purchase.
func Placed(alias string) string {
	return alias + ".email <> '' AND " + alias + ".status NOT IN ('draft', 'pending_payment', 'deleted')"
}

// counted are the orders that make customers: placed orders of the scope ($1-$3).
var counted = `o.seller_id = $1 AND (NOT $2 OR o.store_id = ANY($3)) AND ` + Placed("o")

// qAggregate groups the counted orders by customer ($4 narrows them to one customer's e-mail when
// not empty; $5 the search as typed, $6 an e-mail prefix pattern, $7 a name pattern). paid is what
// an order's buyer paid less what was refunded.
var qAggregate = `
WITH mine AS (
	SELECT o.id, lower(o.email) AS key, o.email, o.customer_name, o.currency, o.created_at,
		coalesce(o.shipping_address->>'country', '') AS country,
		coalesce((SELECT sum(p.amount) FROM payments p WHERE p.order_id = o.id AND p.status = 'succeeded'), 0)
		- coalesce((SELECT sum(r.amount) FROM refunds r JOIN payments p ON p.id = r.payment_id WHERE p.order_id = o.id), 0) AS paid
	FROM orders o
	WHERE ` + counted + `
		AND ($4 = '' OR lower(o.email) = $4)
		AND ($5 = '' OR lower(o.email) IN (SELECT lower(m.email) FROM orders m
			WHERE m.seller_id = $1 AND (NOT $2 OR m.store_id = ANY($3))
			AND (lower(m.email) LIKE $6 ESCAPE '\' OR m.customer_name ILIKE $7 ESCAPE '\')))
), per_currency AS (
	SELECT key, currency, sum(paid) AS amount FROM mine GROUP BY key, currency
), spent AS (
	SELECT key, jsonb_agg(jsonb_build_object('amount', amount, 'currency', currency) ORDER BY currency) AS spent,
		sum(amount) AS spent_sort
	FROM per_currency GROUP BY key
), grouped AS (
	SELECT key, (array_agg(email ORDER BY id DESC))[1] AS email,
		coalesce((array_agg(customer_name ORDER BY id DESC) FILTER (WHERE customer_name <> ''))[1], '') AS name,
		(array_agg(country ORDER BY id DESC))[1] AS country,
		count(*) AS orders, min(created_at) AS first_order_at, max(created_at) AS last_order_at
	FROM mine GROUP BY key
)
SELECT c.id, g.email, g.name, g.country, coalesce(co.name, g.country) AS country_name, g.orders::int AS orders,
	s.spent, g.first_order_at, g.last_order_at, (count(*) OVER ())::int AS total
FROM grouped g JOIN spent s USING (key) JOIN customers c ON c.seller_id = $1 AND c.email = g.key
LEFT JOIN countries co ON co.code = g.country`

// Sorts are the columns order_by takes, the first being the default; each sorts ties newest
// customer first.
var Sorts = []string{"last_order_at", "orders", "total_spent", "name", "email", "first_order_at"}

var sortSQL = map[string]string{
	"last_order_at":  "g.last_order_at",
	"orders":         "g.orders",
	"total_spent":    "s.spent_sort",
	"name":           "lower(g.name)",
	"email":          "g.email",
	"first_order_at": "g.first_order_at",
}

func orderBy(col string, asc bool) string {
	dir := " DESC"
	if asc {
		dir = " ASC"
	}
	return " ORDER BY " + sortSQL[col] + dir + ", c.id DESC"
}

// Query is the list's search and sort.
type Query struct {
	Q     string
	Sort  string
	Asc   bool
	Email string // one customer's (lower-case) e-mail; empty for all
}

func (q Query) args(sc listing.Scope) []any {
	return append(sc.Args(), q.Email, q.Q, listing.Prefix(q.Q), listing.Inside(q.Q))
}

type store struct{ db *sqlx.DB }

func (s store) list(ctx context.Context, sc listing.Scope, q Query, limit, offset int) ([]Customer, int, error) {
	var rows []customerRow
	sqlText := qAggregate + orderBy(q.Sort, q.Asc) + ` LIMIT $8 OFFSET $9`
	if err := s.db.SelectContext(ctx, &rows, sqlText, append(q.args(sc), limit, offset)...); err != nil {
		return nil, 0, fmt.Errorf("list customers: %w", err)
	}
	total := 0
	if len(rows) > 0 {
		total = rows[0].Total
	} else if offset > 0 {
		// Past the last page: the window count came back with no row to carry it.
		if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM (`+qAggregate+`) t`, q.args(sc)...); err != nil {
			return nil, 0, fmt.Errorf("count customers: %w", err)
		}
	}
	out := make([]Customer, len(rows))
	for i, r := range rows {
		c, err := r.customer()
		if err != nil {
			return nil, 0, err
		}
		out[i] = c
	}
	return out, total, nil
}

// export calls each with every customer of the search in the list's order, one row at a time.
func (s store) export(ctx context.Context, sc listing.Scope, q Query, each func(Customer) error) error {
	rows, err := s.db.QueryxContext(ctx, qAggregate+orderBy(q.Sort, q.Asc), q.args(sc)...)
	if err != nil {
		return fmt.Errorf("export customers: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r customerRow
		if err := rows.StructScan(&r); err != nil {
			return fmt.Errorf("export customers: %w", err)
		}
		c, err := r.customer()
		if err != nil {
			return err
		}
		if err := each(c); err != nil {
			return err
		}
	}
	return rows.Err()
}

const qKey = `SELECT email FROM customers WHERE id = $1 AND seller_id = $2`

var (
	qOrders = `SELECT o.id, o.number, coalesce(s.name, '') AS store_name, o.status, o.payment_status, o.fulfillment_status,
	(SELECT coalesce(sum(i.quantity), 0) FROM order_items i WHERE i.order_id = o.id) AS items, o.total, o.currency, o.created_at
FROM orders o LEFT JOIN stores s ON s.id = o.store_id
WHERE ` + counted + ` AND lower(o.email) = $4 ORDER BY o.id DESC LIMIT $5`
	qAddress = `SELECT o.shipping_address FROM orders o WHERE ` + counted + ` AND lower(o.email) = $4 ORDER BY o.id DESC LIMIT 1`
)

// MaxOrders caps the orders a customer's page lists (the newest).
const MaxOrders = 200

// detail reads customer id of the scope's account with their orders in the scope.
func (s store) detail(ctx context.Context, sc listing.Scope, id int64) (Detail, error) {
	var key string
	if err := s.db.GetContext(ctx, &key, qKey, id, sc.SellerID); errors.Is(err, sql.ErrNoRows) {
		return Detail{}, ErrNotFound
	} else if err != nil {
		return Detail{}, fmt.Errorf("get customer: %w", err)
	}
	cs, _, err := s.list(ctx, sc, Query{Sort: Sorts[0], Email: key}, 1, 0)
	if err != nil {
		return Detail{}, err
	}
	if len(cs) == 0 {
		return Detail{}, ErrNotFound
	}
	d := Detail{Customer: cs[0], OrderList: []Order{}}
	if err := s.db.SelectContext(ctx, &d.OrderList, qOrders, append(sc.Args(), key, MaxOrders)...); err != nil {
		return Detail{}, fmt.Errorf("customer orders: %w", err)
	}
	for i := range d.OrderList {
		o := &d.OrderList[i]
		o.Total = money.Money{Amount: o.Cents, Currency: money.Currency(o.Currency)}
	}
	if err := s.db.GetContext(ctx, &d.ShippingAddress, qAddress, append(sc.Args(), key)...); err != nil {
		return Detail{}, fmt.Errorf("customer address: %w", err)
	}
	return d, nil
}
