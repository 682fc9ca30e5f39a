package orders

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

// ErrNotFound: no such order in the caller's account (or in a store the caller may not see).
var ErrNotFound = errors.New("order not found")

// Order is one row of the orders list and the head of an order's page.
type Order struct {
	ID                int64       `json:"id"`
	Number            string      `json:"number"`
	OrderType         string      `json:"order_type"`
	StoreID           *int64      `json:"store_id"`
	StoreName         string      `json:"store_name"`
	Email             string      `json:"email"`
	CustomerName      string      `json:"customer_name"`
	Status            string      `json:"status"`
	PaymentStatus     string      `json:"payment_status"`
	FulfillmentStatus string      `json:"fulfillment_status"`
	Items             int         `json:"items"`
	Subtotal          money.Money `json:"subtotal"`
	Shipping          money.Money `json:"shipping"`
	Discount          money.Money `json:"discount"`
	Tip               money.Money `json:"tip"`
	Total             money.Money `json:"total"`
	CreatedAt         time.Time   `json:"created_at"`
	UpdatedAt         time.Time   `json:"updated_at"`
	// AddressErrors are the shipping address's fields the country rules refuse ([{field, message}]),
	// null when it passes.
	AddressErrors json.RawMessage `json:"address_errors"`
}

// orderRow is an orders row as selected by orderCols.
type orderRow struct {
	ID                int64         `db:"id"`
	Number            string        `db:"number"`
	OrderType         string        `db:"order_type"`
	StoreID           sql.NullInt64 `db:"store_id"`
	StoreName         string        `db:"store_name"`
	Email             string        `db:"email"`
	CustomerName      string        `db:"customer_name"`
	Status            string        `db:"status"`
	PaymentStatus     string        `db:"payment_status"`
	FulfillmentStatus string        `db:"fulfillment_status"`
	Items             int           `db:"items"`
	Currency          string        `db:"currency"`
	Subtotal          int64         `db:"subtotal"`
	Shipping          int64         `db:"shipping"`
	Discount          int64         `db:"discount"`
	Tip               int64         `db:"tip"`
	Total             int64         `db:"total"`
	CreatedAt         time.Time     `db:"created_at"`
	UpdatedAt         time.Time     `db:"updated_at"`
	AddressErrors     []byte        `db:"address_errors"`
}

func (r orderRow) order() Order {
	cur := money.Currency(r.Currency)
	m := func(a int64) money.Money { return money.Money{Amount: a, Currency: cur} }
	o := Order{ID: r.ID, Number: r.Number, OrderType: r.OrderType, StoreName: r.StoreName, Email: r.Email,
		CustomerName: r.CustomerName, Status: r.Status, PaymentStatus: r.PaymentStatus,
		FulfillmentStatus: r.FulfillmentStatus, Items: r.Items, Subtotal: m(r.Subtotal), Shipping: m(r.Shipping),
		Discount: m(r.Discount), Tip: m(r.Tip), Total: m(r.Total), CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		AddressErrors: r.AddressErrors}
	if r.StoreID.Valid {
		o.StoreID = &r.StoreID.Int64
	}
	return o
}

// Item is an order item with its print files.
type Item struct {
	ID              int64           `db:"id" json:"id"`
	CampaignID      *int64          `db:"campaign_id" json:"campaign_id"`
	ProductID       *int64          `db:"product_id" json:"product_id"`
	ProductName     string          `db:"product_name" json:"product_name"`
	ProductType     string          `db:"product_type" json:"product_type"`
	Color           string          `db:"color" json:"color"`
	Size            string          `db:"size" json:"size"`
	Quantity        int             `db:"quantity" json:"quantity"`
	UnitPrice       money.Money     `db:"-" json:"unit_price"`
	Personalization json.RawMessage `db:"personalization" json:"personalization"`
	PrintFiles      []PrintFile     `db:"-" json:"print_files"`
	Price           int64           `db:"unit_price" json:"-"`
}

// PrintFile is one print space of an item in the designer review: its review and render states.
type PrintFile struct {
	ID          int64   `db:"id" json:"id"`
	ItemID      int64   `db:"order_item_id" json:"-"`
	PrintSpace  string  `db:"print_space" json:"print_space"`
	Status      string  `db:"status" json:"review_status"`
	Revision    int     `db:"revision" json:"revision"`
	PrintStatus string  `db:"print_status" json:"print_status"`
	PrintError  string  `db:"print_error" json:"print_error"`
	Comment     *string `db:"comment" json:"designer_comment"`
}

