package checkout

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/pricing"
	"github.com/pressroom/pressroom/commerce/promotions"
)

// Input is what a buyer fills in at checkout.
type Input struct {
	Email        string  `json:"email"`
	Address      Address `json:"address"`
	Tip          *int    `json:"tip_percent"` // nil: no tip
	DiscountCode string  `json:"discount_code"`
	// Device is the class of device the checkout is saved from (desktop, mobile, tablet; "" when
	// not known), set by the storefront from the browser, never read from what a buyer sends.
	Device string `json:"-"`
}

// Checkout is a saved checkout with its server-computed totals.
type Checkout struct {
	ID           string         `json:"id"`
	StoreID      int64          `json:"store_id"`
	Email        string         `json:"email"`
	Address      Address        `json:"address"`
	Tip          *int           `json:"tip_percent"`
	DiscountCode string         `json:"discount_code"`
	Lines        []Line         `json:"lines"`
	Totals       pricing.Totals `json:"totals"`
	Status       string         `json:"status"`
	OrderID      int64          `json:"order_id,omitempty"`
	OrderNumber  string         `json:"order_number,omitempty"`
}

// shop is what the checkout needs of a store.
type shop struct {
	SellerID int64  `db:"owner_id"`
	Currency string `db:"currency"`
	Open     bool   `db:"is_open"`
}

func loadShop(ctx context.Context, db sqlx.QueryerContext, storeID int64) (shop, error) {
	var s shop
	err := sqlx.GetContext(ctx, db, &s, `SELECT owner_id, currency, is_open FROM stores WHERE id = $1`, storeID)
	if errors.Is(err, sql.ErrNoRows) {
		return s, ErrNotFound
	}
	return s, err
}

// Save validates the buyer's input against the cart, computes the totals and stores the checkout:
// the cart's open checkout is updated, or a new one made. Every problem comes back at once in an
// *InvalidError, and then nothing is stored.
func (s *Service) Save(ctx context.Context, storeID int64, cartID string, in Input) (Checkout, error) {
	sh, err := loadShop(ctx, s.db, storeID)
	if err != nil {
		return Checkout{}, err
	}
	if !sh.Open {
		return Checkout{}, ErrClosed
	}
	cur := money.Currency(sh.Currency)
	cart, err := loadCart(ctx, s.db, storeID, cartID, cur)
	if err != nil {
		return Checkout{}, err
	}
	if len(cart.Lines) == 0 {
		return Checkout{}, ErrEmptyCart
	}
	if err := refuseOutOfStock(cart.Lines); err != nil {
		return Checkout{}, err
	}
	var errs []FieldError
	if err := checkContact(ctx, s.db, &in.Email, &in.Address); err != nil {
		var inv *InvalidError
		if !errors.As(err, &inv) {
			return Checkout{}, err
		}
		errs = append(errs, inv.Errors...)
	}
	if in.Tip != nil && !validTip(*in.Tip) {
		errs = append(errs, FieldError{Field: "tip_percent", Message: "Choose no tip, or a tip of 0, 2, 5 or 10 %."})
	}
	// A checkout the buyer left (abandoned) is taken up again rather than doubled.
	const qOpen = `SELECT id FROM checkouts WHERE cart_id = $1 AND store_id = $2 AND status IN ('open', 'abandoned') ORDER BY created_at DESC LIMIT 1`
	id := ""
	if err := s.db.GetContext(ctx, &id, qOpen, cart.ID, storeID); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Checkout{}, err
	}
	in.DiscountCode = strings.TrimSpace(in.DiscountCode)
	var disc pricing.Discount
	if in.DiscountCode != "" && len(errs) == 0 {
		code, d, err := promotions.Check(ctx, s.db, id, in.DiscountCode, promoCart(storeID, in.Email, cart.Subtotal, cart.Lines))
		var refused *promotions.RefusedError
		if errors.As(err, &refused) {
			errs = append(errs, FieldError{Field: "discount_code", Message: refused.Message})
		} else if err != nil {
			return Checkout{}, err
		}
		in.DiscountCode, disc = code, d
	}
	if len(errs) > 0 {
		return Checkout{}, &InvalidError{Errors: errs}
	}
	totals, err := priceLines(ctx, s.db, cur, cart.Lines, in, disc)
	if err != nil {
		return Checkout{}, err
	}
	addr, err := json.Marshal(in.Address)
	if err != nil {
		return Checkout{}, err
	}
	lines, err := json.Marshal(cart.Lines)
	if err != nil {
		return Checkout{}, err
	}
	args := map[string]any{"store_id": storeID, "cart_id": cart.ID, "email": in.Email, "address": string(addr),
		"tip": in.Tip, "code": in.DiscountCode, "lines": string(lines), "currency": string(cur),
		"subtotal": totals.Subtotal.Amount, "shipping": totals.Shipping.Amount, "discount": totals.Discount.Amount,
		"tipa": totals.Tip.Amount, "total": totals.Total.Amount, "device": in.Device}
	q := `UPDATE checkouts SET email = :email, address = :address, tip_percent = :tip, discount_code = :code, lines = :lines,
	currency = :currency, subtotal = :subtotal, shipping = :shipping, discount = :discount, tip = :tipa, total = :total,
	device = :device, status = 'open', updated_at = now() WHERE id = :id AND status IN ('open', 'abandoned')`
	if id == "" {
		id = uuid.NewString()
		q = `INSERT INTO checkouts (id, store_id, cart_id, email, address, tip_percent, discount_code, lines, currency,
	subtotal, shipping, discount, tip, total, device)
VALUES (:id, :store_id, :cart_id, :email, :address, :tip, :code, :lines, :currency, :subtotal, :shipping, :discount, :tipa, :total,
	:device)`
	}
	args["id"] = id
	if _, err := s.db.NamedExecContext(ctx, q, args); err != nil {
		return Checkout{}, fmt.Errorf("save checkout: %w", err)
	}
	return s.Get(ctx, storeID, id)
}

