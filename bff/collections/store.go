package collections

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/platform/database"
)

// Errors of the store boundary.
var (
	// ErrNotFound: no such collection in the seller's account.
	ErrNotFound = errors.New("collection not found")
	// ErrSlugTaken: the seller has another collection at that slug (23505 on collections_slug_key).
	ErrSlugTaken = errors.New("slug taken")
	// ErrNotInCollection: a featured campaign is not one of the collection's.
	ErrNotInCollection = errors.New("campaign not in the collection")
)

// Named is a store as a collection names it.
type Named struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// Member is a campaign of a collection; FeaturedPosition (1, 2, ...) orders the featured ones.
type Member struct {
	ID               int64  `json:"id"`
	Name             string `json:"name"`
	FeaturedPosition *int   `json:"featured_position"`
}

// Collection is a collection as the screens show it. Campaigns (the featured ones first, in their
// order, then the others by name) are filled by get only (null in the list, which has the counts).
type Collection struct {
	ID          int64     `db:"id" json:"id"`
	Name        string    `db:"name" json:"name"`
	Slug        string    `db:"slug" json:"slug"`
	Description string    `db:"description" json:"description"`
	AllStores   bool      `db:"all_stores" json:"all_stores"`
	StoreIDs    []int64   `db:"-" json:"store_ids"`
	Stores      []Named   `db:"-" json:"stores"`
	Campaigns   []Member  `db:"-" json:"campaigns"`
	CampaignsN  int       `db:"campaigns_count" json:"campaigns_count"`
	FeaturedN   int       `db:"featured_count" json:"featured_count"`
	CreatedAt   time.Time `db:"created_at" json:"created_at"`
	UpdatedAt   time.Time `db:"updated_at" json:"updated_at"`
}

type row struct {
	Collection
	StoresJSON    []byte `db:"stores"`
	CampaignsJSON []byte `db:"campaigns"`
	Total         int    `db:"total"`
}

func (r row) collection() (Collection, error) {
	c := r.Collection
	if err := json.Unmarshal(r.StoresJSON, &c.Stores); err != nil {
		return Collection{}, fmt.Errorf("collection %d stores: %w", c.ID, err)
	}
	c.StoreIDs = make([]int64, len(c.Stores))
	for i, s := range c.Stores {
		c.StoreIDs[i] = s.ID
	}
	if r.CampaignsJSON != nil {
		if err := json.Unmarshal(r.CampaignsJSON, &c.Campaigns); err != nil {
			return Collection{}, fmt.Errorf("collection %d campaigns: %w", c.ID, err)
		}
	}
	return c, nil
}

// qCollections reads the seller's ($1) collections whose name or slug contains $2, or the one with
// id $3, with their stores and counts.
const qCollections = `SELECT c.id, c.name, c.slug, c.description, c.all_stores, c.created_at, c.updated_at,
	count(*) OVER () AS total,
	(SELECT count(*) FROM collection_campaigns x WHERE x.collection_id = c.id) AS campaigns_count,
	(SELECT count(*) FROM collection_campaigns x WHERE x.collection_id = c.id AND x.featured_position IS NOT NULL) AS featured_count,
	coalesce((SELECT jsonb_agg(jsonb_build_object('id', s.id, 'name', s.name) ORDER BY s.name, s.id)
		FROM collection_stores x JOIN stores s ON s.id = x.store_id WHERE x.collection_id = c.id), '[]') AS stores,
	CASE WHEN $3::bigint <> 0 THEN coalesce((SELECT jsonb_agg(jsonb_build_object('id', k.id, 'name', k.name,
		'featured_position', x.featured_position) ORDER BY x.featured_position NULLS LAST, lower(k.name), k.id)
		FROM collection_campaigns x JOIN campaigns k ON k.id = x.campaign_id WHERE x.collection_id = c.id), '[]') END AS campaigns
FROM collections c
WHERE c.seller_id = $1 AND ($2 = '' OR c.name ILIKE '%' || $2 || '%' OR c.slug ILIKE '%' || $2 || '%') AND ($3::bigint = 0 OR c.id = $3)
ORDER BY c.id DESC`

type store struct{ db *sqlx.DB }

func (s store) list(ctx context.Context, seller int64, q string, limit, offset int) ([]Collection, int, error) {
	var rows []row
	if err := s.db.SelectContext(ctx, &rows, qCollections+` LIMIT $4 OFFSET $5`, seller, q, 0, limit, offset); err != nil {
		return nil, 0, fmt.Errorf("list collections: %w", err)
	}
	out := make([]Collection, len(rows))
	total := 0
	for i, r := range rows {
		c, err := r.collection()
		if err != nil {
			return nil, 0, err
		}
		out[i], total = c, r.Total
	}
	if len(rows) == 0 && offset > 0 {
		const qCount = `SELECT count(*) FROM collections WHERE seller_id = $1 AND ($2 = '' OR name ILIKE '%' || $2 || '%' OR slug ILIKE '%' || $2 || '%')`
		if err := s.db.GetContext(ctx, &total, qCount, seller, q); err != nil {
			return nil, 0, fmt.Errorf("count collections: %w", err)
		}
	}
	return out, total, nil
}

func (s store) get(ctx context.Context, seller, id int64) (Collection, error) {
	if id <= 0 {
		return Collection{}, ErrNotFound
	}
	var r row
	if err := s.db.GetContext(ctx, &r, qCollections, seller, "", id); errors.Is(err, sql.ErrNoRows) {
		return Collection{}, ErrNotFound
	} else if err != nil {
		return Collection{}, fmt.Errorf("get collection: %w", err)
	}
	return r.collection()
}

