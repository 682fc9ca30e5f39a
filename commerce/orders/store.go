package orders

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"strconv"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/money"
)

// ErrNotFound: no order has that id.
var ErrNotFound = errors.New("order not found")

// Item is a line of a new order.
type Item struct {
	CampaignID     int64
	ProductID      int64
	ProductName    string
	ProductType    string
	Color, Size    string
	Quantity       int
	UnitPrice      money.Money
	DesignID       int64 // the main print space's design; 0 without one
	DesignRevision int
	// Personalization is the buyer's texts and images, {"texts": [...], "images": [...]}; nil: none.
	Personalization json.RawMessage
}

// New is an order to create.
type New struct {
	SellerID        int64
	StoreID         int64
	CheckoutID      string // empty: not from a checkout
	Email           string
	CustomerName    string
	ShippingAddress json.RawMessage
	Subtotal        money.Money
	Shipping        money.Money
	Discount        money.Money
	Tip             money.Money
	Total           money.Money
	Items           []Item
}

// Created is a new order's id and number.
type Created struct {
	ID     int64
	Number string
}

const (
	qNextNumber = `
INSERT INTO order_numbers (seller_id, last) VALUES ($1, 1001)
ON CONFLICT (seller_id) DO UPDATE SET last = order_numbers.last + 1
RETURNING last`
	qInsertOrder = `
INSERT INTO orders (seller_id, store_id, checkout_id, number, email, customer_name, shipping_address, currency,
	subtotal, shipping, discount, tip, total, status)
VALUES (:seller_id, :store_id, :checkout_id, :number, :email, :customer_name, :shipping_address, :currency,
	:subtotal, :shipping, :discount, :tip, :total, :status)
RETURNING id`
	qInsertItem = `
INSERT INTO order_items (order_id, campaign_id, product_id, product_name, product_type, color, size, quantity,
	unit_price, design_id, design_revision, personalization)
VALUES ($1, nullif($2, 0), nullif($3, 0), $4, $5, $6, $7, $8, $9, nullif($10, 0), nullif($11, 0), $12)
RETURNING id`
	qInsertEvent = `
INSERT INTO order_events (order_id, action, from_status, to_status, actor, note) VALUES ($1, $2, $3, $4, $5, $6)`
	qSnapshot = `
SELECT status, payment_status, fulfillment_status FROM orders WHERE id = $1 FOR UPDATE`
	qSetStatus    = `UPDATE orders SET status = $2, updated_at = now() WHERE id = $1`
	qPaymentFacts = `
SELECT o.total,
	coalesce(sum(p.amount) FILTER (WHERE p.status = 'succeeded'), 0) AS succeeded,
	coalesce(sum(p.amount) FILTER (WHERE p.status = 'authorized'), 0) AS authorized,
	coalesce(sum(p.amount) FILTER (WHERE p.status = 'pending'), 0) AS pending,
	count(p.id) FILTER (WHERE p.status = 'failed') AS failed,
	count(p.id) FILTER (WHERE p.status = 'canceled') AS canceled,
	coalesce((SELECT sum(r.amount) FROM refunds r JOIN payments rp ON rp.id = r.payment_id
		WHERE rp.order_id = o.id AND r.status = 'succeeded'), 0) AS refunded
FROM orders o LEFT JOIN payments p ON p.order_id = o.id
WHERE o.id = $1 GROUP BY o.id`
	qShipmentFacts = `
SELECT count(*) AS items, count(*) FILTER (WHERE EXISTS (SELECT 1 FROM shipments s WHERE s.order_item_id = i.id)) AS shipped,
	(SELECT address_errors IS NOT NULL FROM orders WHERE id = $1) AS bad_address
FROM order_items i WHERE i.order_id = $1`
	qSetDerived = `UPDATE orders SET payment_status = $2, fulfillment_status = $3, updated_at = now() WHERE id = $1`
)

// Create inserts an order with its items in tx, numbered per seller, in status initial, with an
// order_events row "created". Callers then Refresh the derived statuses once payments are written.
func Create(ctx context.Context, tx *sqlx.Tx, o New, initial State, actor string) (Created, []int64, error) {
	var n int64
	if err := tx.GetContext(ctx, &n, qNextNumber, o.SellerID); err != nil {
		return Created{}, nil, fmt.Errorf("number order: %w", err)
	}
	number := strconv.FormatInt(n, 10)
	addr := o.ShippingAddress
	if addr == nil {
		addr = json.RawMessage(`{}`)
	}
	args := map[string]any{
		"seller_id": o.SellerID, "store_id": nullInt(o.StoreID), "checkout_id": nullString(o.CheckoutID),
		"number": number, "email": o.Email, "customer_name": o.CustomerName, "shipping_address": string(addr),
		"currency": string(o.Total.Currency), "subtotal": o.Subtotal.Amount, "shipping": o.Shipping.Amount,
		"discount": o.Discount.Amount, "tip": o.Tip.Amount, "total": o.Total.Amount, "status": string(initial),
	}
	q, params, err := tx.BindNamed(qInsertOrder, args)
	if err != nil {
		return Created{}, nil, err
	}
	var id int64
	if err := tx.GetContext(ctx, &id, q, params...); err != nil {
		return Created{}, nil, fmt.Errorf("insert order: %w", err)
	}
	itemIDs := make([]int64, 0, len(o.Items))
	for _, it := range o.Items {
		p := it.Personalization
		if p == nil {
			p = json.RawMessage(`{"texts":[],"images":[]}`)
		}
		var itemID int64
		if err := tx.GetContext(ctx, &itemID, qInsertItem, id, it.CampaignID, it.ProductID, it.ProductName, it.ProductType,
			it.Color, it.Size, it.Quantity, it.UnitPrice.Amount, it.DesignID, it.DesignRevision, string(p)); err != nil {
			return Created{}, nil, fmt.Errorf("insert order item: %w", err)
		}
		itemIDs = append(itemIDs, itemID)
	}
	if _, err := tx.ExecContext(ctx, qInsertEvent, id, "created", "", string(initial), actor, ""); err != nil {
		return Created{}, nil, fmt.Errorf("order event: %w", err)
	}
	if err := emit(ctx, tx, id, EventCreated, nil); err != nil {
		return Created{}, nil, err
	}
	return Created{ID: id, Number: number}, itemIDs, nil
}

