package checkout

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/jmoiron/sqlx"

	"github.com/lib/pq"
	"github.com/pressroom/pressroom/commerce/invoices"
	"github.com/pressroom/pressroom/commerce/ledger"
	"github.com/pressroom/pressroom/commerce/orders"
	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/commerce/promotions"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// Result is the order a paid checkout made.
type Result struct {
	OrderID int64  `json:"order_id"`
	Number  string `json:"number"`
	// Created is true for the one call that made the order (the one that sends its confirmation).
	Created bool `json:"-"`
}

// idempotencyKey names one payment of a checkout at its total: paying again after the buyer changed
// the cart is another intent, paying twice the same one.
func idempotencyKey(c Checkout) string {
	return "checkout-" + c.ID + "-" + strconv.FormatInt(c.Totals.Total.Amount, 10) + string(c.Totals.Total.Currency)
}

// Pay takes the checkout's total through the gateway and, once it succeeds, completes the checkout.
// Paying a checkout that already has its order answers that order: a double click, a retry or 20
// concurrent confirms make one order and one payment. A line gone out of stock since the checkout
// was saved stops it before the gateway is asked (an *InvalidError on cart naming the line).
func (s *Service) Pay(ctx context.Context, storeID int64, id string) (Result, error) {
	c, err := s.Get(ctx, storeID, id)
	if err != nil {
		return Result{}, err
	}
	if c.OrderID != 0 {
		return Result{OrderID: c.OrderID, Number: c.OrderNumber}, nil
	}
	if c.Status != "open" && c.Status != "abandoned" { // a buyer back after an hour may still pay
		return Result{}, ErrNotFound
	}
	if err := inStock(ctx, s.db, c.Lines); err != nil {
		return Result{}, err
	}
	gw, err := s.GatewayFor(ctx, storeID)
	if err != nil {
		return Result{}, err
	}
	intentID, err := s.knownIntent(ctx, gw, c)
	if err != nil {
		return Result{}, err
	}
	if intentID == "" {
		created, err := s.createIntent(ctx, gw, c)
		if err != nil {
			return Result{}, err
		}
		intentID = created.ID
	}
	intent, err := gw.Confirm(ctx, intentID)
	if err != nil {
		return Result{}, fmt.Errorf("confirm payment: %w", err)
	}
	return s.Complete(ctx, gw, intent)
}

// Return is Stripe sending the buyer back after the browser confirmed intentID: the intent is read
// through the gateway its payment was recorded with, which may no longer be the store's (the seller
// deleted or changed gateways meanwhile), and applied as the webhook would. Without an intent it is
// Pay.
func (s *Service) Return(ctx context.Context, storeID int64, id, intentID string) (Result, error) {
	if intentID == "" {
		return s.Pay(ctx, storeID, id)
	}
	c, err := s.Get(ctx, storeID, id)
	if err != nil {
		return Result{}, err
	}
	if c.OrderID != 0 {
		return Result{OrderID: c.OrderID, Number: c.OrderNumber}, nil
	}
	var name string
	err = s.db.GetContext(ctx, &name, `SELECT gateway FROM payments WHERE checkout_id = $1 AND intent_id = $2`, c.ID, intentID)
	if errors.Is(err, sql.ErrNoRows) {
		return Result{}, fmt.Errorf("%w: payment intent %s", ErrNotFound, intentID)
	} else if err != nil {
		return Result{}, err
	}
	gw, err := s.gateways.ByName(ctx, name)
	if err != nil {
		return Result{}, err
	}
	intent, err := gw.Confirm(ctx, intentID)
	if err != nil {
		return Result{}, fmt.Errorf("read payment: %w", err)
	}
	return s.Complete(ctx, gw, intent)
}

// Complete applies gateway gw's answer about an intent: a succeeded one turns its checkout into an
// order (exactly once), a failed one marks the payment failed (never a succeeded one) and answers
// ErrPaymentFailed.
func (s *Service) Complete(ctx context.Context, gw payments.Gateway, intent payments.Intent) (Result, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return Result{}, err
	}
	defer tx.Rollback()
	r, err := s.complete(ctx, tx, gw, intent)
	if err != nil && !errors.Is(err, ErrPaymentFailed) {
		return Result{}, err
	}
	if cerr := tx.Commit(); cerr != nil {
		return Result{}, cerr
	}
	return r, err
}

