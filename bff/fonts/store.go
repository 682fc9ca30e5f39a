package fonts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// ErrNotFound: no such font of the seller's (platform fonts cannot be deleted).
var ErrNotFound = errors.New("font not found")

// Font is a font as the screen and the picker show it.
type Font struct {
	ID       int64  `db:"id" json:"id"`
	Family   string `db:"family" json:"family"`
	Style    string `db:"style" json:"style"`
	FullName string `db:"full_name" json:"full_name"`
	Weight   int    `db:"weight" json:"weight"`
	Italic   bool   `db:"italic" json:"italic"`
	// Format is the file's format as uploaded (ttf, otf, woff, woff2).
	Format string `db:"format" json:"format"`
	Size   int64  `db:"size" json:"size"`
	// Platform tells a font shipped with Pressroom from the seller's own.
	Platform bool `db:"platform" json:"platform"`
	// FontURL is the key a text's fontUrl names.
	FontURL string `db:"file_key" json:"font_url"`
	// URL is where the browser loads the file.
	URL       string    `db:"-" json:"url"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
}

// inUse is true while a campaign design or a design order's item names the font's file (f.file_key)
// as a text's fontUrl.
const inUse = `(EXISTS (SELECT 1 FROM campaign_designs d
	WHERE d.design_json @> jsonb_build_object('objects', jsonb_build_array(jsonb_build_object('fontUrl', f.file_key))))
OR EXISTS (SELECT 1 FROM design_order_items i
	WHERE i.design_json @> jsonb_build_object('objects', jsonb_build_array(jsonb_build_object('fontUrl', f.file_key)))))`

const (
	qColumns = `f.id, f.family, f.style, f.full_name, f.weight, f.italic, f.format, f.size, f.seller_id IS NULL AS platform,
	f.file_key, f.created_at`
	// qList: the platform fonts, then the seller's, by family.
	qList = `SELECT ` + qColumns + ` FROM fonts f
WHERE (f.seller_id IS NULL OR f.seller_id = $1) AND f.deleted_at IS NULL
ORDER BY f.seller_id IS NOT NULL, lower(f.family), f.weight, f.italic, f.id`
	qPlatform = `SELECT ` + qColumns + ` FROM fonts f WHERE f.seller_id IS NULL ORDER BY lower(f.family), f.id`
	qAdd      = `INSERT INTO fonts (seller_id, family, style, full_name, weight, italic, file_key, format, size)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
RETURNING id, created_at`
	// qSyncPlatform records a platform font, or updates what its file says.
	qSyncPlatform = `INSERT INTO fonts (seller_id, family, style, full_name, weight, italic, file_key, format, size)
VALUES (NULL, $1, $2, $3, $4, $5, $6, 'ttf', $7)
ON CONFLICT (file_key) DO UPDATE SET family = EXCLUDED.family, style = EXCLUDED.style, full_name = EXCLUDED.full_name,
	weight = EXCLUDED.weight, italic = EXCLUDED.italic, size = EXCLUDED.size
WHERE fonts.seller_id IS NULL`
	qDelete = `UPDATE fonts f SET deleted_at = now() WHERE f.id = $1 AND f.seller_id = $2 AND f.deleted_at IS NULL
RETURNING ` + inUse
	// qServable: a stored font file still there (a deleted font's file is served until removed).
	qServable = `SELECT EXISTS (SELECT 1 FROM fonts WHERE file_key = $1 AND seller_id IS NOT NULL AND file_removed_at IS NULL)`
	// qRemovable are deleted fonts whose file may go, oldest first.
	qRemovable = `SELECT f.id FROM fonts f WHERE f.deleted_at IS NOT NULL AND f.deleted_at <= $1 AND f.file_removed_at IS NULL
ORDER BY f.deleted_at LIMIT 100`
	// qLockRemovable locks one of them; a campaign save naming it (campaigns' source check reads the
	// row FOR SHARE) finishes first, so the fresh look at its uses below sees that save.
	qLockRemovable = `SELECT file_key FROM fonts WHERE id = $1 AND file_removed_at IS NULL FOR UPDATE`
	qUsed          = `SELECT ` + inUse + ` FROM fonts f WHERE f.id = $1`
	qMarkRemoved   = `UPDATE fonts SET file_removed_at = now() WHERE id = $1`
)

type store struct{ db *sqlx.DB }

func (s store) list(ctx context.Context, sellerID int64) ([]Font, error) {
	out := []Font{}
	if err := s.db.SelectContext(ctx, &out, qList, sellerID); err != nil {
		return nil, fmt.Errorf("list fonts: %w", err)
	}
	return out, nil
}

func (s store) platform(ctx context.Context) ([]Font, error) {
	out := []Font{}
	if err := s.db.SelectContext(ctx, &out, qPlatform); err != nil {
		return nil, fmt.Errorf("list platform fonts: %w", err)
	}
	return out, nil
}

func (s store) add(ctx context.Context, sellerID int64, f *Font) error {
	err := s.db.QueryRowxContext(ctx, qAdd, sellerID, f.Family, f.Style, f.FullName, f.Weight, f.Italic, f.FontURL,
		f.Format, f.Size).Scan(&f.ID, &f.CreatedAt)
	if err != nil {
		return fmt.Errorf("add font: %w", err)
	}
	return nil
}

func (s store) syncPlatform(ctx context.Context, f Font) error {
	if _, err := s.db.ExecContext(ctx, qSyncPlatform, f.Family, f.Style, f.FullName, f.Weight, f.Italic, f.FontURL, f.Size); err != nil {
		return fmt.Errorf("record platform font %s: %w", f.FontURL, err)
	}
	return nil
}

// remove marks the seller's font deleted and answers whether designs still use it.
func (s store) remove(ctx context.Context, id, sellerID int64) (bool, error) {
	var used bool
	err := s.db.QueryRowxContext(ctx, qDelete, id, sellerID).Scan(&used)
	if errors.Is(err, sql.ErrNoRows) {
		return false, ErrNotFound
	}
	if err != nil {
		return false, fmt.Errorf("delete font %d: %w", id, err)
	}
	return used, nil
}

// servable tells whether key is a seller's font file still stored.
func (s store) servable(ctx context.Context, key string) (bool, error) {
	var ok bool
	if err := s.db.GetContext(ctx, &ok, qServable, key); err != nil {
		return false, fmt.Errorf("find font %s: %w", key, err)
	}
	return ok, nil
}

func (s store) removable(ctx context.Context, deletedBefore time.Time) ([]int64, error) {
	var ids []int64
	if err := s.db.SelectContext(ctx, &ids, qRemovable, deletedBefore); err != nil {
		return nil, fmt.Errorf("find removable fonts: %w", err)
	}
	return ids, nil
}

// removeFile removes font id's file with del and records it, when no design uses the font; it
// answers whether it did. The file goes before the row says so: a failure leaves both for the next
// sweep (deleting a missing object is no error).
func (s store) removeFile(ctx context.Context, id int64, del func(ctx context.Context, key string) error) (bool, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	var key string
	if err := tx.GetContext(ctx, &key, qLockRemovable, id); errors.Is(err, sql.ErrNoRows) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("lock font %d: %w", id, err)
	}
	var used bool
	if err := tx.GetContext(ctx, &used, qUsed, id); err != nil {
		return false, fmt.Errorf("font %d uses: %w", id, err)
	}
	if used {
		return false, nil
	}
	if err := del(ctx, key); err != nil {
		return false, fmt.Errorf("remove font file %s: %w", key, err)
	}
	if _, err := tx.ExecContext(ctx, qMarkRemoved, id); err != nil {
		return false, fmt.Errorf("mark font %d removed: %w", id, err)
	}
	return true, tx.Commit()
}
