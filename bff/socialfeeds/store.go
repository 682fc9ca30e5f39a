package socialfeeds

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/worker/tasks"
)

// ErrNotFound: no such feed among the caller's.
var ErrNotFound = errors.New("feed not found")

// Named is a campaign as a feed lists it.
type Named struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// Feed is a feed as the screens show it. State is building (a build is queued or running), failed
// (the last build failed: Error says why; the file before it is still served) or ready. Campaigns
// is filled by get only.
type Feed struct {
	ID           int64      `db:"id" json:"id"`
	Name         string     `db:"name" json:"name"`
	StoreID      int64      `db:"store_id" json:"store_id"`
	StoreName    string     `db:"store_name" json:"store_name"`
	StoreSlug    string     `db:"store_slug" json:"-"`
	Format       string     `db:"format" json:"format"`
	AllCampaigns bool       `db:"all_campaigns" json:"all_campaigns"`
	CampaignsN   int        `db:"campaigns_count" json:"campaigns_count"`
	Campaigns    []Named    `db:"-" json:"campaigns"`
	URL          string     `db:"-" json:"url"`
	State        string     `db:"state" json:"state"`
	BuiltAt      *time.Time `db:"built_at" json:"built_at"`
	Items        int        `db:"item_count" json:"item_count"`
	Skipped      int        `db:"skipped_count" json:"skipped_count"`
	Bytes        int64      `db:"byte_size" json:"byte_size"`
	Error        string     `db:"error" json:"error"`
	CreatedAt    time.Time  `db:"created_at" json:"created_at"`
	UpdatedAt    time.Time  `db:"updated_at" json:"updated_at"`
	Total        int        `db:"total" json:"-"`
}

// where keeps the feeds of the scope ($1 seller, $2-$3 the store filter) whose name holds $4 and,
// when $5 is set, that one.
const where = `WHERE f.seller_id = $1 AND (NOT $2 OR f.store_id = ANY($3)) AND ($4 = '' OR f.name ILIKE $4 ESCAPE '\')
	AND ($5 = 0 OR f.id = $5)`

const qFeeds = `SELECT f.id, f.name, f.store_id, s.name AS store_name, s.slug AS store_slug, f.format, f.all_campaigns,
	(SELECT count(*) FROM social_feed_campaigns x WHERE x.feed_id = f.id) AS campaigns_count,
	CASE WHEN f.built_seq < f.wanted_seq THEN 'building' WHEN f.error <> '' THEN 'failed' ELSE 'ready' END AS state,
	f.built_at, f.item_count, f.skipped_count, f.byte_size, f.error, f.created_at, f.updated_at, count(*) OVER () AS total
FROM social_feeds f JOIN stores s ON s.id = f.store_id ` + where + ` ORDER BY f.id DESC LIMIT $6 OFFSET $7`

type store struct{ db *sqlx.DB }

func scopeArgs(sc listing.Scope, q string, id int64) []any {
	pattern := ""
	if q != "" {
		pattern = listing.Inside(q)
	}
	return append(sc.Args(), pattern, id)
}