// Payment is a payment of the order with its refunds.
type Payment struct {
	ID      int64  `db:"id" json:"id"`
	Gateway string `db:"gateway" json:"gateway"`
	// OwnGateway names the seller's own gateway the buyer paid into ("" for the platform's).
	OwnGateway string      `db:"own_gateway" json:"own_gateway"`
	IntentID   string      `db:"intent_id" json:"intent_id"`
	Amount     money.Money `db:"-" json:"amount"`
	Status     string      `db:"status" json:"status"`
	CreatedAt  time.Time   `db:"created_at" json:"created_at"`
	Refunds    []Refund    `db:"-" json:"refunds"`
	Cents      int64       `db:"amount" json:"-"`
	Currency   string      `db:"currency" json:"-"`
}

// Refund is money given back from a payment: pending until the gateway answers, then succeeded or
// failed (message says why).
type Refund struct {
	ID        int64       `db:"id" json:"id"`
	PaymentID int64       `db:"payment_id" json:"-"`
	Amount    money.Money `db:"-" json:"amount"`
	Status    string      `db:"status" json:"status"`
	Reason    string      `db:"reason" json:"reason"`
	Message   string      `db:"message" json:"message"`
	CreatedAt time.Time   `db:"created_at" json:"created_at"`
	Cents     int64       `db:"amount" json:"-"`
}

// Shipment is an item sent with its tracking.
type Shipment struct {
	ID          int64      `db:"id" json:"id"`
	OrderItemID int64      `db:"order_item_id" json:"order_item_id"`
	Carrier     string     `db:"carrier" json:"carrier"`
	Tracking    string     `db:"tracking" json:"tracking"`
	TrackingURL string     `db:"tracking_url" json:"tracking_url"`
	ShippedAt   time.Time  `db:"shipped_at" json:"shipped_at"`
	DeliveredAt *time.Time `db:"delivered_at" json:"delivered_at"`
}

// Event is a line of the order's timeline: who did what, when.
type Event struct {
	ID         int64     `db:"id" json:"id"`
	Action     string    `db:"action" json:"action"`
	FromStatus string    `db:"from_status" json:"from_status"`
	ToStatus   string    `db:"to_status" json:"to_status"`
	Actor      string    `db:"actor" json:"actor"`
	ActorName  string    `db:"actor_name" json:"actor_name"`
	Note       string    `db:"note" json:"note"`
	CreatedAt  time.Time `db:"created_at" json:"created_at"`
}

// Detail is an order's page.
type Detail struct {
	Order
	ShippingAddress json.RawMessage `json:"shipping_address"`
	// InvoiceNumber is the order's invoice (commerce/invoices), empty until the order is paid.
	InvoiceNumber  string     `json:"invoice_number"`
	Lines          []Item     `json:"items"`
	Payments       []Payment  `json:"payments"`
	Shipments      []Shipment `json:"shipments"`
	Events         []Event    `json:"events"`
	AllowedActions []string   `json:"allowed_actions"`
}

const orderCols = `o.id, o.number, o.order_type, o.store_id, coalesce(s.name, '') AS store_name, o.email, o.customer_name,
	o.status, o.payment_status, o.fulfillment_status, o.currency, o.subtotal, o.shipping, o.discount, o.tip, o.total,
	o.created_at, o.updated_at, o.address_errors, (SELECT coalesce(sum(i.quantity), 0) FROM order_items i WHERE i.order_id = o.id) AS items`

// scope keeps an account's orders in the stores the caller may see: $1 seller (0: every seller's,
// for admins), $2 whether the caller is limited to some stores, $3 those stores. Deleted orders show
// only when asked for by status.
const scope = `($1 = 0 OR o.seller_id = $1) AND (NOT $2 OR o.store_id = ANY($3))`

