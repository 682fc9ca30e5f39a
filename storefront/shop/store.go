package shop

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/commerce/storesite"
	"github.com/pressroom/pressroom/renderer/design"
)

// errNotFound: no such store, campaign, page or order here.
var errNotFound = errors.New("not found")

// Store is a seller's store as its pages show it.
type Store struct {
	ID           int64  `db:"id"`
	Slug         string `db:"slug"`
	Name         string `db:"name"`
	Currency     string `db:"currency"`
	PrimaryColor string `db:"primary_color"`
	AccentColor  string `db:"accent_color"`
	Open         bool   `db:"is_open"`
	// ReviewSetting says which reviews product pages show (docs/reviews.md).
	ReviewSetting string `db:"review_setting"`
}

// Listing is a campaign on the store's home page.
type Listing struct {
	CampaignID int64     `db:"campaign_id"`
	Name       string    `db:"name"`
	MinPrice   int64     `db:"min_price"`
	MockupID   int64     `db:"mockup_id"`
	UpdatedAt  time.Time `db:"updated_at"`
}

// Mockup is a picture of a product.
type Mockup struct {
	ID        int64 `db:"id"`
	ProductID int64 `db:"product_id"`
	IsDefault bool  `db:"is_default_mockup"`
	// BaseURL is the mockup without the buyer's objects, which the personalization preview draws
	// over ("" for a design without them); TemplateKey and PrintSpace are its template's.
	BaseURL     string `db:"base_url"`
	TemplateKey string `db:"template_key"`
	PrintSpace  string `db:"print_space"`
}

// Page is a store page.
type Page struct {
	Title    string `db:"title"`
	Slug     string `db:"slug"`
	Body     string `db:"body"`
	Position string `db:"menu_position"`
}

// Collection is a group of the seller's campaigns as a store shows it: in the menu, with its
// featured campaigns on the home page, and at /collections/{slug}.
type Collection struct {
	ID          int64  `db:"id"`
	Slug        string `db:"slug"`
	Name        string `db:"name"`
	Description string `db:"description"`
}

// Featured is a featured campaign of a collection on the home page.
type Featured struct {
	CollectionID int64 `db:"collection_id"`
	Listing
}

// OrderView is what the order status page shows.
type OrderView struct {
	ID                int64     `db:"id"`
	Number            string    `db:"number"`
	Email             string    `db:"email"`
	CustomerName      string    `db:"customer_name"`
	Currency          string    `db:"currency"`
	Subtotal          int64     `db:"subtotal"`
	Shipping          int64     `db:"shipping"`
	Discount          int64     `db:"discount"`
	Tip               int64     `db:"tip"`
	Total             int64     `db:"total"`
	Status            string    `db:"status"`
	PaymentStatus     string    `db:"payment_status"`
	FulfillmentStatus string    `db:"fulfillment_status"`
	CreatedAt         time.Time `db:"created_at"`
	Items             []OrderItemView
}

// OrderItemView is an item on the order status page, with the buyer's personalization.
type OrderItemView struct {
	ProductName     string                 `db:"product_name"`
	Color           string                 `db:"color"`
	Size            string                 `db:"size"`
	Quantity        int                    `db:"quantity"`
	UnitPrice       int64                  `db:"unit_price"`
	PersonalizedAs  []byte                 `db:"personalization"`
	Personalization design.Personalization `db:"-"`
	// Warnings are none on an order: the buyer read them before paying (the cart's template wants the field).
	Warnings []string `db:"-"`
}

// onSale is every campaign on sale in store $1 (and meeting the condition and, "" for none) with
// its lowest price and its picture. A campaign shows in a store while one of its products is active
// there and the store's owner owns it; its picture is its default mockup, chosen as the dashboard
// chooses it. The condition narrows the campaigns before they are grouped and pictured, so a page
// that shows a few of them does not pay for all of the store's.
func onSale(and string) string {
	return `SELECT c.id AS campaign_id, c.name, min(sp.price) AS min_price, coalesce(m.id, 0) AS mockup_id, c.updated_at
FROM store_products sp
JOIN campaigns c ON c.id = sp.campaign_id
JOIN stores s ON s.id = sp.store_id
LEFT JOIN LATERAL (
	SELECT m.id FROM campaign_mockups m JOIN mockup_templates t ON t.id = m.mockup_template_id
	JOIN store_products ap ON ap.product_id = m.product_id AND ap.store_id = sp.store_id AND ap.status = 'active'
	WHERE m.campaign_id = c.id AND m.status = 'done'
	ORDER BY m.default_chosen DESC, m.product_id, m.is_default_mockup DESC, t.position, t.id LIMIT 1
) m ON true
WHERE sp.store_id = $1 AND ` + storesite.ProductOnSale + and + `
GROUP BY c.id, m.id`
}

// shownIn is the collections of store $1's owner that the store shows: those for all the seller's
// stores and those for chosen stores among which it is.
const shownIn = `SELECT k.id, k.slug, k.name, k.description FROM collections k JOIN stores s ON s.id = $1 WHERE ` + storesite.CollectionShown

