package reviews

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/checkout"
	"github.com/pressroom/pressroom/platform/uploadcheck"
)

// Item is an order item as its review page shows it, with what decides whether it may be reviewed.
type Item struct {
	ID            int64      `db:"id"`
	OrderID       int64      `db:"order_id"`
	OrderNumber   string     `db:"number"`
	OrderStatus   string     `db:"status"`
	SellerID      int64      `db:"seller_id"`
	StoreID       int64      `db:"store_id"`
	CampaignID    *int64     `db:"campaign_id"`
	ProductID     *int64     `db:"product_id"`
	ProductName   string     `db:"product_name"`
	Color         string     `db:"color"`
	Size          string     `db:"size"`
	CustomerName  string     `db:"customer_name"`
	DeliveredAt   *time.Time `db:"delivered_at"`
	ReviewSetting string     `db:"review_setting"`
	Reviewed      bool       `db:"reviewed"`
}

// Check says why the item cannot be reviewed now, nil when it can.
func (it Item) Check() error { return eligible(it) }

// qItem reads order item $2 of store $1 with its delivery, its store's setting and whether it has
// its review; $3 locks the item's row (the submit's transaction) or not (the page).
const qItem = `
SELECT i.id, i.order_id, o.number, o.status, o.seller_id, o.store_id, i.campaign_id, i.product_id, i.product_name,
	i.color, i.size, o.customer_name, sh.delivered_at, s.review_setting,
	EXISTS (SELECT 1 FROM product_reviews r WHERE r.order_item_id = i.id) AS reviewed
FROM order_items i JOIN orders o ON o.id = i.order_id JOIN stores s ON s.id = o.store_id
LEFT JOIN shipments sh ON sh.order_item_id = i.id
WHERE o.store_id = $1 AND i.id = $2`

// LoadItem reads order item itemID of store storeID, or ErrNotFound.
func LoadItem(ctx context.Context, db sqlx.QueryerContext, storeID, itemID int64) (Item, error) {
	var it Item
	err := sqlx.GetContext(ctx, db, &it, qItem, storeID, itemID)
	if errors.Is(err, sql.ErrNoRows) {
		return Item{}, ErrNotFound
	}
	if err != nil {
		return Item{}, fmt.Errorf("load order item %d: %w", itemID, err)
	}
	return it, nil
}

// PhotoKey is where a buyer's photo of a review in store storeID is stored: reviews/{store}/
// {random}{ext}, the random part making it unguessable. A file name of another type than PNG, JPEG
// or WebP answers the content type error (uploadcheck.ErrFileType).
func PhotoKey(storeID int64, fileName string) (key, contentType string, err error) {
	ct, err := uploadcheck.ContentType(fileName)
	if err != nil {
		return "", "", err
	}
	ext := strings.ToLower(path.Ext(fileName))
	return "reviews/" + strconv.FormatInt(storeID, 10) + "/" + strings.ToLower(rand.Text()) + ext, ct, nil
}

// Submitted is a review just written, and the outbox row of its photo's check (0 without a photo)
// to dispatch after the commit.
type Submitted struct {
	ReviewID int64
	OutboxID int64
}

// Submit writes the buyer's review of item itemID of store storeID, pending for the seller, in one
// transaction with its photo's upload row and check: the input is cleaned and checked (a
// *checkout.InvalidError names each field), the item must be eligible (the errors above), and a
// second review of the item, even sent at the same moment, answers ErrAlreadyReviewed. Nothing is
// stored when it fails; the caller then removes the photo's file.
func Submit(ctx context.Context, db *sqlx.DB, storeID, itemID int64, in Input) (Submitted, error) {
	if err := in.check(); err != nil {
		return Submitted{}, err
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return Submitted{}, err
	}
	defer tx.Rollback()
	it, err := LoadItem(ctx, tx, storeID, itemID)
	if err != nil {
		return Submitted{}, err
	}
	if err := it.Check(); err != nil {
		return Submitted{}, err
	}
	var out Submitted
	var photo *int64
	if in.Photo != nil {
		id, outboxID, err := uploadcheck.Record(ctx, tx, uploadcheck.Upload{Key: in.Photo.Key, FileName: in.Photo.FileName, Kind: "review"})
		if err != nil {
			return Submitted{}, err
		}
		photo, out.OutboxID = &id, outboxID
	}
	const q = `INSERT INTO product_reviews (order_item_id, order_id, seller_id, store_id, campaign_id, product_name, color, size,
	author_name, rating, body, photo_upload_id)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
ON CONFLICT (order_item_id) DO NOTHING RETURNING id`
	err = tx.GetContext(ctx, &out.ReviewID, q, it.ID, it.OrderID, it.SellerID, it.StoreID, it.CampaignID, it.ProductName,
		it.Color, it.Size, in.Author, in.Rating, in.Body, photo)
	if errors.Is(err, sql.ErrNoRows) {
		return Submitted{}, ErrAlreadyReviewed
	}
	if err != nil {
		return Submitted{}, fmt.Errorf("write review: %w", err)
	}
	return out, tx.Commit()
}