// listWhere adds the filters: $4 status, $5 payment, $6 fulfilment, $7 type, $8 store, $9 from,
// $10 to, $11 the search as typed (an order number or a tracking number), $12 an e-mail prefix
// pattern, $13 a name pattern.
const listWhere = `WHERE ` + scope + `
	AND ($4 = '' OR o.status = $4) AND (o.status <> 'deleted' OR $4 = 'deleted')
	AND ($5 = '' OR o.payment_status = $5)
	AND ($6 = '' OR o.fulfillment_status = $6)
	AND ($7 = '' OR o.order_type = $7)
	AND ($8::bigint = 0 OR o.store_id = $8)
	AND ($9::timestamptz IS NULL OR o.created_at >= $9)
	AND ($10::timestamptz IS NULL OR o.created_at < $10)
	AND ($11 = '' OR o.number = $11 OR lower(o.email) LIKE $12 ESCAPE '\' OR o.customer_name ILIKE $13 ESCAPE '\'
		OR EXISTS (SELECT 1 FROM shipments sh JOIN order_items i ON i.id = sh.order_item_id WHERE i.order_id = o.id AND sh.tracking = $11))`

const (
	qList = `SELECT ` + orderCols + ` FROM orders o LEFT JOIN stores s ON s.id = o.store_id
` + listWhere + ` ORDER BY o.id DESC LIMIT $14 OFFSET $15`
	qCount  = `SELECT count(*) FROM orders o ` + listWhere
	qExport = `SELECT ` + orderCols + ` FROM orders o LEFT JOIN stores s ON s.id = o.store_id
` + listWhere + ` ORDER BY o.id DESC`
	qGet = `SELECT ` + orderCols + `, o.shipping_address, coalesce(inv.number, '') AS invoice_number
FROM orders o LEFT JOIN stores s ON s.id = o.store_id LEFT JOIN invoices inv ON inv.order_id = o.id
WHERE ` + scope + ` AND o.id = $4 AND o.status <> 'deleted'`
	qLock     = `SELECT o.id FROM orders o WHERE ` + scope + ` AND o.id = $4 AND o.status <> 'deleted' FOR UPDATE`
	qCurrency = `SELECT o.currency FROM orders o WHERE ` + scope + ` AND o.id = $4 AND o.status <> 'deleted'`
	qItems    = `SELECT id, campaign_id, product_id, product_name, product_type, color, size, quantity, unit_price, personalization
FROM order_items WHERE order_id = $1 ORDER BY id`
	qPrintFiles = `SELECT di.id, di.order_item_id, coalesce(di.print_space->>'name', '') AS print_space, di.status, di.revision,
	di.print_status, di.print_error,
	(SELECT e.comment FROM design_review_events e WHERE e.item_id = di.id AND e.action = 'reject' ORDER BY e.id DESC LIMIT 1) AS comment
FROM design_order_items di JOIN order_items i ON i.id = di.order_item_id WHERE i.order_id = $1 ORDER BY di.id`
	qPayments = `SELECT p.id, p.gateway, COALESCE(g.name, '') AS own_gateway, p.intent_id, p.amount, p.currency, p.status, p.created_at
FROM payments p LEFT JOIN payment_gateways g ON g.id = p.payment_gateway_id WHERE p.order_id = $1 ORDER BY p.id`
	qRefunds = `SELECT r.id, r.payment_id, r.amount, r.status, r.reason, r.message, r.created_at FROM refunds r JOIN payments p ON p.id = r.payment_id
WHERE p.order_id = $1 ORDER BY r.id`
	qShipments = `SELECT sh.id, sh.order_item_id, sh.carrier, sh.tracking, sh.tracking_url, sh.shipped_at, sh.delivered_at
FROM shipments sh JOIN order_items i ON i.id = sh.order_item_id WHERE i.order_id = $1 ORDER BY sh.id`
	qEvents = `SELECT e.id, e.action, e.from_status, e.to_status, e.actor, coalesce(u.name, '') AS actor_name, e.note, e.created_at
FROM order_events e LEFT JOIN users u ON e.actor LIKE 'user:%' AND u.id::text = substr(e.actor, 6)
WHERE e.order_id = $1 ORDER BY e.id`
)

func (f Filter) args(sc listing.Scope) []any {
	return append(sc.Args(), f.Status, f.PaymentStatus, f.FulfillmentStatus, f.OrderType, f.StoreID, f.From, f.To,
		f.Q, listing.Prefix(f.Q), listing.Inside(f.Q))
}

type store struct{ db *sqlx.DB }

