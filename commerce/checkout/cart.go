package checkout

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/google/uuid"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/commerce/gateways"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/commerce/pricing"
	"github.com/pressroom/pressroom/commerce/stock"
	"github.com/pressroom/pressroom/renderer/design"
)

// Limits of one cart: a buyer's order, never a wholesale one.
const (
	MaxQuantity = 100 // of one line
	MaxLines    = 50
)

// Gateways picks the gateway a store's checkouts pay through (the seller's own account the store
// uses, else the platform's), and finds the one a recorded payment went through by its name
// (commerce/gateways.Resolver).
type Gateways interface {
	ForStore(ctx context.Context, storeID int64) (payments.Gateway, error)
	ByName(ctx context.Context, name string) (payments.Gateway, error)
}

// Deps are what the checkout uses.
type Deps struct {
	DB *sqlx.DB
	// Gateway is the one gateway every store pays through, when Gateways is nil.
	Gateway  payments.Gateway
	Gateways Gateways
}

// Service runs carts and checkouts.
type Service struct {
	db       *sqlx.DB
	gateways Gateways
}

// one is Gateways of a single gateway.
type one struct{ gw payments.Gateway }

func (o one) ForStore(context.Context, int64) (payments.Gateway, error) { return o.gw, nil }

func (o one) ByName(_ context.Context, name string) (payments.Gateway, error) {
	if name != o.gw.Name() {
		return nil, fmt.Errorf("%w: %s", gateways.ErrNotFound, name)
	}
	return o.gw, nil
}

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	switch {
	case d.DB == nil:
		return nil, errors.New("checkout: a database is required")
	case d.Gateways != nil:
		return &Service{db: d.DB, gateways: d.Gateways}, nil
	case d.Gateway != nil:
		return &Service{db: d.DB, gateways: one{d.Gateway}}, nil
	}
	return nil, errors.New("checkout: a gateway is required")
}

// GatewayFor is the gateway the store's checkouts pay through (its pages say "Test mode" when it
// moves no money).
func (s *Service) GatewayFor(ctx context.Context, storeID int64) (payments.Gateway, error) {
	return s.gateways.ForStore(ctx, storeID)
}

// Color is a colour a product comes in.
type Color struct {
	Name string `json:"name"`
	Hex  string `json:"hex"`
}

// Size is a size a product comes in, with its price.
type Size struct {
	Name  string      `json:"name"`
	Price money.Money `json:"price"`
}

// Offer is a product on sale in a store: an active store_products row.
type Offer struct {
	ProductID    int64        `json:"product_id"`
	CampaignID   int64        `json:"campaign_id"`
	CampaignName string       `json:"campaign_name"`
	Name         string       `json:"name"`
	ProductType  string       `json:"product_type"`
	Personalized bool         `json:"personalized"`
	Colors       []Color      `json:"colors"`
	Sizes        []Size       `json:"sizes"`
	Price        money.Money  `json:"price"`
	CompareAt    *money.Money `json:"compare_at_price"`
	// OutOfStock are the colours and sizes that cannot be bought now (docs/stock.md).
	OutOfStock stock.Options `json:"out_of_stock"`
}

// offersFrom is what is on sale in store $1 (an active product of a campaign of the store's owner,
// the store open) and meets and: the columns an Offer is made of, in the order buyers see them, with
// what pricing.Stored.SizePrice prices each size from (the product's price and mode, each size's
// extra cost and, in custom_price mode, its own price).
func offersFrom(and string) string {
	return `
SELECT p.id, p.campaign_id, c.name AS campaign_name, p.name, p.product_type, p.personalized, p.options, p.position,
	sp.price, sp.compare_at_price, sp.currency, sp.price_mode,
	coalesce((SELECT json_agg(json_build_object('name', z.size, 'extra_cost', z.extra_price, 'price', x.price) ORDER BY z.position)
		FROM product_sizes z LEFT JOIN store_product_sizes x
			ON x.store_id = sp.store_id AND x.product_id = sp.product_id AND x.size = z.size
		WHERE z.product_type = p.product_type), '[]') AS sizes
FROM store_products sp
JOIN campaign_products p ON p.id = sp.product_id
JOIN campaigns c ON c.id = sp.campaign_id
JOIN stores s ON s.id = sp.store_id
WHERE sp.store_id = $1 AND sp.status = 'active' AND s.is_open AND c.user_id = s.owner_id` + and + `
ORDER BY p.campaign_id, p.position, p.id`
}

