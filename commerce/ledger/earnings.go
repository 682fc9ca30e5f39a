package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/pricing"
)

// Line is one order item as the earnings rule reads it, in minor units per unit: BaseCost is the
// base cost of the item's size (pricing.Cost.BaseOf).
type Line struct {
	UnitPrice      int64
	Quantity       int64
	BaseCost       int64
	ExtraPrintCost int64
}

// OrderFacts are what an order's earnings are computed from.
type OrderFacts struct {
	Lines []Line
	// Discount is what the buyer was given off; Total what the buyer paid.
	Discount, Total int64
}

// Earnings break an order's earnings down, in minor units: Net = Sale − BaseCost − ExtraPrint − Fee
// − Discount (negative when the costs pass the price).
type Earnings struct {
	Sale, BaseCost, ExtraPrint, Fee, Discount, Net int64
}

// Compute is the earnings rule (docs/money.md): the items' sale price, less their base cost and
// extra print cost, the processing fee (pricing.Fees.On what the buyer paid) and the discount.
func Compute(o OrderFacts, f pricing.Fees) Earnings {
	var e Earnings
	for _, l := range o.Lines {
		e.Sale += l.UnitPrice * l.Quantity
		e.BaseCost += l.BaseCost * l.Quantity
		e.ExtraPrint += l.ExtraPrintCost * l.Quantity
	}
	e.Fee = f.On(o.Total)
	e.Discount = o.Discount
	e.Net = e.Sale - e.BaseCost - e.ExtraPrint - e.Fee - e.Discount
	return e
}

// PlatformShare is what the platform is owed for an order the seller collected themselves, paid into
// their own account through their gateway: everything the buyer paid beyond the seller's earnings,
// that is the base cost, the extra print cost, the processing fee, the shipping and the tip
// (docs/money.md). Either way the seller ends with the order's net earnings.
func (e Earnings) PlatformShare(total int64) int64 { return total - e.Net }

// RefundShare splits a refund of amount between the seller, who bears it up to share (what the
// order still earns them), and the platform, which bears the rest: the rule of every refund,
// whichever account the buyer paid into.
func RefundShare(amount, share int64) (seller, platform int64) {
	seller = min(amount, max(share, 0))
	return seller, amount - seller
}

// orderRow is what the ledger reads of an order.
type orderRow struct {
	ID       int64          `db:"id"`
	SellerID int64          `db:"seller_id"`
	Number   string         `db:"number"`
	Currency money.Currency `db:"currency"`
	Discount int64          `db:"discount"`
	Total    int64          `db:"total"`
	// OwnAccount: the buyer paid into the seller's own account (a payment through the seller's
	// gateway), not the platform's.
	OwnAccount bool `db:"own_account"`
}

// ErrNoOrder: the order (or the refund's order) does not exist.
var ErrNoOrder = errors.New("no such order")

func loadOrder(ctx context.Context, tx *sqlx.Tx, id int64) (orderRow, error) {
	var o orderRow
	const q = `SELECT o.id, o.seller_id, o.number, o.currency, o.discount, o.total,
	EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id AND p.payment_gateway_id IS NOT NULL) AS own_account
FROM orders o WHERE o.id = $1`
	err := tx.GetContext(ctx, &o, q, id)
	if errors.Is(err, sql.ErrNoRows) {
		return orderRow{}, fmt.Errorf("%w: %d", ErrNoOrder, id)
	}
	return o, err
}

// orderFacts reads an order's lines with their costs (pricing.Costs): the base cost of the item's
// size and the extra print cost of its product's designed print spaces, as the seller's pricing
// screen shows them. An item whose product is gone costs nothing.
func orderFacts(ctx context.Context, tx *sqlx.Tx, o orderRow) (OrderFacts, error) {
	const q = `SELECT unit_price, quantity, coalesce(product_id, 0) AS product_id, size FROM order_items WHERE order_id = $1 ORDER BY id`
	var rows []struct {
		UnitPrice int64  `db:"unit_price"`
		Quantity  int64  `db:"quantity"`
		ProductID int64  `db:"product_id"`
		Size      string `db:"size"`
	}
	if err := tx.SelectContext(ctx, &rows, q, o.ID); err != nil {
		return OrderFacts{}, fmt.Errorf("order lines: %w", err)
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ProductID
	}
	costs, err := pricing.Costs(ctx, tx, o.Currency, ids)
	if err != nil {
		return OrderFacts{}, err
	}
	f := OrderFacts{Discount: o.Discount, Total: o.Total}
	for _, r := range rows {
		c := costs[r.ProductID]
		f.Lines = append(f.Lines, Line{UnitPrice: r.UnitPrice, Quantity: r.Quantity, BaseCost: c.BaseOf(c.Size(r.Size)),
			ExtraPrintCost: pricing.ExtraPrintCost(c.ExtraPrint, c.Designed)})
	}
	return f, nil
}