// SQL of the collections. qCollections is the store's menu: its collections with a campaign on
// sale; qFeatured the featured campaigns of those on sale, in each collection's order;
// qCollection one collection by slug ($2); qInCollection the campaigns of collection $2 on sale,
// the featured ones first in their order, then the newest.
var (
	qCollections = `SELECT k.id, k.slug, k.name, k.description FROM collections k JOIN stores s ON s.id = $1
WHERE ` + storesite.CollectionShown + ` AND ` + storesite.CollectionOnSale + `
ORDER BY lower(k.name), k.id LIMIT 50`
	qFeatured = `WITH f AS (
	SELECT x.collection_id, x.campaign_id, x.featured_position FROM collection_campaigns x
	WHERE x.featured_position IS NOT NULL AND x.collection_id IN (SELECT id FROM (` + shownIn + `) k)
)
SELECT f.collection_id, l.* FROM (` + onSale(` AND c.id IN (SELECT campaign_id FROM f)`) + `) l
JOIN f ON f.campaign_id = l.campaign_id ORDER BY f.collection_id, f.featured_position`
	qCollection   = `SELECT * FROM (` + shownIn + `) k WHERE k.slug = $2`
	qInCollection = `SELECT l.* FROM (` + onSale(` AND c.id IN (SELECT campaign_id FROM collection_campaigns WHERE collection_id = $2)`) + `) l
JOIN collection_campaigns x ON x.collection_id = $2 AND x.campaign_id = l.campaign_id
ORDER BY x.featured_position NULLS LAST, l.campaign_id DESC LIMIT 500`
)

// SQL of the pages. qListings is the store's home; qSuggestions the campaigns the seller's
// cross-selling rules of campaigns $2 suggest, on sale in the store, in the rules' order, without
// campaigns $2 themselves.
var (
	qListings    = `SELECT * FROM (` + onSale("") + `) l ORDER BY campaign_id DESC LIMIT 500`
	qSuggestions = `WITH t AS (
	SELECT t.campaign_id, min(t.position) AS position FROM cross_sell_rules r JOIN cross_sell_targets t ON t.rule_id = r.id
	JOIN stores s ON s.id = $1 AND s.owner_id = r.seller_id
	WHERE r.campaign_id = ANY($2) AND t.campaign_id <> ALL($2) GROUP BY t.campaign_id
)
SELECT l.* FROM (` + onSale(` AND c.id IN (SELECT campaign_id FROM t)`) + `) l
JOIN t ON t.campaign_id = l.campaign_id ORDER BY t.position, l.campaign_id LIMIT 8`
)

const (
	qStore   = `SELECT id, slug, name, currency, primary_color, accent_color, is_open, review_setting FROM stores WHERE slug = $1`
	qMockups = `
SELECT m.id, m.product_id, m.is_default_mockup, m.base_url, t.file_url AS template_key, t.print_space
FROM campaign_mockups m JOIN mockup_templates t ON t.id = m.mockup_template_id
JOIN store_products sp ON sp.product_id = m.product_id AND sp.store_id = $1 AND sp.status = 'active'
WHERE m.campaign_id = $2 AND m.status = 'done'
ORDER BY m.product_id, m.default_chosen DESC, m.is_default_mockup DESC, t.position, t.id`
	qImage = `
SELECT m.file_url, m.preview_url, m.base_url FROM campaign_mockups m
JOIN store_products sp ON sp.product_id = m.product_id AND sp.store_id = $1 AND sp.status = 'active'
WHERE m.id = $2 AND m.status = 'done'`
	qPages = `SELECT pg.title, pg.slug, pg.body, pg.menu_position FROM store_pages pg JOIN stores s ON s.id = $1
WHERE ` + storesite.PagePublished + ` ORDER BY pg.position, pg.id`
	qOrder = `
SELECT id, number, email, customer_name, currency, subtotal, shipping, discount, tip, total, status, payment_status,
	fulfillment_status, created_at
FROM orders WHERE id = $1 AND store_id = $2`
	qOrderItems = `SELECT product_name, color, size, quantity, unit_price, personalization FROM order_items WHERE order_id = $1 ORDER BY id`
)

type store struct{ db *sqlx.DB }

// qDomainSlug is the slug of the store a verified custom domain belongs to.
const qDomainSlug = `SELECT s.slug FROM store_domains d JOIN stores s ON s.id = d.store_id
WHERE d.domain = $1 AND d.verified_at IS NOT NULL`

// slugByDomain is the slug of the store whose verified custom domain is domain (lower case, no
// port), or errNotFound.
func (s store) slugByDomain(ctx context.Context, domain string) (string, error) {
	var slug string
	err := s.db.GetContext(ctx, &slug, qDomainSlug, domain)
	if errors.Is(err, sql.ErrNoRows) {
		return "", errNotFound
	}
	return slug, err
}

func (s store) storeBySlug(ctx context.Context, slug string) (Store, error) {
	var st Store
	err := s.db.GetContext(ctx, &st, qStore, slug)
	if errors.Is(err, sql.ErrNoRows) {
		return st, errNotFound
	}
	return st, err
}