// promoCart is what a discount code sees of a checkout's lines.
func promoCart(storeID int64, email string, subtotal money.Money, lines []Line) promotions.Cart {
	c := promotions.Cart{StoreID: storeID, Email: email, Subtotal: subtotal, Lines: make([]promotions.Line, len(lines))}
	for i, l := range lines {
		c.Lines[i] = promotions.Line{CampaignID: l.CampaignID, Total: l.LineTotal}
	}
	return c
}

func validTip(p int) bool {
	for _, t := range pricing.Tips {
		if t == p {
			return true
		}
	}
	return false
}

// priceLines computes the totals of lines shipped to the input's country.
func priceLines(ctx context.Context, db sqlx.QueryerContext, cur money.Currency, lines []Line, in Input, d pricing.Discount) (pricing.Totals, error) {
	types := []string{}
	pl := make([]pricing.Line, len(lines))
	for i, l := range lines {
		types = append(types, l.ProductType)
		pl[i] = pricing.Line{ProductType: l.ProductType, UnitPrice: l.UnitPrice, Quantity: l.Quantity}
	}
	rates, err := pricing.LoadRates(ctx, db, types, pricing.Market(in.Address.Country), cur)
	if err != nil {
		return pricing.Totals{}, err
	}
	return pricing.Compute(cur, pl, rates, in.Tip, d)
}

type checkoutRow struct {
	ID          string         `db:"id"`
	StoreID     int64          `db:"store_id"`
	Email       string         `db:"email"`
	Address     []byte         `db:"address"`
	Tip         sql.NullInt64  `db:"tip_percent"`
	Code        string         `db:"discount_code"`
	Lines       []byte         `db:"lines"`
	Currency    string         `db:"currency"`
	Subtotal    int64          `db:"subtotal"`
	Shipping    int64          `db:"shipping"`
	Discount    int64          `db:"discount"`
	TipAmount   int64          `db:"tip"`
	Total       int64          `db:"total"`
	Status      string         `db:"status"`
	OrderID     sql.NullInt64  `db:"order_id"`
	OrderNumber sql.NullString `db:"order_number"`
}

const qCheckout = `
SELECT k.id, k.store_id, k.email, k.address, k.tip_percent, k.discount_code, k.lines, k.currency, k.subtotal, k.shipping,
	k.discount, k.tip, k.total, k.status, k.order_id, o.number AS order_number
FROM checkouts k LEFT JOIN orders o ON o.id = k.order_id
WHERE k.id = $1 AND k.store_id = $2`

func (r checkoutRow) checkout() (Checkout, error) {
	c := Checkout{ID: r.ID, StoreID: r.StoreID, Email: r.Email, DiscountCode: r.Code, Status: r.Status,
		OrderID: r.OrderID.Int64, OrderNumber: r.OrderNumber.String}
	if r.Tip.Valid {
		t := int(r.Tip.Int64)
		c.Tip = &t
	}
	if err := json.Unmarshal(r.Address, &c.Address); err != nil {
		return c, fmt.Errorf("checkout address: %w", err)
	}
	if err := json.Unmarshal(r.Lines, &c.Lines); err != nil {
		return c, fmt.Errorf("checkout lines: %w", err)
	}
	cur := money.Currency(r.Currency)
	m := func(a int64) money.Money { return money.Money{Amount: a, Currency: cur} }
	c.Totals = pricing.Totals{Subtotal: m(r.Subtotal), Shipping: m(r.Shipping), Discount: m(r.Discount), Tip: m(r.TipAmount), Total: m(r.Total)}
	return c, nil
}

// Get reads a checkout of the store.
func (s *Service) Get(ctx context.Context, storeID int64, id string) (Checkout, error) {
	if _, err := uuid.Parse(id); err != nil {
		return Checkout{}, ErrNotFound
	}
	var r checkoutRow
	if err := s.db.GetContext(ctx, &r, qCheckout, id, storeID); errors.Is(err, sql.ErrNoRows) {
		return Checkout{}, ErrNotFound
	} else if err != nil {
		return Checkout{}, fmt.Errorf("load checkout: %w", err)
	}
	return r.checkout()
}
