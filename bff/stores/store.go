package stores

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Errors of the store boundary.
var (
	// ErrNotFound: no such store, page or campaign in the caller's account.
	ErrNotFound = errors.New("not found")
	// ErrSlugTaken: another store or page has that slug (Postgres 23505 on the slug key).
	ErrSlugTaken = errors.New("slug taken")
)

// Store is a store as the dashboard shows it.
type Store struct {
	ID            int64     `db:"id" json:"id"`
	Name          string    `db:"name" json:"name"`
	Slug          string    `db:"slug" json:"slug"`
	Domain        string    `db:"domain" json:"domain"`
	LogoKey       string    `db:"logo_key" json:"logo_key"`
	FaviconKey    string    `db:"favicon_key" json:"favicon_key"`
	PrimaryColor  string    `db:"primary_color" json:"primary_color"`
	AccentColor   string    `db:"accent_color" json:"accent_color"`
	Currency      string    `db:"currency" json:"currency"`
	TargetMarket  string    `db:"target_market" json:"target_market"`
	ReviewSetting string    `db:"review_setting" json:"review_setting"`
	IsOpen        bool      `db:"is_open" json:"is_open"`
	Campaigns     int       `db:"campaigns" json:"campaigns"`
	CreatedAt     time.Time `db:"created_at" json:"created_at"`
	UpdatedAt     time.Time `db:"updated_at" json:"updated_at"`
}

// Product is a campaign's product as published to a store.
type Product struct {
	ProductID  int64  `db:"product_id" json:"product_id"`
	CampaignID int64  `db:"campaign_id" json:"campaign_id"`
	Campaign   string `db:"campaign" json:"campaign"`
	Name       string `db:"name" json:"name"`
	BaseCost   string `db:"base_cost" json:"base_cost"`
	Price      int64  `db:"price" json:"price"`
	Currency   string `db:"currency" json:"currency"`
	Status     string `db:"status" json:"status"`
	// CampaignStatus is the campaign's own (draft, active, archived), read before a publication.
	CampaignStatus string `db:"campaign_status" json:"-"`
}

const storeCols = `s.id, s.name, s.slug, s.domain, s.logo_key, s.favicon_key, s.primary_color, s.accent_color, s.currency,
	s.target_market, s.review_setting, s.is_open, s.created_at, s.updated_at,
	(SELECT count(DISTINCT sp.campaign_id) FROM store_products sp WHERE sp.store_id = s.id) AS campaigns`

const (
	qList = `SELECT ` + storeCols + ` FROM stores s
WHERE s.owner_id = $1 AND s.id = ANY($2) AND ($3 = '' OR s.name ILIKE '%' || $3 || '%' OR s.slug ILIKE '%' || $3 || '%')
ORDER BY s.id DESC LIMIT $4 OFFSET $5`
	qCount = `SELECT count(*) FROM stores s
WHERE s.owner_id = $1 AND s.id = ANY($2) AND ($3 = '' OR s.name ILIKE '%' || $3 || '%' OR s.slug ILIKE '%' || $3 || '%')`
	qGet      = `SELECT ` + storeCols + ` FROM stores s WHERE s.id = $1 AND s.owner_id = $2`
	qIDs      = `SELECT id FROM stores WHERE owner_id = $1 ORDER BY id`
	qSlugUsed = `SELECT EXISTS (SELECT 1 FROM stores WHERE slug = $1 AND id <> $2)`
	qInsert   = `
INSERT INTO stores (owner_id, name, slug, domain, logo_key, favicon_key, primary_color, accent_color, currency, target_market,
	review_setting, is_open)
VALUES (:owner_id, :name, :slug, :slug || '.pressroom.local', :logo_key, :favicon_key, :primary_color, :accent_color, :currency,
	:target_market, :review_setting, :is_open)
RETURNING id`
	qUpdate = `
UPDATE stores SET name = :name, slug = :slug, logo_key = :logo_key, favicon_key = :favicon_key, primary_color = :primary_color,
	accent_color = :accent_color, currency = :currency, target_market = :target_market, review_setting = :review_setting,
	is_open = :is_open, updated_at = now()
WHERE id = :id AND owner_id = :owner_id`
	qDelete = `DELETE FROM stores WHERE id = $1 AND owner_id = $2`

	qCampaignProducts = `
SELECT p.id AS product_id, p.campaign_id, c.name AS campaign, p.name, p.base_cost::text AS base_cost, c.status AS campaign_status
FROM campaign_products p JOIN campaigns c ON c.id = p.campaign_id
WHERE c.id = $1 AND c.user_id = $2 ORDER BY p.position, p.id`
	qUnpublish = `DELETE FROM store_products WHERE store_id = $1 AND campaign_id = $2`
	qProducts  = `
SELECT sp.product_id, sp.campaign_id, c.name AS campaign, p.name, p.base_cost::text AS base_cost, sp.price, sp.currency, sp.status
FROM store_products sp JOIN campaign_products p ON p.id = sp.product_id JOIN campaigns c ON c.id = sp.campaign_id
WHERE sp.store_id = $1 ORDER BY sp.campaign_id DESC, p.position, p.id`
)