func (o orderRow) money(a int64) string { return money.Money{Amount: a, Currency: o.Currency}.String() }

// describe writes the breakdown of an order's earnings, so the statement explains every cent.
func (o orderRow) describe(e Earnings) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Order %s: sale %s", o.Number, o.money(e.Sale))
	for _, part := range []struct {
		label  string
		amount int64
	}{{"base cost", e.BaseCost}, {"extra print cost", e.ExtraPrint}, {"processing fee", e.Fee}, {"discount", e.Discount}} {
		if part.amount != 0 {
			fmt.Fprintf(&b, " − %s %s", part.label, o.money(part.amount))
		}
	}
	fmt.Fprintf(&b, " = %s, held until the order ships", o.money(e.Net))
	return b.String()
}

// describeCollected writes what the seller owes for an order paid into their own account.
func (o orderRow) describeCollected(e Earnings) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Order %s paid %s into your own payment account: its costs are owed to Pressroom (", o.Number, o.money(o.Total))
	sep := ""
	for _, part := range []struct {
		label  string
		amount int64
	}{{"base cost", e.BaseCost}, {"extra print cost", e.ExtraPrint}, {"processing fee", e.Fee},
		{"shipping and tip", e.PlatformShare(o.Total) - e.BaseCost - e.ExtraPrint - e.Fee}} {
		if part.amount != 0 {
			fmt.Fprintf(&b, "%s%s %s", sep, part.label, o.money(part.amount))
			sep = " + "
		}
	}
	fmt.Fprintf(&b, ") = %s; your earnings of %s are in your account", o.money(e.PlatformShare(o.Total)), o.money(e.Net))
	return b.String()
}

// debit splits taking amount from the seller: first from held (up to fromHeld), then available,
// the rest owed.
func debit(b Balance, amount, fromHeld int64) (dHeld, dAvailable, dOwed int64) {
	h := min(amount, max(fromHeld, 0), b.Held)
	a := min(amount-h, b.Available)
	return -h, -a, amount - h - a
}

// BookSale books a paid order's earnings as held, in the transaction that records the payment
// (key "sale:order:<id>": booking again changes nothing). Earnings below zero are taken from the
// seller's balance like a refund. An order earning exactly zero books nothing. An order the seller
// collected in their own account books what they owe the platform instead (Earnings.PlatformShare, a
// "fulfill" entry), taken from the available balance, the rest owed.
func BookSale(ctx context.Context, tx *sqlx.Tx, orderID int64) (Entry, error) {
	key := "sale:order:" + strconv.FormatInt(orderID, 10)
	if old, err := byKey(ctx, tx, key); err != nil || old != nil {
		return deref(old), err
	}
	o, err := loadOrder(ctx, tx, orderID)
	if err != nil {
		return Entry{}, err
	}
	facts, err := orderFacts(ctx, tx, o)
	if err != nil {
		return Entry{}, err
	}
	fees, err := pricing.LoadFees(ctx, tx, o.Currency)
	if err != nil {
		return Entry{}, err
	}
	earn := Compute(facts, fees)
	if o.OwnAccount && earn.PlatformShare(o.Total) == 0 || !o.OwnAccount && earn.Net == 0 {
		return Entry{}, nil
	}
	b, done, err := lockFor(ctx, tx, key, o.SellerID, o.Currency)
	if err != nil || done != nil {
		return deref(done), err
	}
	e := Entry{SellerID: o.SellerID, Currency: o.Currency, Type: TypeSale, OrderID: &o.ID, Key: key, Description: o.describe(earn)}
	if o.OwnAccount {
		e.Type, e.Description = TypeFulfill, o.describeCollected(earn)
		_, e.DAvailable, e.DOwed = debit(b, earn.PlatformShare(o.Total), 0)
	} else if earn.Net > 0 {
		e.DHeld = earn.Net
	} else {
		_, e.DAvailable, e.DOwed = debit(b, -earn.Net, 0)
	}
	e, err = post(ctx, tx, b, e)
	return e, err
}

