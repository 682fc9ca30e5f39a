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
	return orders.NotifySeller(ctx, tx, sellerID, "New order "+o.Number, fmt.Sprintf("Order %s for %s was paid.", o.Number, total),
		"/orders")
}
