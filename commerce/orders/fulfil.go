package orders

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/commerce/ledger"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/worker/tasks"
)

// Parcel is tracking for some of an order's items: the carrier, its tracking number and the page
// where the buyer follows it. No items means every item of the order.
type Parcel struct {
	Carrier     string
	Tracking    string
	TrackingURL string
	ItemIDs     []int64
}

// Shipped is what Ship and Deliver did: Changed is false when the call changed nothing (the same
// tracking sent again, items already delivered), Items the items whose shipment changed.
type Shipped struct {
	Changed bool
	Status  State
	Items   []int64
}

// ErrNotItems: some item ids are not items of the order.
var ErrNotItems = errors.New("not items of this order")

const (
	qOrderItems = `SELECT id FROM order_items WHERE order_id = $1 AND (coalesce(cardinality($2::bigint[]), 0) = 0 OR id = ANY($2)) ORDER BY id`
	// qShip records each item's parcel. An item already shipped keeps its shipped_at and delivered_at
	// (a late update never unships or undelivers it); only a different carrier or tracking is written.
	qShip = `
INSERT INTO shipments (order_item_id, carrier, tracking, tracking_url, actor)
SELECT unnest($1::bigint[]), $2, $3, $4, $5
ON CONFLICT (order_item_id) DO UPDATE SET carrier = EXCLUDED.carrier, tracking = EXCLUDED.tracking,
	tracking_url = EXCLUDED.tracking_url, actor = EXCLUDED.actor, updated_at = now()
WHERE (shipments.carrier, shipments.tracking, shipments.tracking_url)
	IS DISTINCT FROM (EXCLUDED.carrier, EXCLUDED.tracking, EXCLUDED.tracking_url)
RETURNING order_item_id`
	qDeliver = `
UPDATE shipments SET delivered_at = now(), updated_at = now(), actor = $3
WHERE order_item_id = ANY($2::bigint[]) AND delivered_at IS NULL
	AND order_item_id IN (SELECT id FROM order_items WHERE order_id = $1)
RETURNING order_item_id`
)

// items answers order id's items among want (all of them when want is empty), or ErrNotItems.
func items(ctx context.Context, tx *sqlx.Tx, id int64, want []int64) ([]int64, error) {
	var got []int64
	if err := tx.SelectContext(ctx, &got, qOrderItems, id, pq.Array(want)); err != nil {
		return nil, fmt.Errorf("order items: %w", err)
	}
	if len(got) == 0 || len(want) > 0 && len(got) != len(unique(want)) {
		return nil, ErrNotItems
	}
	return got, nil
}

func unique(ids []int64) map[int64]bool {
	m := map[int64]bool{}
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// Ship records parcel p for order id in tx, the order's row locked: the items' shipments, the
// derived fulfilment status, the "ship" event (a pending order moves to processing), the
// order.tracking_changed event, and "complete" once every item has shipped. The same tracking sent
// again changes nothing and writes nothing. A refused ship (a cancelled order, one on hold) wraps
// ErrRefused. The buyer's shipping e-mail is queued once per tracking number.
// The order's held earnings become available in the same transaction (ledger.ReleaseOrder).
func Ship(ctx context.Context, tx *sqlx.Tx, id int64, p Parcel, actor string) (Shipped, error) {
	s, err := Load(ctx, tx, id)
	if err != nil {
		return Shipped{}, err
	}
	if _, err := Next(s, ActionShip); err != nil {
		return Shipped{}, err
	}
	its, err := items(ctx, tx, id, p.ItemIDs)
	if err != nil {
		return Shipped{}, err
	}
	var changed []int64
	if err := tx.SelectContext(ctx, &changed, qShip, pq.Array(its), p.Carrier, p.Tracking, p.TrackingURL, actor); err != nil {
		return Shipped{}, fmt.Errorf("record shipments: %w", err)
	}
	if len(changed) == 0 {
		return Shipped{Status: s.Status}, nil
	}
	if _, err := Refresh(ctx, tx, id); err != nil {
		return Shipped{}, err
	}
	note := strings.TrimSpace(p.Carrier + " " + p.Tracking)
	to, err := Apply(ctx, tx, id, ActionShip, actor, note)
	if err != nil {
		return Shipped{}, err
	}
	// The seller's earnings of the order become available with its first parcel (docs/money.md).
	if _, err := ledger.ReleaseOrder(ctx, tx, id); err != nil {
		return Shipped{}, fmt.Errorf("release earnings: %w", err)
	}
	if err := emitTracking(ctx, tx, id); err != nil {
		return Shipped{}, err
	}
	if err := queueShippingMail(ctx, tx, id, p.Tracking); err != nil {
		return Shipped{}, err
	}
	if now, err := Load(ctx, tx, id); err != nil {
		return Shipped{}, err
	} else if _, err := Next(now, ActionComplete); err == nil {
		if to, err = Apply(ctx, tx, id, ActionComplete, "system", "every item has shipped"); err != nil {
			return Shipped{}, err
		}
	}
	return Shipped{Changed: true, Status: to, Items: changed}, nil
}

// queueShippingMail queues the buyer's shipping e-mail of tracking number tracking in tx, once per
// order and number: a changed URL or carrier for a number already announced sends nothing more.
func queueShippingMail(ctx context.Context, tx *sqlx.Tx, id int64, tracking string) error {
	res, err := tx.ExecContext(ctx, `INSERT INTO shipping_mails (order_id, tracking) VALUES ($1, $2) ON CONFLICT DO NOTHING`, id, tracking)
	if err != nil {
		return fmt.Errorf("shipping mail: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	job, err := tasks.NewShippingMailJob(id, tracking)
	if err != nil {
		return err
	}
	_, err = outbox.Add(ctx, tx, job)
	return err
}

// Deliver marks the shipped items of order id among itemIDs (all when empty) delivered, in tx, with
// the "deliver" event, order.tracking_changed and the buyer's delivery e-mail of the items just
// delivered (with their review links, docs/reviews.md). Items delivered before keep their time; a
// call that delivers nothing new writes nothing.
func Deliver(ctx context.Context, tx *sqlx.Tx, id int64, itemIDs []int64, actor string) (Shipped, error) {
	s, err := Load(ctx, tx, id)
	if err != nil {
		return Shipped{}, err
	}
	if _, err := Next(s, ActionDeliver); err != nil {
		return Shipped{}, err
	}
	its, err := items(ctx, tx, id, itemIDs)
	if err != nil {
		return Shipped{}, err
	}
	var changed []int64
	if err := tx.SelectContext(ctx, &changed, qDeliver, id, pq.Array(its), actor); err != nil {
		return Shipped{}, fmt.Errorf("deliver shipments: %w", err)
	}
	if len(changed) == 0 {
		return Shipped{Status: s.Status}, nil
	}
	to, err := Apply(ctx, tx, id, ActionDeliver, actor, "")
	if err != nil {
		return Shipped{}, err
	}
	if err := emitTracking(ctx, tx, id); err != nil {
		return Shipped{}, err
	}
	job, err := tasks.NewDeliveryMailJob(id, changed)
	if err != nil {
		return Shipped{}, err
	}
	if _, err := outbox.Add(ctx, tx, job); err != nil {
		return Shipped{}, err
	}
	return Shipped{Changed: true, Status: to, Items: changed}, nil
}