var (
	// qOffers narrows to one product ($2) or one campaign ($3) when either is not 0.
	qOffers = offersFrom(` AND ($2 = 0 OR p.id = $2) AND ($3 = 0 OR p.campaign_id = $3)`)
	// qOfferPage is the page of qOffers after the product at ($3, $4, $5) (campaign, position, id)
	// in their order, of the campaigns $2 (every campaign when empty), $6 long.
	qOfferPage = offersFrom(` AND (coalesce(cardinality($2::bigint[]), 0) = 0 OR p.campaign_id = ANY($2))
	AND (p.campaign_id, p.position, p.id) > ($3, $4, $5)`) + ` LIMIT $6`
)

type offerRow struct {
	ID           int64         `db:"id"`
	CampaignID   int64         `db:"campaign_id"`
	CampaignName string        `db:"campaign_name"`
	Name         string        `db:"name"`
	ProductType  string        `db:"product_type"`
	Personalized bool          `db:"personalized"`
	Options      string        `db:"options"`
	Position     int           `db:"position"`
	Price        int64         `db:"price"`
	CompareAt    sql.NullInt64 `db:"compare_at_price"`
	Currency     string        `db:"currency"`
	Mode         pricing.Mode  `db:"price_mode"`
	Sizes        string        `db:"sizes"`
}

// Offers lists what store sells: of one campaign (campaignID > 0) or one product (productID > 0), or all.
func Offers(ctx context.Context, db sqlx.QueryerContext, storeID, campaignID, productID int64) ([]Offer, error) {
	var rows []offerRow
	if err := sqlx.SelectContext(ctx, db, &rows, qOffers, storeID, productID, campaignID); err != nil {
		return nil, fmt.Errorf("load offers: %w", err)
	}
	return offersOf(ctx, db, rows)
}

// EachOffer calls fn with the offers of the store (of campaigns, all when empty) batch products at a
// time, in the order Offers gives them: memory holds one batch however much the store sells (the
// social feeds, docs/social-feeds.md). An error of fn stops it.
func EachOffer(ctx context.Context, db sqlx.QueryerContext, storeID int64, campaigns []int64, batch int, fn func([]Offer) error) error {
	var after offerRow
	for {
		var rows []offerRow
		err := sqlx.SelectContext(ctx, db, &rows, qOfferPage, storeID, pq.Array(campaigns), after.CampaignID, after.Position, after.ID, batch)
		if err != nil {
			return fmt.Errorf("load offers: %w", err)
		}
		if len(rows) == 0 {
			return nil
		}
		offers, err := offersOf(ctx, db, rows)
		if err != nil {
			return err
		}
		if err := fn(offers); err != nil {
			return err
		}
		if len(rows) < batch {
			return nil
		}
		after = rows[len(rows)-1]
	}
}

// offersOf makes the offers of rows: their colours, their sizes priced (the product's price and
// the size's extra) and what of them is out of stock.
func offersOf(ctx context.Context, db sqlx.QueryerContext, rows []offerRow) ([]Offer, error) {
	out := make([]Offer, 0, len(rows))
	for _, r := range rows {
		o := Offer{ProductID: r.ID, CampaignID: r.CampaignID, CampaignName: r.CampaignName, Name: r.Name,
			ProductType: r.ProductType, Personalized: r.Personalized,
			Price: money.Money{Amount: r.Price, Currency: money.Currency(r.Currency)}}
		if r.CompareAt.Valid && r.CompareAt.Int64 > r.Price {
			o.CompareAt = &money.Money{Amount: r.CompareAt.Int64, Currency: o.Price.Currency}
		}
		var opts struct {
			Colors []Color `json:"colors"`
		}
		if err := json.Unmarshal([]byte(r.Options), &opts); err != nil {
			return nil, fmt.Errorf("product %d options: %w", r.ID, err)
		}
		o.Colors = opts.Colors
		var sizes []sizeRow
		if err := json.Unmarshal([]byte(r.Sizes), &sizes); err != nil {
			return nil, fmt.Errorf("product %d sizes: %w", r.ID, err)
		}
		stored := storedOf(r.Mode, r.Price, sizes)
		for _, z := range sizes {
			o.Sizes = append(o.Sizes, Size{Name: z.Name, Price: money.Money{Amount: stored.SizePrice(z.Size), Currency: o.Price.Currency}})
		}
		out = append(out, o)
	}
	ids := make([]int64, len(out))
	for i, o := range out {
		ids[i] = o.ProductID
	}
	sold, err := stock.Unavailable(ctx, db, ids)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].OutOfStock = sold[out[i].ProductID]
	}
	return out, nil
}

