package publicapi

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/commerce/orders"
)

// errNotFound means the account has no such row.
var errNotFound = errors.New("not found")

type store struct{ db *sqlx.DB }

// Store is a store as the API answers it.
type Store struct {
	ID           int64     `db:"id" json:"id"`
	Name         string    `db:"name" json:"name"`
	Slug         string    `db:"slug" json:"slug"`
	Currency     string    `db:"currency" json:"currency"`
	TargetMarket string    `db:"target_market" json:"target_market"`
	IsOpen       bool      `db:"is_open" json:"is_open"`
	CreatedAt    time.Time `db:"created_at" json:"created_at"`
}

// Campaign is a campaign as the API answers it; Products only in a campaign's own answer.
type Campaign struct {
	ID        int64     `db:"id" json:"id"`
	Name      string    `db:"name" json:"name"`
	Kind      string    `db:"kind" json:"kind"`
	Status    string    `db:"status" json:"status"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
	UpdatedAt time.Time `db:"updated_at" json:"updated_at"`
	Products  []Product `db:"-" json:"products,omitempty"`
}

// Product is a product of a campaign.
type Product struct {
	ID          int64  `db:"id" json:"id"`
	Name        string `db:"name" json:"name"`
	ProductType string `db:"product_type" json:"product_type"`
	TemplateID  int64  `db:"template_id" json:"template_id"`
}

// Order is an order as the API answers it; amounts are integer minor units of Currency. Items and
// ShippingAddress only in an order's own answer.
type Order struct {
	ID                int64           `db:"id" json:"id"`
	Number            string          `db:"number" json:"number"`
	StoreID           *int64          `db:"store_id" json:"store_id"`
	OrderType         string          `db:"order_type" json:"order_type"`
	Status            string          `db:"status" json:"status"`
	PaymentStatus     string          `db:"payment_status" json:"payment_status"`
	FulfillmentStatus string          `db:"fulfillment_status" json:"fulfillment_status"`
	Email             string          `db:"email" json:"email"`
	CustomerName      string          `db:"customer_name" json:"customer_name"`
	Currency          string          `db:"currency" json:"currency"`
	Subtotal          int64           `db:"subtotal" json:"subtotal"`
	Shipping          int64           `db:"shipping" json:"shipping"`
	Discount          int64           `db:"discount" json:"discount"`
	Tip               int64           `db:"tip" json:"tip"`
	Total             int64           `db:"total" json:"total"`
	CreatedAt         time.Time       `db:"created_at" json:"created_at"`
	UpdatedAt         time.Time       `db:"updated_at" json:"updated_at"`
	ShippingAddress   json.RawMessage `db:"-" json:"shipping_address,omitempty"`
	Items             []Item          `db:"-" json:"items,omitempty"`
}

// Item is a line of an order.
type Item struct {
	ID          int64  `db:"id" json:"id"`
	CampaignID  *int64 `db:"campaign_id" json:"campaign_id"`
	ProductID   *int64 `db:"product_id" json:"product_id"`
	ProductName string `db:"product_name" json:"product_name"`
	ProductType string `db:"product_type" json:"product_type"`
	Color       string `db:"color" json:"color"`
	Size        string `db:"size" json:"size"`
	Quantity    int    `db:"quantity" json:"quantity"`
	UnitPrice   int64  `db:"unit_price" json:"unit_price"`
}

// Shipment is the shipment of an order item.
type Shipment struct {
	ID          int64      `db:"id" json:"id"`
	OrderItemID int64      `db:"order_item_id" json:"order_item_id"`
	Carrier     string     `db:"carrier" json:"carrier"`
	Tracking    string     `db:"tracking" json:"tracking"`
	TrackingURL string     `db:"tracking_url" json:"tracking_url"`
	ShippedAt   time.Time  `db:"shipped_at" json:"shipped_at"`
	DeliveredAt *time.Time `db:"delivered_at" json:"delivered_at"`
}

// page runs a list query: from is the FROM clause with its filter over args ($1 on); q.OrderBy is
// one of the columns ParseListQuery allowed, so it is safe to write into the query. The page's rows
// come with the count of all rows in one statement; only a page past the end (no rows to carry the
// count) asks for the count apart.
func page[T any](ctx context.Context, db *sqlx.DB, columns, from string, args []any, q envelope.ListQuery) (envelope.Page[T], error) {
	dir := "DESC"
	if q.OrderAsc {
		dir = "ASC"
	}
	n := len(args)
	query := fmt.Sprintf(`SELECT %s, count(*) OVER () AS total_rows %s ORDER BY %s %s, id %s LIMIT $%d OFFSET $%d`,
		columns, from, q.OrderBy, dir, dir, n+1, n+2)
	res, err := db.QueryxContext(ctx, query, append(args, q.PerPage, q.Offset())...)
	if err != nil {
		return envelope.Page[T]{}, fmt.Errorf("list: %w", err)
	}
	defer res.Close()
	cols, err := res.Columns()
	if err != nil {
		return envelope.Page[T]{}, fmt.Errorf("list: %w", err)
	}
	var rows []T
	total := 0
	for res.Next() {
		var row T
		fields := db.Mapper.FieldMap(reflect.ValueOf(&row))
		dest := make([]any, len(cols))
		for i, c := range cols {
			if c == "total_rows" {
				dest[i] = &total
				continue
			}
			f, ok := fields[c]
			if !ok {
				return envelope.Page[T]{}, fmt.Errorf("list: no field for column %s", c)
			}
			dest[i] = f.Addr().Interface()
		}
		if err := res.Scan(dest...); err != nil {
			return envelope.Page[T]{}, fmt.Errorf("list: %w", err)
		}
		rows = append(rows, row)
	}
	if err := res.Err(); err != nil {
		return envelope.Page[T]{}, fmt.Errorf("list: %w", err)
	}
	if len(rows) == 0 && q.Offset() > 0 {
		if err := db.GetContext(ctx, &total, `SELECT count(*) `+from, args...); err != nil {
			return envelope.Page[T]{}, fmt.Errorf("count: %w", err)
		}
	}
	return envelope.NewPage(rows, total, q), nil
}

func (s store) stores(ctx context.Context, seller int64, q envelope.ListQuery) (envelope.Page[Store], error) {
	const from = `FROM stores WHERE owner_id = $1 AND ($2 = '' OR name ILIKE $3 ESCAPE '\')`
	return page[Store](ctx, s.db, `id, name, slug, currency, target_market, is_open, created_at`, from,
		[]any{seller, q.Q, listing.Inside(q.Q)}, q)
}

func (s store) campaigns(ctx context.Context, seller int64, status string, q envelope.ListQuery) (envelope.Page[Campaign], error) {
	const from = `FROM campaigns WHERE user_id = $1 AND ($2 = '' OR name ILIKE $3 ESCAPE '\') AND ($4 = '' OR status = $4)`
	return page[Campaign](ctx, s.db, `id, name, kind, status, created_at, updated_at`, from,
		[]any{seller, q.Q, listing.Inside(q.Q), status}, q)
}

func (s store) campaign(ctx context.Context, seller, id int64) (Campaign, error) {
	var c Campaign
	err := s.db.GetContext(ctx, &c, `SELECT id, name, kind, status, created_at, updated_at FROM campaigns WHERE id = $1 AND user_id = $2`, id, seller)
	if errors.Is(err, sql.ErrNoRows) {
		return Campaign{}, errNotFound
	}
	if err != nil {
		return Campaign{}, fmt.Errorf("campaign: %w", err)
	}
	c.Products = []Product{}
	const q = `SELECT id, name, product_type, template_id FROM campaign_products WHERE campaign_id = $1 ORDER BY position, id`
	if err := s.db.SelectContext(ctx, &c.Products, q, id); err != nil {
		return Campaign{}, fmt.Errorf("campaign products: %w", err)
	}
	return c, nil
}

const orderColumns = `id, number, store_id, order_type, status, payment_status, fulfillment_status, email, customer_name,
	currency, subtotal, shipping, discount, tip, total, created_at, updated_at`

// orders lists the account's orders; deleted ones are gone from the API as from the screens.
func (s store) orders(ctx context.Context, seller int64, f orderFilter, q envelope.ListQuery) (envelope.Page[Order], error) {
	const from = `FROM orders WHERE seller_id = $1 AND status <> 'deleted'
	AND ($2 = '' OR number ILIKE $3 ESCAPE '\' OR email ILIKE $3 ESCAPE '\')
	AND ($4 = '' OR status = $4) AND ($5 = 0 OR store_id = $5)`
	return page[Order](ctx, s.db, orderColumns, from, []any{seller, q.Q, listing.Inside(q.Q), f.status, f.storeID}, q)
}

func (s store) order(ctx context.Context, seller, id int64) (Order, error) {
	var o struct {
		Order
		Address []byte `db:"shipping_address"`
	}
	err := s.db.GetContext(ctx, &o, `SELECT `+orderColumns+`, shipping_address FROM orders WHERE id = $1 AND seller_id = $2 AND status <> 'deleted'`, id, seller)
	if errors.Is(err, sql.ErrNoRows) {
		return Order{}, errNotFound
	}
	if err != nil {
		return Order{}, fmt.Errorf("order: %w", err)
	}
	out := o.Order
	out.ShippingAddress = o.Address
	out.Items = []Item{}
	const q = `SELECT id, campaign_id, product_id, product_name, product_type, color, size, quantity, unit_price
	FROM order_items WHERE order_id = $1 ORDER BY id`
	if err := s.db.SelectContext(ctx, &out.Items, q, id); err != nil {
		return Order{}, fmt.Errorf("order items: %w", err)
	}
	return out, nil
}

func (s store) shipments(ctx context.Context, seller, id int64) ([]Shipment, error) {
	var found bool
	err := s.db.GetContext(ctx, &found, `SELECT true FROM orders WHERE id = $1 AND seller_id = $2 AND status <> 'deleted'`, id, seller)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("order: %w", err)
	}
	const q = `SELECT sh.id, sh.order_item_id, sh.carrier, sh.tracking, sh.tracking_url, sh.shipped_at, sh.delivered_at
	FROM shipments sh JOIN order_items i ON i.id = sh.order_item_id WHERE i.order_id = $1 ORDER BY sh.id`
	out := []Shipment{}
	if err := s.db.SelectContext(ctx, &out, q, id); err != nil {
		return nil, fmt.Errorf("shipments: %w", err)
	}
	return out, nil
}

// cancel moves the account's order id to cancelled in one transaction holding the order; a move
// the state machine refuses wraps orders.ErrRefused and changes nothing.
func (s store) cancel(ctx context.Context, seller, id int64, actor, note string) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var found int64
	err = tx.GetContext(ctx, &found, `SELECT id FROM orders WHERE id = $1 AND seller_id = $2 AND status <> 'deleted' FOR UPDATE`, id, seller)
	if errors.Is(err, sql.ErrNoRows) {
		return errNotFound
	}
	if err != nil {
		return fmt.Errorf("lock order: %w", err)
	}
	if _, err := orders.Apply(ctx, tx, id, orders.ActionCancel, actor, note); err != nil {
		return err
	}
	return tx.Commit()
}