// lockFor locks the seller's balance for the operation named key and answers the entry already
// posted under key, if any: the caller checked before locking, but a concurrent call of the same
// operation may have committed while it waited, and what the caller computes from the balance
// must not be computed twice.
func lockFor(ctx context.Context, tx *sqlx.Tx, key string, sellerID int64, c money.Currency) (Balance, *Entry, error) {
	b, err := lock(ctx, tx, sellerID, c)
	if err != nil {
		return Balance{}, nil, err
	}
	done, err := byKey(ctx, tx, key)
	return b, done, err
}

func deref(e *Entry) Entry {
	if e == nil {
		return Entry{}
	}
	return *e
}

// orderSums are what the entries of one order add up to.
type orderSums struct {
	Held int64 `db:"held"`
	Net  int64 `db:"net"`
}

func sumsOf(ctx context.Context, tx *sqlx.Tx, orderID int64) (orderSums, error) {
	var s orderSums
	const q = `SELECT COALESCE(sum(d_held), 0) AS held, COALESCE(sum(d_available + d_held - d_owed), 0) AS net
FROM ledger_entries WHERE order_id = $1 AND type IN ('sale', 'fulfill', 'refund')`
	err := tx.GetContext(ctx, &s, q, orderID)
	return s, err
}

// ReleaseOrder makes what is still held of an order's earnings available, in the transaction that
// ships it (key "release:order:<id>": once per order). Money the seller owes for earlier refunds is
// deducted from it at once, in an entry of its own.
func ReleaseOrder(ctx context.Context, tx *sqlx.Tx, orderID int64) (Entry, error) {
	key := "release:order:" + strconv.FormatInt(orderID, 10)
	if old, err := byKey(ctx, tx, key); err != nil || old != nil {
		return deref(old), err
	}
	o, err := loadOrder(ctx, tx, orderID)
	if err != nil {
		return Entry{}, err
	}
	b, done, err := lockFor(ctx, tx, key, o.SellerID, o.Currency)
	if err != nil || done != nil {
		return deref(done), err
	}
	s, err := sumsOf(ctx, tx, orderID)
	if err != nil || s.Held <= 0 {
		return Entry{}, err
	}
	e := Entry{SellerID: o.SellerID, Currency: o.Currency, Type: TypeSale, OrderID: &o.ID, DHeld: -s.Held, DAvailable: s.Held,
		Key: key, Description: fmt.Sprintf("Order %s shipped: %s of earnings available", o.Number, o.money(s.Held))}
	return credit(ctx, tx, b, e)
}

// BookRefund takes a refund back from the seller, in the transaction that records it (key
// "refund:<id>"): the amount refunded, up to what the order still earns, first from the order's
// held earnings, then from the available balance; what those do not cover (the earnings were paid
// out) is owed and deducted from the next money that becomes available, which the entry says. A
// refund of an order the seller collected went back from the seller's own account: the seller
// bears the same share as above, and the platform gives the rest back to the seller's balance.
func BookRefund(ctx context.Context, tx *sqlx.Tx, refundID int64) (Entry, error) {
	key := "refund:" + strconv.FormatInt(refundID, 10)
	if old, err := byKey(ctx, tx, key); err != nil || old != nil {
		return deref(old), err
	}
	var r struct {
		Amount  int64         `db:"amount"`
		OrderID sql.NullInt64 `db:"order_id"`
	}
	const q = `SELECT r.amount, p.order_id FROM refunds r JOIN payments p ON p.id = r.payment_id WHERE r.id = $1`
	if err := tx.GetContext(ctx, &r, q, refundID); errors.Is(err, sql.ErrNoRows) || (err == nil && !r.OrderID.Valid) {
		return Entry{}, fmt.Errorf("%w: refund %d", ErrNoOrder, refundID)
	} else if err != nil {
		return Entry{}, err
	}
	o, err := loadOrder(ctx, tx, r.OrderID.Int64)
	if err != nil {
		return Entry{}, err
	}
	b, done, err := lockFor(ctx, tx, key, o.SellerID, o.Currency)
	if err != nil || done != nil {
		return deref(done), err
	}
	s, err := sumsOf(ctx, tx, o.ID)
	if err != nil {
		return Entry{}, err
	}
	if o.OwnAccount {
		return bookCollectedRefund(ctx, tx, b, o, refundID, r.Amount, s)
	}
	take, _ := RefundShare(r.Amount, s.Net)
	if take <= 0 {
		return Entry{}, nil
	}
	e := Entry{SellerID: o.SellerID, Currency: o.Currency, Type: TypeRefund, OrderID: &o.ID, RefundID: &refundID, Key: key}
	e.DHeld, e.DAvailable, e.DOwed = debit(b, take, s.Held)
	e.Description = fmt.Sprintf("Refund of %s on order %s", o.money(r.Amount), o.Number)
	if e.DOwed > 0 {
		e.Description += fmt.Sprintf(": %s was already paid out and is deducted from your next earnings", o.money(e.DOwed))
	}
	e, err = post(ctx, tx, b, e)
	return e, err
}