// sizeRow is a size of a product as the queries read it: its extra cost and, in custom_price mode,
// its own price.
type sizeRow struct {
	pricing.Size
	Price *int64 `json:"price"`
}

// storedOf is the product's prices as pricing keeps them.
func storedOf(mode pricing.Mode, price int64, sizes []sizeRow) pricing.Stored {
	s := pricing.Stored{Mode: mode, Price: price, Sizes: map[string]int64{}}
	for _, z := range sizes {
		if z.Price != nil {
			s.Sizes[z.Name] = *z.Price
		}
	}
	return s
}

// AddItem is what a buyer picks: never a price. Personalization holds their answers to the product's
// custom objects (docs/personalization.md).
type AddItem struct {
	ProductID       int64    `json:"product_id"`
	Color           string   `json:"color"`
	Size            string   `json:"size"`
	Quantity        int      `json:"quantity"`
	Personalization []Answer `json:"personalization"`
}

// checkItem finds the offer and checks the colour, the size and the quantity.
func checkItem(ctx context.Context, db sqlx.QueryerContext, storeID int64, it AddItem) error {
	if it.Quantity < 1 || it.Quantity > MaxQuantity {
		return invalid("quantity", fmt.Sprintf("Choose a quantity from 1 to %d.", MaxQuantity))
	}
	offers, err := Offers(ctx, db, storeID, 0, it.ProductID)
	if err != nil {
		return err
	}
	if it.ProductID <= 0 || len(offers) == 0 {
		return invalid("product_id", "This product is not on sale in this store.")
	}
	o := offers[0]
	var errs []FieldError
	if !slices.ContainsFunc(o.Colors, func(c Color) bool { return c.Name == it.Color }) {
		errs = append(errs, FieldError{Field: "color", Message: "Choose one of the product's colours."})
	}
	if !slices.ContainsFunc(o.Sizes, func(z Size) bool { return z.Name == it.Size }) {
		errs = append(errs, FieldError{Field: "size", Message: "Choose one of the product's sizes."})
	}
	if len(errs) > 0 {
		return &InvalidError{Errors: errs}
	}
	if o.OutOfStock.Has(it.Color, it.Size) {
		return invalid("size", fmt.Sprintf("%s in size %s is out of stock: choose another colour or size.", it.Color, it.Size))
	}
	return nil
}

// markStock marks the lines whose colour and size is out of stock now.
func markStock(ctx context.Context, db sqlx.QueryerContext, lines []Line) error {
	ids := make([]int64, len(lines))
	for i, l := range lines {
		ids[i] = l.ProductID
	}
	sold, err := stock.Unavailable(ctx, db, ids)
	if err != nil {
		return err
	}
	for i, l := range lines {
		lines[i].OutOfStock = sold[l.ProductID].Has(l.Color, l.Size)
	}
	return nil
}

// refuseOutOfStock names each marked line; the cart keeps them for the buyer to remove.
func refuseOutOfStock(lines []Line) error {
	var errs []FieldError
	for _, l := range lines {
		if l.OutOfStock {
			errs = append(errs, FieldError{Field: "cart", Message: fmt.Sprintf(
				"%s — %s in %s, size %s, is out of stock: remove it from your cart to check out.", l.CampaignName, l.Name, l.Color, l.Size)})
		}
	}
	if len(errs) > 0 {
		return &InvalidError{Errors: errs}
	}
	return nil
}

// inStock refuses lines out of stock now: a checkout's lines, saved before a change of stock.
func inStock(ctx context.Context, db sqlx.QueryerContext, lines []Line) error {
	if err := markStock(ctx, db, lines); err != nil {
		return err
	}
	return refuseOutOfStock(lines)
}

