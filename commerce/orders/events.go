package orders

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// The events a seller's webhooks can receive, written to event_outbox with the change.
const (
	EventCreated         = "order.created"
	EventStatusChanged   = "order.status_changed"
	EventTrackingChanged = "order.tracking_changed"
)

// qEmit writes one event of an order with its payload: the order as it is now in tx, and extra.
const qEmit = `
INSERT INTO event_outbox (seller_id, order_id, event_type, payload)
SELECT o.seller_id, o.id, $2, jsonb_build_object(
	'event', $2::text, 'order_id', o.id, 'number', o.number, 'store_id', o.store_id, 'order_type', o.order_type,
	'status', o.status, 'payment_status', o.payment_status, 'fulfillment_status', o.fulfillment_status,
	'email', o.email, 'customer_name', o.customer_name,
	'total', jsonb_build_object('amount', o.total, 'currency', o.currency),
	'occurred_at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) || $3::jsonb
FROM orders o WHERE o.id = $1`

// qTracking is an order's shipments as a tracking_changed event carries them.
const qTracking = `
SELECT coalesce(jsonb_agg(jsonb_build_object('order_item_id', sh.order_item_id, 'carrier', sh.carrier,
	'tracking_number', sh.tracking, 'tracking_url', sh.tracking_url, 'shipped_at', sh.shipped_at,
	'delivered_at', sh.delivered_at) ORDER BY sh.order_item_id), '[]')
FROM shipments sh JOIN order_items i ON i.id = sh.order_item_id WHERE i.order_id = $1`

// emit writes event typ of order id to the outbox in tx, its payload the order now plus extra.
func emit(ctx context.Context, tx *sqlx.Tx, id int64, typ string, extra map[string]any) error {
	b, err := json.Marshal(extra)
	if err != nil {
		return err
	}
	if extra == nil {
		b = []byte(`{}`)
	}
	if _, err := tx.ExecContext(ctx, qEmit, id, typ, string(b)); err != nil {
		return fmt.Errorf("order event %s: %w", typ, err)
	}
	return nil
}

// emitTracking writes order id's tracking_changed event with all its shipments.
func emitTracking(ctx context.Context, tx *sqlx.Tx, id int64) error {
	var shipments json.RawMessage
	if err := tx.GetContext(ctx, &shipments, qTracking, id); err != nil {
		return fmt.Errorf("order tracking: %w", err)
	}
	return emit(ctx, tx, id, EventTrackingChanged, map[string]any{"shipments": shipments})
}

// NotifySeller posts an in-app notification to the seller in tx: it exists exactly when the change
// it tells of does. link is a dashboard path.
func NotifySeller(ctx context.Context, tx *sqlx.Tx, sellerID int64, subject, message, link string) error {
	const q = `INSERT INTO notifications (seller_id, subject, message, call_to_action_link, type) VALUES ($1, $2, $3, $4, 1)`
	if _, err := tx.ExecContext(ctx, q, sellerID, subject, message, link); err != nil {
		return fmt.Errorf("notify seller: %w", err)
	}
	return nil
}
