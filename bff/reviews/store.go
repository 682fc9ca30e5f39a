package reviews

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/bff/listing"
)

// ErrNotFound: no such review among the caller's.
var ErrNotFound = errors.New("review not found")

// Named is a store, a campaign or an order as a review names it.
type Named struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// Photo is a review's photo and its check: pending, ready or rejected (with the renderer's
// message). Key is the blob key, never sent.
type Photo struct {
	Status      string `json:"status"`
	Message     string `json:"message"`
	URL         string `json:"url"`
	Key         string `json:"-"`
	ContentType string `json:"-"`
}

// Review is a row of the list.
type Review struct {
	ID          int64      `db:"id" json:"id"`
	Store       Named      `db:"-" json:"store"`
	Campaign    *Named     `db:"-" json:"campaign"`
	OrderID     int64      `db:"order_id" json:"order_id"`
	OrderNumber string     `db:"order_number" json:"order_number"`
	ProductName string     `db:"product_name" json:"product_name"`
	Color       string     `db:"color" json:"color"`
	Size        string     `db:"size" json:"size"`
	Author      string     `db:"author_name" json:"author"`
	Rating      int        `db:"rating" json:"rating"`
	Body        string     `db:"body" json:"body"`
	Status      string     `db:"status" json:"status"`
	Reply       string     `db:"reply" json:"reply"`
	RepliedAt   *time.Time `db:"replied_at" json:"replied_at"`
	PublishedAt *time.Time `db:"published_at" json:"published_at"`
	CreatedAt   time.Time  `db:"created_at" json:"created_at"`
	Photo       *Photo     `db:"-" json:"photo"`
}

type row struct {
	Review
	StoreID      int64          `db:"store_id"`
	StoreName    string         `db:"store_name"`
	CampaignID   sql.NullInt64  `db:"campaign_id"`
	CampaignName sql.NullString `db:"campaign_name"`
	PhotoStatus  sql.NullString `db:"photo_status"`
	PhotoMessage sql.NullString `db:"photo_message"`
	PhotoKey     sql.NullString `db:"photo_key"`
	PhotoType    sql.NullString `db:"photo_type"`
	Total        int            `db:"total"`
}

func (r row) review() Review {
	v := r.Review
	v.Store = Named{ID: r.StoreID, Name: r.StoreName}
	if r.CampaignID.Valid {
		v.Campaign = &Named{ID: r.CampaignID.Int64, Name: r.CampaignName.String}
	}
	if r.PhotoStatus.Valid {
		v.Photo = &Photo{Status: r.PhotoStatus.String, Message: r.PhotoMessage.String, Key: r.PhotoKey.String,
			ContentType: r.PhotoType.String, URL: fmt.Sprintf("/api/seller/product-reviews/%d/photo", v.ID)}
	}
	return v
}

// Filter narrows the list: a rating (0: any), a status, a store (0: all the caller sees), [From, To)
// on when the review was written, and Q, part of the review's text, its author or its product.
type Filter struct {
	Rating  int
	Status  string
	StoreID int64
	From    *time.Time
	To      *time.Time
	Q       string
}

// where keeps the reviews of the scope ($1 seller, $2-$3 the store filter), the filter ($4 rating,
// $5 status, $6 store, $7 from, $8 to, $9 search) and, when $10 is set, that one review.
const where = `WHERE r.seller_id = $1 AND (NOT $2 OR r.store_id = ANY($3))
	AND ($4 = 0 OR r.rating = $4) AND ($5 = '' OR r.status = $5) AND ($6 = 0 OR r.store_id = $6)
	AND ($7::timestamptz IS NULL OR r.created_at >= $7) AND ($8::timestamptz IS NULL OR r.created_at < $8)
	AND ($9 = '' OR r.body ILIKE $9 ESCAPE '\' OR r.author_name ILIKE $9 ESCAPE '\' OR r.product_name ILIKE $9 ESCAPE '\')
	AND ($10 = 0 OR r.id = $10)`

const qReviews = `SELECT r.id, r.order_id, o.number AS order_number, r.product_name, r.color, r.size, r.author_name, r.rating,
	r.body, r.status, r.reply, r.replied_at, r.published_at, r.created_at, r.store_id, s.name AS store_name,
	r.campaign_id, c.name AS campaign_name, u.status AS photo_status, u.message AS photo_message, u.blob_key AS photo_key,
	u.content_type AS photo_type, count(*) OVER () AS total
FROM product_reviews r JOIN stores s ON s.id = r.store_id JOIN orders o ON o.id = r.order_id
LEFT JOIN campaigns c ON c.id = r.campaign_id LEFT JOIN uploads u ON u.id = r.photo_upload_id
` + where + ` ORDER BY r.created_at DESC, r.id DESC LIMIT $11 OFFSET $12`

type store struct{ db *sqlx.DB }

func (f Filter) args(sc listing.Scope, id int64) []any {
	q := ""
	if f.Q != "" {
		q = listing.Inside(f.Q)
	}
	return append(sc.Args(), f.Rating, f.Status, f.StoreID, f.From, f.To, q, id)
}

func (s store) list(ctx context.Context, sc listing.Scope, f Filter, limit, offset int) ([]Review, int, error) {
	var rows []row
	if err := s.db.SelectContext(ctx, &rows, qReviews, append(f.args(sc, 0), limit, offset)...); err != nil {
		return nil, 0, fmt.Errorf("list reviews: %w", err)
	}
	out := make([]Review, len(rows))
	total := 0
	for i, r := range rows {
		out[i], total = r.review(), r.Total
	}
	if len(rows) == 0 && offset > 0 {
		if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM product_reviews r `+where, f.args(sc, 0)...); err != nil {
			return nil, 0, fmt.Errorf("count reviews: %w", err)
		}
	}
	return out, total, nil
}

// get is review id if the scope sees it, else ErrNotFound.
func (s store) get(ctx context.Context, sc listing.Scope, id int64) (Review, error) {
	if id == 0 {
		return Review{}, ErrNotFound
	}
	var r row
	err := s.db.GetContext(ctx, &r, qReviews, append(Filter{}.args(sc, id), 1, 0)...)
	if errors.Is(err, sql.ErrNoRows) {
		return Review{}, ErrNotFound
	}
	if err != nil {
		return Review{}, fmt.Errorf("get review %d: %w", id, err)
	}
	return r.review(), nil
}

// setStatus publishes or hides review id; published_at is when it was first published.
func (s store) setStatus(ctx context.Context, id int64, status string) error {
	const q = `UPDATE product_reviews SET status = $2, updated_at = now(),
	published_at = CASE WHEN $2 = 'published' THEN coalesce(published_at, now()) ELSE published_at END
WHERE id = $1 AND status <> $2`
	if _, err := s.db.ExecContext(ctx, q, id, status); err != nil {
		return fmt.Errorf("review %d status: %w", id, err)
	}
	return nil
}

// setReply saves the seller's reply to review id, an empty one removing it.
func (s store) setReply(ctx context.Context, id int64, reply string) error {
	const q = `UPDATE product_reviews SET reply = $2, replied_at = CASE WHEN $2 = '' THEN NULL ELSE now() END, updated_at = now()
WHERE id = $1`
	if _, err := s.db.ExecContext(ctx, q, id, reply); err != nil {
		return fmt.Errorf("review %d reply: %w", id, err)
	}
	return nil
}