func (s store) slugUsed(ctx context.Context, seller int64, slug string, except int64) (bool, error) {
	var used bool
	const q = `SELECT EXISTS (SELECT 1 FROM collections WHERE seller_id = $1 AND slug = $2 AND id <> $3)`
	if err := s.db.GetContext(ctx, &used, q, seller, slug, except); err != nil {
		return false, fmt.Errorf("collection slug: %w", err)
	}
	return used, nil
}

// ownedCampaigns are those of ids that the seller owns.
func (s store) ownedCampaigns(ctx context.Context, seller int64, ids []int64) ([]int64, error) {
	out := []int64{}
	if err := s.db.SelectContext(ctx, &out, `SELECT id FROM campaigns WHERE user_id = $1 AND id = ANY($2)`, seller, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("campaigns of the seller: %w", err)
	}
	return out, nil
}

// storeIDs are the ids of the seller's stores.
func (s store) storeIDs(ctx context.Context, seller int64) ([]int64, error) {
	out := []int64{}
	if err := s.db.SelectContext(ctx, &out, `SELECT id FROM stores WHERE owner_id = $1 ORDER BY id`, seller); err != nil {
		return nil, fmt.Errorf("stores of the seller: %w", err)
	}
	return out, nil
}

// lock takes the collection's row for the transaction, so that changes to one collection (its
// campaigns, its featured order) apply one after the other.
func lock(ctx context.Context, tx *sqlx.Tx, seller, id int64) error {
	var got int64
	err := tx.GetContext(ctx, &got, `SELECT id FROM collections WHERE id = $1 AND seller_id = $2 FOR UPDATE`, id, seller)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// featured is the collection's featured campaigns in their order.
func featured(ctx context.Context, tx *sqlx.Tx, id int64) ([]int64, error) {
	out := []int64{}
	const q = `SELECT campaign_id FROM collection_campaigns WHERE collection_id = $1 AND featured_position IS NOT NULL ORDER BY featured_position`
	if err := tx.SelectContext(ctx, &out, q, id); err != nil {
		return nil, fmt.Errorf("featured campaigns: %w", err)
	}
	return out, nil
}

// setFeatured numbers ids 1, 2, ... in collection id and clears the others. Every position is
// cleared first, so the unique (collection, position) key never sees two rows at one position.
func setFeatured(ctx context.Context, tx *sqlx.Tx, id int64, ids []int64) (int, error) {
	if _, err := tx.ExecContext(ctx, `UPDATE collection_campaigns SET featured_position = NULL
WHERE collection_id = $1 AND featured_position IS NOT NULL`, id); err != nil {
		return 0, fmt.Errorf("clear featured: %w", err)
	}
	res, err := tx.ExecContext(ctx, `UPDATE collection_campaigns x SET featured_position = f.n
FROM unnest($2::bigint[]) WITH ORDINALITY AS f(campaign_id, n)
WHERE x.collection_id = $1 AND x.campaign_id = f.campaign_id`, id, pq.Array(ids))
	if err != nil {
		return 0, fmt.Errorf("set featured: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// save creates (id 0) or replaces collection id of seller with in: its stores and campaigns. The
// featured campaigns that stay in the collection keep their order.
func (s store) save(ctx context.Context, seller, id int64, in Input) (int64, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	if id == 0 {
		err = tx.GetContext(ctx, &id, `INSERT INTO collections (seller_id, name, slug, description, all_stores)
VALUES ($1, $2, $3, $4, $5) RETURNING id`, seller, in.Name, in.Slug, in.Description, *in.AllStores)
	} else if err = lock(ctx, tx, seller, id); err == nil {
		_, err = tx.ExecContext(ctx, `UPDATE collections SET name = $3, slug = $4, description = $5, all_stores = $6, updated_at = now()
WHERE id = $1 AND seller_id = $2`, id, seller, in.Name, in.Slug, in.Description, *in.AllStores)
	}
	if database.UniqueViolation(err) {
		return 0, ErrSlugTaken
	} else if err != nil {
		return 0, fmt.Errorf("save collection: %w", err)
	}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`DELETE FROM collection_stores WHERE collection_id = $1`, []any{id}},
		{`INSERT INTO collection_stores (collection_id, store_id) SELECT $1, unnest($2::bigint[])`, []any{id, pq.Array(in.StoreIDs)}},
		{`DELETE FROM collection_campaigns WHERE collection_id = $1 AND campaign_id <> ALL($2)`, []any{id, pq.Array(in.CampaignIDs)}},
		{`INSERT INTO collection_campaigns (collection_id, campaign_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`,
			[]any{id, pq.Array(in.CampaignIDs)}},
	} {
		if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
			return 0, fmt.Errorf("save collection members: %w", err)
		}
	}
	// Close the gaps the removed campaigns left in the featured order.
	keep, err := featured(ctx, tx, id)
	if err != nil {
		return 0, err
	}
	if _, err := setFeatured(ctx, tx, id, keep); err != nil {
		return 0, err
	}
	return id, tx.Commit()
}

// feature makes ids the featured campaigns of collection id, in that order; each must be in it.
func (s store) feature(ctx context.Context, seller, id int64, ids []int64) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := lock(ctx, tx, seller, id); err != nil {
		return err
	}
	n, err := setFeatured(ctx, tx, id, ids)
	if err != nil {
		return err
	}
	if n != len(ids) {
		return ErrNotInCollection
	}
	if _, err := tx.ExecContext(ctx, `UPDATE collections SET updated_at = now() WHERE id = $1`, id); err != nil {
		return fmt.Errorf("touch collection: %w", err)
	}
	return tx.Commit()
}

func (s store) remove(ctx context.Context, seller, id int64) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM collections WHERE id = $1 AND seller_id = $2`, id, seller)
	if err != nil {
		return fmt.Errorf("delete collection: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}