// ApplyEvent applies an event gw verified once: an event id seen before from gw changes nothing
// and answers applied false. The event's record and its effect commit together, so a crash in
// between leaves the event to be delivered again. The result names the checkout's order when it has
// one.
func (s *Service) ApplyEvent(ctx context.Context, gw payments.Gateway, ev payments.Event) (r Result, applied bool, err error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return Result{}, false, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO payment_events (gateway, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, gw.Name(), ev.ID)
	if err != nil {
		return Result{}, false, fmt.Errorf("record event: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Result{}, false, nil
	}
	if r, err = s.complete(ctx, tx, gw, ev.Intent); err != nil && !errors.Is(err, ErrPaymentFailed) {
		return Result{}, false, err
	}
	return r, true, tx.Commit()
}

// complete is Complete inside tx. The checkout row is locked first, so concurrent completions of one
// checkout queue up and the later ones find the order made.
func (s *Service) complete(ctx context.Context, tx *sqlx.Tx, gw payments.Gateway, intent payments.Intent) (Result, error) {
	var checkoutID string
	err := tx.GetContext(ctx, &checkoutID, `SELECT checkout_id FROM payments WHERE gateway = $1 AND intent_id = $2 AND checkout_id IS NOT NULL`,
		gw.Name(), intent.ID)
	if errors.Is(err, sql.ErrNoRows) {
		return Result{}, fmt.Errorf("%w: payment intent %s", ErrNotFound, intent.ID)
	} else if err != nil {
		return Result{}, err
	}
	var row checkoutRow
	if err := tx.GetContext(ctx, &row, `SELECT id, store_id FROM checkouts WHERE id = $1 FOR UPDATE`, checkoutID); err != nil {
		return Result{}, fmt.Errorf("lock checkout: %w", err)
	}
	if err := tx.GetContext(ctx, &row, qCheckout, checkoutID, row.StoreID); err != nil {
		return Result{}, fmt.Errorf("load checkout: %w", err)
	}
	c, err := row.checkout()
	if err != nil {
		return Result{}, err
	}
	if c.OrderID != 0 {
		return Result{OrderID: c.OrderID, Number: c.OrderNumber}, nil
	}
	switch intent.Status {
	case payments.StatusSucceeded:
	case payments.StatusFailed, payments.StatusCanceled:
		const q = `UPDATE payments SET status = $3, updated_at = now() WHERE gateway = $1 AND intent_id = $2 AND status IN ('pending', 'authorized')`
		if _, err := tx.ExecContext(ctx, q, gw.Name(), intent.ID, string(intent.Status)); err != nil {
			return Result{}, err
		}
		if err := promotions.Release(ctx, tx, c.ID); err != nil {
			return Result{}, err
		}
		msg := intent.Message
		if msg == "" {
			msg = "the payment did not go through"
		}
		return Result{}, fmt.Errorf("%w: %s", ErrPaymentFailed, msg)
	default:
		return Result{}, fmt.Errorf("%w: the payment is %s", ErrPaymentFailed, intent.Status)
	}
	if intent.Amount != c.Totals.Total {
		return Result{}, fmt.Errorf("payment intent %s is for %s, the checkout totals %s", intent.ID, intent.Amount, c.Totals.Total)
	}
	sh, err := loadShop(ctx, tx, c.StoreID)
	if err != nil {
		return Result{}, err
	}
	addr, err := json.Marshal(c.Address)
	if err != nil {
		return Result{}, err
	}
	n := orders.New{SellerID: sh.SellerID, StoreID: c.StoreID, CheckoutID: c.ID, Email: c.Email, CustomerName: c.Address.Name,
		ShippingAddress: addr, Subtotal: c.Totals.Subtotal, Shipping: c.Totals.Shipping, Discount: c.Totals.Discount,
		Tip: c.Totals.Tip, Total: c.Totals.Total}
	review := false
	for _, l := range c.Lines {
		pz, err := json.Marshal(l.Personalization)
		if err != nil {
			return Result{}, err
		}
		n.Items = append(n.Items, orders.Item{CampaignID: l.CampaignID, ProductID: l.ProductID, ProductName: l.Name,
			ProductType: l.ProductType, Color: l.Color, Size: l.Size, Quantity: l.Quantity, UnitPrice: l.UnitPrice,
			DesignID: l.DesignID, DesignRevision: l.DesignRevision, Personalization: pz})
		review = review || l.Personalized || !l.Personalization.Empty()
	}
	created, itemIDs, err := orders.Create(ctx, tx, n, orders.PendingPayment, "buyer")
	if err != nil {
		return Result{}, err
	}
	const qPaid = `UPDATE payments SET order_id = $3, status = 'succeeded', amount = $4, updated_at = now() WHERE gateway = $1 AND intent_id = $2`
	if _, err := tx.ExecContext(ctx, qPaid, gw.Name(), intent.ID, created.ID, intent.Amount.Amount); err != nil {
		return Result{}, fmt.Errorf("record payment: %w", err)
	}
	if err := promotions.Redeem(ctx, tx, c.StoreID, c.ID, c.DiscountCode, c.Email, created.ID); err != nil {
		return Result{}, err
	}
	if _, err := orders.Refresh(ctx, tx, created.ID); err != nil {
		return Result{}, err
	}
	if _, err := orders.Apply(ctx, tx, created.ID, orders.ActionPay, "gateway:"+gw.Name(), intent.ID); err != nil {
		return Result{}, err
	}
	// The address passed when the buyer entered it; checked again now that the order exists, an
	// address the rules refuse today makes the order wait for the seller (docs/orders.md).
	if err := checkOrderAddress(ctx, tx, created.ID, c.Address); err != nil {
		return Result{}, err
	}
	// Its invoice, numbered now, printed by the renderer (docs/invoices.md).
	if _, err := invoices.Issue(ctx, tx, created.ID); err != nil {
		return Result{}, err
	}
	// The seller's earnings, held until the order ships (docs/money.md).
	if _, err := ledger.BookSale(ctx, tx, created.ID); err != nil {
		return Result{}, fmt.Errorf("book sale: %w", err)
	}
	if review {
		if _, err := orders.Apply(ctx, tx, created.ID, orders.ActionReview, "system", "personalized items"); err != nil {
			return Result{}, err
		}
	}
	if err := queuePrintFiles(ctx, tx, sh.SellerID, created, c.Address.Name, itemIDs); err != nil {
		return Result{}, err
	}
	// Paid after it was abandoned: recovered.
	const qPaidCheckout = `UPDATE checkouts SET status = 'paid', order_id = $2, updated_at = now(),
	recovered_at = CASE WHEN abandoned_at IS NOT NULL THEN now() END WHERE id = $1`
	if _, err := tx.ExecContext(ctx, qPaidCheckout, c.ID, created.ID); err != nil {
		return Result{}, err
	}
	if err := notifySeller(ctx, tx, sh.SellerID, created, c.Totals.Total); err != nil {
		return Result{}, err
	}
	return Result{OrderID: created.ID, Number: created.Number, Created: true}, nil
}

// queuePrintFiles gives each item's designs a print file through the designer review's items: one
// review item per print space, rendered by the renderer's order export from the design document as
// the item was bought, with the buyer's personalization put into it (design.Apply). A
// personalization the design no longer fits (the seller changed it after the buyer filled it) keeps
// the seller's document: the item is in review with the buyer's values beside it
// (docs/personalization.md).
func queuePrintFiles(ctx context.Context, tx *sqlx.Tx, sellerID int64, o orders.Created, customer string, itemIDs []int64) error {
	const qDesigns = `
SELECT i.id AS item_id, i.product_name, i.product_type, i.personalization, d.print_space, d.design_json
FROM order_items i JOIN campaign_designs d ON d.product_id = i.product_id
WHERE i.id = ANY($1) ORDER BY i.id, d.id`
	var rows []struct {
		ItemID          int64  `db:"item_id"`
		ProductName     string `db:"product_name"`
		ProductType     string `db:"product_type"`
		Personalization []byte `db:"personalization"`
		PrintSpace      string `db:"print_space"`
		Design          []byte `db:"design_json"`
	}
	if err := tx.SelectContext(ctx, &rows, qDesigns, pq.Array(itemIDs)); err != nil {
		return fmt.Errorf("order designs: %w", err)
	}
	if len(rows) == 0 {
		return nil
	}
	var reviewOrder int64
	const qOrder = `INSERT INTO design_orders (seller_id, number, customer_name, order_id) VALUES ($1, $2, $3, $4) RETURNING id`
	if err := tx.GetContext(ctx, &reviewOrder, qOrder, sellerID, o.Number, customer, o.ID); err != nil {
		return fmt.Errorf("review order: %w", err)
	}
	const qItem = `
INSERT INTO design_order_items (order_id, order_item_id, product_name, product_type, print_space, personalization, design_json)
VALUES ($1, $2, $3, $4, ($5::jsonb) -> 'printSpace', $6, $5) RETURNING id`
	for _, r := range rows {
		doc, err := personalizedDocument(r.Design, r.PrintSpace, r.Personalization)
		if err != nil {
			return fmt.Errorf("item %d: %w", r.ItemID, err)
		}
		var id int64
		if err := tx.GetContext(ctx, &id, qItem, reviewOrder, r.ItemID, r.ProductName, r.ProductType, string(doc), string(r.Personalization)); err != nil {
			return fmt.Errorf("review item: %w", err)
		}
		job, err := tasks.NewOrderExportJob(id, 1, queue.Default)
		if err != nil {
			return err
		}
		if _, err := outbox.Add(ctx, tx, job); err != nil {
			return err
		}
	}
	return nil
}

// personalizedDocument is the design document an item prints: the design with the buyer's values
// of its print space in place, or the design as it is when there are none or they no longer fit it.
func personalizedDocument(doc []byte, space string, personalization []byte) ([]byte, error) {
	var p design.Personalization
	if err := json.Unmarshal(personalization, &p); err != nil {
		return nil, fmt.Errorf("personalization: %w", err)
	}
	if p.Empty() {
		return doc, nil
	}
	parsed, err := design.Parse(doc)
	if err != nil {
		return doc, nil // the review shows why it cannot be printed
	}
	applied, err := design.Apply(parsed, space, p)
	if errors.Is(err, design.ErrStale) {
		return doc, nil
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(applied)
}