// bookCollectedRefund is BookRefund of an order the seller collected: what the order still earns the
// seller is what they took in, less the refunds given back before, less what they owe for it (the
// order's entries, s.Net); the platform's share of this refund is added to their balance.
func bookCollectedRefund(ctx context.Context, tx *sqlx.Tx, b Balance, o orderRow, refundID, amount int64, s orderSums) (Entry, error) {
	var before int64
	const q = `SELECT COALESCE(sum(r.amount), 0) FROM refunds r JOIN payments p ON p.id = r.payment_id
WHERE p.order_id = $1 AND r.status = 'succeeded' AND r.id <> $2`
	if err := tx.GetContext(ctx, &before, q, o.ID, refundID); err != nil {
		return Entry{}, err
	}
	_, back := RefundShare(amount, o.Total-before+s.Net)
	if back <= 0 {
		return Entry{}, nil
	}
	e := Entry{SellerID: o.SellerID, Currency: o.Currency, Type: TypeRefund, OrderID: &o.ID, RefundID: &refundID,
		DAvailable: back, Key: "refund:" + strconv.FormatInt(refundID, 10),
		Description: fmt.Sprintf("Refund of %s on order %s from your own payment account: Pressroom gives back %s of its costs",
			o.money(amount), o.Number, o.money(back))}
	return credit(ctx, tx, b, e)
}

// TopUp adds money the seller paid in (a gateway's payment named by reference, key
// "topup:<reference>") to the available balance.
func TopUp(ctx context.Context, tx *sqlx.Tx, sellerID int64, amount money.Money, reference string) (Entry, error) {
	if err := positive(amount); err != nil {
		return Entry{}, err
	}
	e := Entry{SellerID: sellerID, Currency: amount.Currency, Type: TypeTopup, DAvailable: amount.Amount, Reference: reference,
		Key: "topup:" + reference, Description: "Balance top-up of " + amount.String()}
	return postCredit(ctx, tx, e)
}

// postCredit is Post for an entry adding to available (see credit).
func postCredit(ctx context.Context, tx *sqlx.Tx, e Entry) (Entry, error) {
	e, _, err := postOnce(ctx, tx, e, credit)
	return e, err
}

// positive refuses amounts that are not a positive amount of a known currency within range.
func positive(m money.Money) error {
	if _, err := money.New(m.Amount, m.Currency); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if m.Amount == 0 {
		return invalid("the amount must be more than zero")
	}
	return nil
}

// Adjustment is an admin's correction of a seller's available balance, with the reason the seller
// reads in the statement.
type Adjustment struct {
	SellerID int64
	// Amount is added (positive) or taken (negative, never below what is available).
	Amount   int64
	Currency money.Currency
	Reason   string
	ActorID  int64
	// Key names the adjustment, so a retried request adjusts once.
	Key string
}

// MaxReason bounds an adjustment's reason.
const MaxReason = 500

// Adjust posts an admin adjustment.
func Adjust(ctx context.Context, tx *sqlx.Tx, a Adjustment) (Entry, error) {
	abs := a.Amount
	if abs < 0 {
		abs = -abs
	}
	if err := positive(money.Money{Amount: abs, Currency: a.Currency}); err != nil {
		return Entry{}, err
	}
	reason := strings.TrimSpace(a.Reason)
	if reason == "" || len(reason) > MaxReason {
		return Entry{}, invalid("the reason must be 1 to %d characters", MaxReason)
	}
	actor := a.ActorID
	e := Entry{SellerID: a.SellerID, Currency: a.Currency, Type: TypeAdmin, DAvailable: a.Amount, ActorID: &actor,
		Key: "admin:" + a.Key, Description: "Adjustment by the Pressroom team: " + reason}
	if a.Amount < 0 {
		e, _, err := Post(ctx, tx, e)
		return e, err
	}
	return postCredit(ctx, tx, e)
}