func (s store) listings(ctx context.Context, storeID int64) ([]Listing, error) {
	var out []Listing
	if err := s.db.SelectContext(ctx, &out, qListings, storeID); err != nil {
		return nil, fmt.Errorf("list campaigns: %w", err)
	}
	return out, nil
}

// suggestions are the campaigns the store's cross-selling rules suggest to buyers of campaigns.
func (s store) suggestions(ctx context.Context, storeID int64, campaigns []int64) ([]Listing, error) {
	var out []Listing
	if len(campaigns) == 0 {
		return out, nil
	}
	if err := s.db.SelectContext(ctx, &out, qSuggestions, storeID, pq.Array(campaigns)); err != nil {
		return nil, fmt.Errorf("suggest campaigns: %w", err)
	}
	return out, nil
}

// campaignBySlug is the id of the store owner's campaign at address slug (campaigns.slug), 0 when
// there is none.
func (s store) campaignBySlug(ctx context.Context, storeID int64, slug string) (int64, error) {
	var ids []int64
	const q = `SELECT c.id FROM campaigns c JOIN stores s ON s.owner_id = c.user_id WHERE s.id = $1 AND c.slug = $2`
	if err := s.db.SelectContext(ctx, &ids, q, storeID, slug); err != nil || len(ids) == 0 {
		return 0, err
	}
	return ids[0], nil
}

func (s store) mockups(ctx context.Context, storeID, campaignID int64) ([]Mockup, error) {
	var out []Mockup
	if err := s.db.SelectContext(ctx, &out, qMockups, storeID, campaignID); err != nil {
		return nil, fmt.Errorf("list mockups: %w", err)
	}
	return out, nil
}

// image answers the blob key to serve for a mockup of the store: its preview when there is one, or
// its base (without the buyer's objects) when base is asked for.
func (s store) image(ctx context.Context, storeID, mockupID int64, base bool) (string, error) {
	var row struct {
		File    string `db:"file_url"`
		Preview string `db:"preview_url"`
		Base    string `db:"base_url"`
	}
	if err := s.db.GetContext(ctx, &row, qImage, storeID, mockupID); errors.Is(err, sql.ErrNoRows) {
		return "", errNotFound
	} else if err != nil {
		return "", err
	}
	if base {
		if row.Base == "" {
			return "", errNotFound
		}
		return row.Base, nil
	}
	if row.Preview != "" {
		return row.Preview, nil
	}
	return row.File, nil
}

func (s store) pages(ctx context.Context, storeID int64) ([]Page, error) {
	var out []Page
	if err := s.db.SelectContext(ctx, &out, qPages, storeID); err != nil {
		return nil, fmt.Errorf("list pages: %w", err)
	}
	return out, nil
}

// collections are the store's collections with something on sale, by name.
func (s store) collections(ctx context.Context, storeID int64) ([]Collection, error) {
	var out []Collection
	if err := s.db.SelectContext(ctx, &out, qCollections, storeID); err != nil {
		return nil, fmt.Errorf("list collections: %w", err)
	}
	return out, nil
}

// featured are the featured campaigns on sale of the store's collections, by collection, each in
// its collection's order.
func (s store) featured(ctx context.Context, storeID int64) (map[int64][]Listing, error) {
	var rows []Featured
	if err := s.db.SelectContext(ctx, &rows, qFeatured, storeID); err != nil {
		return nil, fmt.Errorf("featured campaigns: %w", err)
	}
	out := map[int64][]Listing{}
	for _, r := range rows {
		out[r.CollectionID] = append(out[r.CollectionID], r.Listing)
	}
	return out, nil
}

// collection is the store's collection at slug and its campaigns on sale, or errNotFound.
func (s store) collection(ctx context.Context, storeID int64, slug string) (Collection, []Listing, error) {
	var c Collection
	if err := s.db.GetContext(ctx, &c, qCollection, storeID, slug); errors.Is(err, sql.ErrNoRows) {
		return c, nil, errNotFound
	} else if err != nil {
		return c, nil, fmt.Errorf("get collection: %w", err)
	}
	var list []Listing
	if err := s.db.SelectContext(ctx, &list, qInCollection, storeID, c.ID); err != nil {
		return c, nil, fmt.Errorf("list collection: %w", err)
	}
	return c, list, nil
}

func (s store) order(ctx context.Context, storeID, orderID int64) (OrderView, error) {
	var o OrderView
	if err := s.db.GetContext(ctx, &o, qOrder, orderID, storeID); errors.Is(err, sql.ErrNoRows) {
		return o, errNotFound
	} else if err != nil {
		return o, err
	}
	if err := s.db.SelectContext(ctx, &o.Items, qOrderItems, orderID); err != nil {
		return o, err
	}
	for i := range o.Items {
		if err := json.Unmarshal(o.Items[i].PersonalizedAs, &o.Items[i].Personalization); err != nil {
			return o, fmt.Errorf("order %d item personalization: %w", orderID, err)
		}
	}
	return o, nil
}