// AddToCart adds a line to the buyer's cart, creating the cart when cartID is not one of the
// store's, and answers the cart's id. Adding a line that is there already (the same product, colour,
// size and personalization) adds to its quantity.
func (s *Service) AddToCart(ctx context.Context, storeID int64, cartID string, it AddItem) (string, error) {
	if err := checkItem(ctx, s.db, storeID, it); err != nil {
		return "", err
	}
	pz, err := personalize(ctx, s.db, storeID, it.ProductID, it.Personalization)
	if err != nil {
		return "", err
	}
	pzKey, pzJSON, err := personalizationKey(pz)
	if err != nil {
		return "", err
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	id, err := ensureCart(ctx, tx, storeID, cartID)
	if err != nil {
		return "", err
	}
	var lines, have int
	const qCount = `SELECT count(*),
	coalesce(max(quantity) FILTER (WHERE product_id = $2 AND color = $3 AND size = $4 AND personalization_key = $5), 0)
FROM cart_items WHERE cart_id = $1`
	row := tx.QueryRowxContext(ctx, qCount, id, it.ProductID, it.Color, it.Size, pzKey)
	if err := row.Scan(&lines, &have); err != nil {
		return "", err
	}
	if have == 0 && lines >= MaxLines {
		return "", invalid("product_id", fmt.Sprintf("A cart holds at most %d different items.", MaxLines))
	}
	if have+it.Quantity > MaxQuantity {
		return "", invalid("quantity", fmt.Sprintf("Your cart already has %d of these; at most %d fit in one order.", have, MaxQuantity))
	}
	const qUpsert = `
INSERT INTO cart_items (cart_id, product_id, color, size, quantity, personalization, personalization_key)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (cart_id, product_id, color, size, personalization_key) DO UPDATE SET quantity = cart_items.quantity + excluded.quantity`
	if _, err := tx.ExecContext(ctx, qUpsert, id, it.ProductID, it.Color, it.Size, it.Quantity, pzJSON, pzKey); err != nil {
		return "", fmt.Errorf("add to cart: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE carts SET updated_at = now() WHERE id = $1`, id); err != nil {
		return "", err
	}
	return id, tx.Commit()
}

// ensureCart answers cartID when it is a cart of the store, else a new cart's id.
func ensureCart(ctx context.Context, tx *sqlx.Tx, storeID int64, cartID string) (string, error) {
	if _, err := uuid.Parse(cartID); err == nil {
		var ok bool
		if err := tx.GetContext(ctx, &ok, `SELECT EXISTS (SELECT 1 FROM carts WHERE id = $1 AND store_id = $2)`, cartID, storeID); err != nil {
			return "", err
		}
		if ok {
			return cartID, nil
		}
	}
	id := uuid.NewString()
	if _, err := tx.ExecContext(ctx, `INSERT INTO carts (id, store_id) VALUES ($1, $2)`, id, storeID); err != nil {
		return "", fmt.Errorf("create cart: %w", err)
	}
	return id, nil
}

// SetQuantity changes a line's quantity; 0 removes it.
func (s *Service) SetQuantity(ctx context.Context, storeID int64, cartID string, lineID int64, qty int) error {
	if _, err := uuid.Parse(cartID); err != nil {
		return ErrNotFound
	}
	if qty < 0 || qty > MaxQuantity {
		return invalid("quantity", fmt.Sprintf("Choose a quantity from 0 (remove) to %d.", MaxQuantity))
	}
	q := `UPDATE cart_items i SET quantity = $4 FROM carts c WHERE i.id = $3 AND i.cart_id = c.id AND c.id = $1 AND c.store_id = $2`
	args := []any{cartID, storeID, lineID, qty}
	if qty == 0 {
		q = `DELETE FROM cart_items i USING carts c WHERE i.id = $3 AND i.cart_id = c.id AND c.id = $1 AND c.store_id = $2`
		args = args[:3]
	}
	res, err := s.db.ExecContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("set quantity: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// Line is a cart or checkout line with the price the store asks now.
type Line struct {
	ID             int64       `db:"id" json:"id"`
	ProductID      int64       `db:"product_id" json:"product_id"`
	CampaignID     int64       `db:"campaign_id" json:"campaign_id"`
	Name           string      `db:"name" json:"name"`
	CampaignName   string      `db:"campaign_name" json:"campaign_name"`
	ProductType    string      `db:"product_type" json:"product_type"`
	Personalized   bool        `db:"personalized" json:"personalized"`
	Color          string      `db:"color" json:"color"`
	Size           string      `db:"size" json:"size"`
	Quantity       int         `db:"quantity" json:"quantity"`
	UnitPrice      money.Money `db:"-" json:"unit_price"`
	LineTotal      money.Money `db:"-" json:"line_total"`
	DesignID       int64       `db:"design_id" json:"design_id"`
	DesignRevision int         `db:"design_revision" json:"design_revision"`
	// Personalization is what the buyer typed, chose and uploaded (docs/personalization.md).
	Personalization design.Personalization `db:"-" json:"personalization"`
	// OutOfStock marks a line whose colour and size went out of stock since it was added.
	OutOfStock bool `db:"-" json:"out_of_stock,omitempty"`
	// Warnings are what the buyer should know before paying (a photo that would print blurred).
	Warnings []string `db:"-" json:"warnings,omitempty"`
}

// Cart is a buyer's cart priced now.
type Cart struct {
	ID       string      `json:"id"`
	Lines    []Line      `json:"lines"`
	Count    int         `json:"count"`
	Subtotal money.Money `json:"subtotal"`
}

// qLines reads a cart's lines with what pricing.Stored.SizePrice prices them from (store_products,
// product_sizes and, in custom_price mode, store_product_sizes); lines of products no longer on
// sale, or in a colour or size no longer offered, are left out. The design is the product's main
// print space's (the first by position), with its revision.
const qLines = `
SELECT i.id, p.id AS product_id, p.campaign_id, p.name, c.name AS campaign_name, p.product_type, p.personalized,
	i.color, i.size, i.quantity, i.personalization, sp.price, sp.price_mode, z.extra_price, x.price AS size_price, sp.currency,
	coalesce(d.id, 0) AS design_id, coalesce(d.revision, 0) AS design_revision
FROM cart_items i
JOIN carts k ON k.id = i.cart_id
JOIN store_products sp ON sp.store_id = k.store_id AND sp.product_id = i.product_id AND sp.status = 'active'
JOIN campaign_products p ON p.id = i.product_id
JOIN campaigns c ON c.id = p.campaign_id
JOIN product_sizes z ON z.product_type = p.product_type AND z.size = i.size
LEFT JOIN store_product_sizes x ON x.store_id = sp.store_id AND x.product_id = sp.product_id AND x.size = i.size
LEFT JOIN LATERAL (SELECT d.id, d.revision FROM campaign_designs d WHERE d.product_id = p.id ORDER BY d.id LIMIT 1) d ON true
WHERE i.cart_id = $1 AND k.store_id = $2
	AND EXISTS (SELECT 1 FROM json_array_elements(p.options::json -> 'colors') col WHERE col ->> 'name' = i.color)
ORDER BY i.id`

// Cart reads a cart of the store with today's prices; an unknown id is an empty cart.
func (s *Service) Cart(ctx context.Context, storeID int64, cartID string, currency money.Currency) (Cart, error) {
	return loadCart(ctx, s.db, storeID, cartID, currency)
}

func loadCart(ctx context.Context, db sqlx.QueryerContext, storeID int64, cartID string, currency money.Currency) (Cart, error) {
	cart := Cart{Lines: []Line{}, Subtotal: money.Zero(currency)}
	if _, err := uuid.Parse(cartID); err != nil {
		return cart, nil
	}
	var rows []struct {
		Line
		Personalization []byte       `db:"personalization"`
		Price           int64        `db:"price"`
		Mode            pricing.Mode `db:"price_mode"`
		Extra           int64        `db:"extra_price"`
		SizePrice       *int64       `db:"size_price"`
		Currency        string       `db:"currency"`
	}
	if err := sqlx.SelectContext(ctx, db, &rows, qLines, cartID, storeID); err != nil {
		return cart, fmt.Errorf("load cart: %w", err)
	}
	cart.ID = cartID
	for _, r := range rows {
		l := r.Line
		if money.Currency(r.Currency) != currency {
			continue // published before the store changed currency: not on sale until re-priced
		}
		z := pricing.Size{Name: l.Size, Extra: r.Extra}
		stored := storedOf(r.Mode, r.Price, []sizeRow{{Size: z, Price: r.SizePrice}})
		l.UnitPrice = money.Money{Amount: stored.SizePrice(z), Currency: currency}
		if err := json.Unmarshal(r.Personalization, &l.Personalization); err != nil {
			return cart, fmt.Errorf("cart line %d personalization: %w", l.ID, err)
		}
		var err error
		if l.LineTotal, err = l.UnitPrice.Times(l.Quantity); err != nil {
			return cart, err
		}
		if cart.Subtotal, err = cart.Subtotal.Add(l.LineTotal); err != nil {
			return cart, err
		}
		cart.Count += l.Quantity
		cart.Lines = append(cart.Lines, l)
	}
	if err := markStock(ctx, db, cart.Lines); err != nil {
		return cart, err
	}
	return cart, lineWarnings(ctx, db, cart.Lines)
}