func (s store) list(ctx context.Context, sc listing.Scope, q string, limit, offset int) ([]Feed, int, error) {
	var out []Feed
	if err := s.db.SelectContext(ctx, &out, qFeeds, append(scopeArgs(sc, q, 0), limit, offset)...); err != nil {
		return nil, 0, fmt.Errorf("list feeds: %w", err)
	}
	total := 0
	if len(out) > 0 {
		total = out[0].Total
	} else if offset > 0 {
		if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM social_feeds f `+where, scopeArgs(sc, q, 0)...); err != nil {
			return nil, 0, fmt.Errorf("count feeds: %w", err)
		}
	}
	return out, total, nil
}

// get is feed id with its chosen campaigns if the scope sees it, else ErrNotFound.
func (s store) get(ctx context.Context, sc listing.Scope, id int64) (Feed, error) {
	if id == 0 {
		return Feed{}, ErrNotFound
	}
	var f Feed
	err := s.db.GetContext(ctx, &f, qFeeds, append(scopeArgs(sc, "", id), 1, 0)...)
	if errors.Is(err, sql.ErrNoRows) {
		return Feed{}, ErrNotFound
	} else if err != nil {
		return Feed{}, fmt.Errorf("get feed %d: %w", id, err)
	}
	f.Campaigns = []Named{}
	const q = `SELECT c.id, c.name FROM social_feed_campaigns x JOIN campaigns c ON c.id = x.campaign_id
WHERE x.feed_id = $1 ORDER BY lower(c.name), c.id`
	rows, err := s.db.QueryxContext(ctx, q, id)
	if err != nil {
		return Feed{}, fmt.Errorf("feed %d campaigns: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var n Named
		if err := rows.Scan(&n.ID, &n.Name); err != nil {
			return Feed{}, err
		}
		f.Campaigns = append(f.Campaigns, n)
	}
	return f, rows.Err()
}

// storeVisible reports whether store id is the seller's and the scope sees it.
func (s store) storeVisible(ctx context.Context, sc listing.Scope, id int64) (bool, error) {
	var ok bool
	err := s.db.GetContext(ctx, &ok, `SELECT EXISTS (SELECT 1 FROM stores WHERE id = $4 AND owner_id = $1 AND (NOT $2 OR id = ANY($3)))`,
		append(sc.Args(), id)...)
	return ok, err
}

// ownedCampaigns counts the seller's campaigns among ids.
func (s store) ownedCampaigns(ctx context.Context, seller int64, ids []int64) (int, error) {
	var n int
	err := s.db.GetContext(ctx, &n, `SELECT count(*) FROM campaigns WHERE user_id = $1 AND id = ANY($2)`, seller, pq.Array(ids))
	return n, err
}

// save writes feed id (0: a new one) of the seller and queues its build, in one transaction, and
// answers its id and the outbox row to dispatch.
func (s store) save(ctx context.Context, seller, id int64, in Input) (int64, int64, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	if id == 0 {
		const q = `INSERT INTO social_feeds (seller_id, store_id, name, format, all_campaigns, wanted_seq)
VALUES ($1, $2, $3, $4, $5, 0) RETURNING id`
		if err := tx.GetContext(ctx, &id, q, seller, in.StoreID, in.Name, in.Format, *in.AllCampaigns); err != nil {
			return 0, 0, fmt.Errorf("create feed: %w", err)
		}
	} else {
		// A feed's file is replaced by its next build. One moved to another store or format has no
		// file of its own until then (built_at NULL: the storefront answers "being built"), rather
		// than the other store's products or a file of the other format.
		const q = `UPDATE social_feeds SET store_id = $3, name = $4, format = $5, all_campaigns = $6, error = '', updated_at = now(),
	built_at = CASE WHEN (store_id, format) IS DISTINCT FROM ($3::bigint, $5::text) THEN NULL ELSE built_at END
WHERE id = $1 AND seller_id = $2`
		res, err := tx.ExecContext(ctx, q, id, seller, in.StoreID, in.Name, in.Format, *in.AllCampaigns)
		if err != nil {
			return 0, 0, fmt.Errorf("save feed %d: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return 0, 0, ErrNotFound
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM social_feed_campaigns WHERE feed_id = $1`, id); err != nil {
			return 0, 0, fmt.Errorf("save feed %d campaigns: %w", id, err)
		}
	}
	if len(in.CampaignIDs) > 0 {
		const q = `INSERT INTO social_feed_campaigns (feed_id, campaign_id) SELECT $1, unnest($2::bigint[])`
		if _, err := tx.ExecContext(ctx, q, id, pq.Array(in.CampaignIDs)); err != nil {
			return 0, 0, fmt.Errorf("save feed %d campaigns: %w", id, err)
		}
	}
	outboxID, err := tasks.QueueFeedBuild(ctx, tx, id, 0)
	if err != nil {
		return 0, 0, err
	}
	return id, outboxID, tx.Commit()
}

// rebuild queues a build of feed id, committed.
func (s store) rebuild(ctx context.Context, id int64) (int64, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	outboxID, err := tasks.QueueFeedBuild(ctx, tx, id, 0)
	if err != nil {
		return 0, err
	}
	return outboxID, tx.Commit()
}

// remove deletes feed id of the seller.
func (s store) remove(ctx context.Context, seller, id int64) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM social_feeds WHERE id = $1 AND seller_id = $2`, id, seller)
	if err != nil {
		return fmt.Errorf("delete feed %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}