func (s store) list(ctx context.Context, sc listing.Scope, f Filter, limit, offset int) ([]Order, int, error) {
	rows := []orderRow{}
	if err := s.db.SelectContext(ctx, &rows, qList, append(f.args(sc), limit, offset)...); err != nil {
		return nil, 0, fmt.Errorf("list orders: %w", err)
	}
	var total int
	if err := s.db.GetContext(ctx, &total, qCount, f.args(sc)...); err != nil {
		return nil, 0, fmt.Errorf("count orders: %w", err)
	}
	out := make([]Order, len(rows))
	for i, r := range rows {
		out[i] = r.order()
	}
	return out, total, nil
}

// export calls each with every order of the filter, newest first, reading them one row at a time.
func (s store) export(ctx context.Context, sc listing.Scope, f Filter, each func(Order) error) error {
	rows, err := s.db.QueryxContext(ctx, qExport, f.args(sc)...)
	if err != nil {
		return fmt.Errorf("export orders: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r orderRow
		if err := rows.StructScan(&r); err != nil {
			return fmt.Errorf("export orders: %w", err)
		}
		if err := each(r.order()); err != nil {
			return err
		}
	}
	return rows.Err()
}

// lock locks order id of the scope until tx ends, or answers ErrNotFound.
func (s store) lock(ctx context.Context, tx *sqlx.Tx, sc listing.Scope, id int64) error {
	var got int64
	err := tx.GetContext(ctx, &got, qLock, append(sc.Args(), id)...)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// currency is the currency of order id of the scope, or ErrNotFound.
func (s store) currency(ctx context.Context, sc listing.Scope, id int64) (money.Currency, error) {
	var cur string
	err := s.db.GetContext(ctx, &cur, qCurrency, append(sc.Args(), id)...)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNotFound
	} else if err != nil {
		return "", fmt.Errorf("order currency: %w", err)
	}
	return money.Currency(cur), nil
}

// detail reads order id of the scope with its items, money, shipments and timeline.
func (s store) detail(ctx context.Context, sc listing.Scope, id int64) (Detail, error) {
	var row struct {
		orderRow
		Address       json.RawMessage `db:"shipping_address"`
		InvoiceNumber string          `db:"invoice_number"`
	}
	if err := s.db.GetContext(ctx, &row, qGet, append(sc.Args(), id)...); errors.Is(err, sql.ErrNoRows) {
		return Detail{}, ErrNotFound
	} else if err != nil {
		return Detail{}, fmt.Errorf("get order: %w", err)
	}
	d := Detail{Order: row.order(), ShippingAddress: row.Address, InvoiceNumber: row.InvoiceNumber, Lines: []Item{}, Payments: []Payment{},
		Shipments: []Shipment{}, Events: []Event{}}
	cur := money.Currency(row.Currency)
	if err := s.db.SelectContext(ctx, &d.Lines, qItems, id); err != nil {
		return Detail{}, fmt.Errorf("order items: %w", err)
	}
	var files []PrintFile
	if err := s.db.SelectContext(ctx, &files, qPrintFiles, id); err != nil {
		return Detail{}, fmt.Errorf("print files: %w", err)
	}
	for i := range d.Lines {
		it := &d.Lines[i]
		it.UnitPrice = money.Money{Amount: it.Price, Currency: cur}
		it.PrintFiles = []PrintFile{}
		for _, f := range files {
			if f.ItemID == it.ID {
				it.PrintFiles = append(it.PrintFiles, f)
			}
		}
	}
	if err := s.db.SelectContext(ctx, &d.Payments, qPayments, id); err != nil {
		return Detail{}, fmt.Errorf("payments: %w", err)
	}
	var refunds []Refund
	if err := s.db.SelectContext(ctx, &refunds, qRefunds, id); err != nil {
		return Detail{}, fmt.Errorf("refunds: %w", err)
	}
	for i := range d.Payments {
		p := &d.Payments[i]
		p.Amount = money.Money{Amount: p.Cents, Currency: money.Currency(p.Currency)}
		p.Refunds = []Refund{}
		for _, r := range refunds {
			if r.PaymentID == p.ID {
				r.Amount = money.Money{Amount: r.Cents, Currency: p.Amount.Currency}
				p.Refunds = append(p.Refunds, r)
			}
		}
	}
	if err := s.db.SelectContext(ctx, &d.Shipments, qShipments, id); err != nil {
		return Detail{}, fmt.Errorf("shipments: %w", err)
	}
	if err := s.db.SelectContext(ctx, &d.Events, qEvents, id); err != nil {
		return Detail{}, fmt.Errorf("order events: %w", err)
	}
	return d, nil
}