// Load reads an order's statuses, locking its row until tx ends.
func Load(ctx context.Context, tx *sqlx.Tx, id int64) (Snapshot, error) {
	var row struct {
		Status      string `db:"status"`
		Payment     string `db:"payment_status"`
		Fulfillment string `db:"fulfillment_status"`
	}
	if err := tx.GetContext(ctx, &row, qSnapshot, id); errors.Is(err, sql.ErrNoRows) {
		return Snapshot{}, ErrNotFound
	} else if err != nil {
		return Snapshot{}, fmt.Errorf("load order: %w", err)
	}
	return Snapshot{Status: State(row.Status), PaymentStatus: PaymentStatus(row.Payment),
		FulfillmentStatus: FulfillmentStatus(row.Fulfillment)}, nil
}

// Apply moves order id by action a in tx, appending its order_events row, and answers the new
// status; a refused move wraps ErrRefused and changes nothing. A move to another status also writes
// the order.status_changed event, and a hold tells the seller.
func Apply(ctx context.Context, tx *sqlx.Tx, id int64, a Action, actor, note string) (State, error) {
	s, err := Load(ctx, tx, id)
	if err != nil {
		return "", err
	}
	to, err := Next(s, a)
	if err != nil {
		return "", err
	}
	if _, err := tx.ExecContext(ctx, qSetStatus, id, string(to)); err != nil {
		return "", fmt.Errorf("set order status: %w", err)
	}
	if _, err := tx.ExecContext(ctx, qInsertEvent, id, string(a), string(s.Status), string(to), actor, note); err != nil {
		return "", fmt.Errorf("order event: %w", err)
	}
	if to == s.Status {
		return to, nil
	}
	if err := emit(ctx, tx, id, EventStatusChanged, map[string]any{"from_status": s.Status, "action": a}); err != nil {
		return "", err
	}
	if to == OnHold {
		if err := notifyHold(ctx, tx, id, note); err != nil {
			return "", err
		}
	}
	return to, nil
}

// notifyHold tells the seller order id is on hold, and why when the note says.
func notifyHold(ctx context.Context, tx *sqlx.Tx, id int64, note string) error {
	msg := "is on hold: it will not be produced until it is released."
	if note != "" {
		msg += " Note: " + html.EscapeString(note)
	}
	return notifyAboutOrder(ctx, tx, id, "is on hold", msg)
}

// notifyAboutOrder tells order id's seller of it, the subject and the message each after "Order
// <number> ", the notice linking to the order's page.
func notifyAboutOrder(ctx context.Context, tx *sqlx.Tx, id int64, subject, message string) error {
	var o struct {
		SellerID int64  `db:"seller_id"`
		Number   string `db:"number"`
	}
	if err := tx.GetContext(ctx, &o, `SELECT seller_id, number FROM orders WHERE id = $1`, id); err != nil {
		return fmt.Errorf("seller of order %d: %w", id, err)
	}
	return NotifySeller(ctx, tx, o.SellerID, "Order "+o.Number+" "+subject, "Order "+o.Number+" "+message,
		"/orders/detail/"+strconv.FormatInt(id, 10))
}

// Refresh derives the payment and fulfilment statuses of order id from its payments, refunds,
// shipments and the verdict on its shipping address, and stores them: the only writer of those two columns.
func Refresh(ctx context.Context, tx *sqlx.Tx, id int64) (Snapshot, error) {
	var f struct {
		Total      int64 `db:"total"`
		Succeeded  int64 `db:"succeeded"`
		Authorized int64 `db:"authorized"`
		Pending    int64 `db:"pending"`
		Failed     int   `db:"failed"`
		Canceled   int   `db:"canceled"`
		Refunded   int64 `db:"refunded"`
	}
	if err := tx.GetContext(ctx, &f, qPaymentFacts, id); errors.Is(err, sql.ErrNoRows) {
		return Snapshot{}, ErrNotFound
	} else if err != nil {
		return Snapshot{}, fmt.Errorf("payment facts: %w", err)
	}
	var sh struct {
		Items      int  `db:"items"`
		Shipped    int  `db:"shipped"`
		BadAddress bool `db:"bad_address"`
	}
	if err := tx.GetContext(ctx, &sh, qShipmentFacts, id); err != nil {
		return Snapshot{}, fmt.Errorf("shipment facts: %w", err)
	}
	pay := DerivePayment(PaymentFacts(f))
	ful := DeriveFulfillment(sh.Items, sh.Shipped, sh.BadAddress)
	if _, err := tx.ExecContext(ctx, qSetDerived, id, string(pay), string(ful)); err != nil {
		return Snapshot{}, fmt.Errorf("set derived statuses: %w", err)
	}
	return Load(ctx, tx, id)
}

func nullInt(v int64) any {
	if v == 0 {
		return nil
	}
	return v
}

func nullString(v string) any {
	if v == "" {
		return nil
	}
	return v
}
