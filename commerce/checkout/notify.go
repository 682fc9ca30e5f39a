package checkout

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/orders"
)

// notifySeller tells the seller of a new order in the dashboard's notifications, in the transaction
// that makes the order: no order without its notice, no notice of an order that did not happen.
func notifySeller(ctx context.Context, tx *sqlx.Tx, sellerID int64, o orders.Created, total money.Money) error {
	const q = `INSERT INTO notifications (seller_id, subject, message, call_to_action_link, type) VALUES ($1, $2, $3, $4, 1)`
	subject := "New order " + o.Number
	msg := fmt.Sprintf("Order %s for %s was paid.", o.Number, total)
	if _, err := tx.ExecContext(ctx, q, sellerID, subject, msg, "/orders"); err != nil {
		return fmt.Errorf("notify seller: %w", err)
	}
	return nil
}