type store struct{ db *sqlx.DB }

func uniqueViolation(err error) bool {
	var pe *pq.Error
	return errors.As(err, &pe) && pe.Code == "23505"
}

func (s store) ids(ctx context.Context, owner int64) ([]int64, error) {
	ids := []int64{}
	err := s.db.SelectContext(ctx, &ids, qIDs, owner)
	return ids, err
}

func (s store) list(ctx context.Context, owner int64, visible []int64, q string, limit, offset int) ([]Store, int, error) {
	out := []Store{}
	if err := s.db.SelectContext(ctx, &out, qList, owner, pq.Array(visible), q, limit, offset); err != nil {
		return nil, 0, fmt.Errorf("list stores: %w", err)
	}
	var total int
	if err := s.db.GetContext(ctx, &total, qCount, owner, pq.Array(visible), q); err != nil {
		return nil, 0, fmt.Errorf("count stores: %w", err)
	}
	return out, total, nil
}

func (s store) get(ctx context.Context, owner, id int64) (Store, error) {
	var st Store
	err := s.db.GetContext(ctx, &st, qGet, id, owner)
	if errors.Is(err, sql.ErrNoRows) {
		return st, ErrNotFound
	}
	return st, err
}

func (s store) slugUsed(ctx context.Context, slug string, except int64) (bool, error) {
	var used bool
	err := s.db.GetContext(ctx, &used, qSlugUsed, slug, except)
	return used, err
}

func storeArgs(owner, id int64, in StoreInput) map[string]any {
	return map[string]any{"id": id, "owner_id": owner, "name": in.Name, "slug": in.Slug, "logo_key": in.LogoKey,
		"favicon_key": in.FaviconKey, "primary_color": in.PrimaryColor, "accent_color": in.AccentColor, "currency": in.Currency,
		"target_market": in.TargetMarket, "review_setting": in.ReviewSetting, "is_open": *in.IsOpen}
}

func (s store) create(ctx context.Context, owner int64, in StoreInput) (int64, error) {
	q, args, err := s.db.BindNamed(qInsert, storeArgs(owner, 0, in))
	if err != nil {
		return 0, err
	}
	var id int64
	if err := s.db.GetContext(ctx, &id, q, args...); uniqueViolation(err) {
		return 0, ErrSlugTaken
	} else if err != nil {
		return 0, fmt.Errorf("create store: %w", err)
	}
	return id, nil
}

func (s store) update(ctx context.Context, owner, id int64, in StoreInput) error {
	res, err := s.db.NamedExecContext(ctx, qUpdate, storeArgs(owner, id, in))
	if uniqueViolation(err) {
		return ErrSlugTaken
	} else if err != nil {
		return fmt.Errorf("update store: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

func (s store) remove(ctx context.Context, owner, id int64) error {
	res, err := s.db.ExecContext(ctx, qDelete, id, owner)
	if err != nil {
		return fmt.Errorf("delete store: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// campaignProducts reads the owner's campaign's products (ErrNotFound without any), for a
// publication in q's transaction.
func (s store) campaignProducts(ctx context.Context, q sqlx.QueryerContext, owner, campaignID int64) ([]Product, error) {
	out := []Product{}
	if err := sqlx.SelectContext(ctx, q, &out, qCampaignProducts, campaignID, owner); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, ErrNotFound
	}
	return out, nil
}

func (s store) unpublish(ctx context.Context, storeID, campaignID int64) error {
	res, err := s.db.ExecContext(ctx, qUnpublish, storeID, campaignID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

func (s store) products(ctx context.Context, storeID int64) ([]Product, error) {
	out := []Product{}
	err := s.db.SelectContext(ctx, &out, qProducts, storeID)
	return out, err
}