// Invalid answers the field problems of err, nil when it is not an input error.
func Invalid(err error) []checkout.FieldError {
	var inv *checkout.InvalidError
	if errors.As(err, &inv) {
		return inv.Errors
	}
	return nil
}

// Public is a published review as a product page shows it.
type Public struct {
	ID          int64     `db:"id"`
	Author      string    `db:"author_name"`
	Rating      int       `db:"rating"`
	Body        string    `db:"body"`
	Reply       string    `db:"reply"`
	ProductName string    `db:"product_name"`
	Color       string    `db:"color"`
	Size        string    `db:"size"`
	HasPhoto    bool      `db:"has_photo"`
	PublishedAt time.Time `db:"published_at"`
}

// Shown is what a product page shows of a campaign's reviews: how many there are, their average
// rating and the newest of them.
type Shown struct {
	Count   int
	Average float64
	Reviews []Public
}

// AverageText is the average rating with one decimal, "4.5".
func (s Shown) AverageText() string { return strconv.FormatFloat(s.Average, 'f', 1, 64) }

// visible keeps the reviews store $1 shows of campaign $2: published, of the store owner's, and as
// its review setting says (none when disabled, this store's when enable-only-store, every store of
// the seller's when enable-share-review).
const visible = `FROM product_reviews r JOIN stores s ON s.id = $1
WHERE r.status = 'published' AND r.campaign_id = $2 AND r.seller_id = s.owner_id
	AND (s.review_setting = 'enable-share-review' OR (s.review_setting = 'enable-only-store' AND r.store_id = s.id))`

const (
	qSummary = `SELECT count(*), coalesce(round(avg(r.rating), 1), 0)::float8 AS average ` + visible
	qShown   = `SELECT r.id, r.author_name, r.rating, r.body, r.reply, r.product_name, r.color, r.size, r.published_at,
	EXISTS (SELECT 1 FROM uploads u WHERE u.id = r.photo_upload_id AND u.status = 'ready') AS has_photo ` + visible + `
ORDER BY r.published_at DESC, r.id DESC LIMIT $3`
	qPhoto = `SELECT u.blob_key, u.content_type FROM uploads u
WHERE u.status = 'ready' AND u.id = (SELECT r.photo_upload_id ` + visible + ` AND r.id = $3)`
)

// ForCampaign is what store storeID shows of campaign campaignID's reviews, the newest limit of them.
func ForCampaign(ctx context.Context, db sqlx.QueryerContext, storeID, campaignID int64, limit int) (Shown, error) {
	var s Shown
	if err := db.QueryRowxContext(ctx, qSummary, storeID, campaignID).Scan(&s.Count, &s.Average); err != nil {
		return Shown{}, fmt.Errorf("review summary: %w", err)
	}
	if s.Count == 0 {
		return s, nil
	}
	if err := sqlx.SelectContext(ctx, db, &s.Reviews, qShown, storeID, campaignID, limit); err != nil {
		return Shown{}, fmt.Errorf("reviews: %w", err)
	}
	return s, nil
}

// PublicPhoto is the blob key and content type of the checked photo of review reviewID, of
// campaign campaignID, as store storeID shows it; ErrNotFound when the store does not show it.
func PublicPhoto(ctx context.Context, db sqlx.QueryerContext, storeID, campaignID, reviewID int64) (key, contentType string, err error) {
	var row struct {
		Key string `db:"blob_key"`
		CT  string `db:"content_type"`
	}
	err = sqlx.GetContext(ctx, db, &row, qPhoto, storeID, campaignID, reviewID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", ErrNotFound
	}
	if err != nil {
		return "", "", fmt.Errorf("review photo: %w", err)
	}
	return row.Key, row.CT, nil
}
