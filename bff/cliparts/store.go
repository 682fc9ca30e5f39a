package cliparts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/bff/folders"
	"github.com/pressroom/pressroom/bff/uploads"
	"github.com/pressroom/pressroom/platform/uploadcheck"
)

// ErrNotFound: no such clipart in the seller's library.
var ErrNotFound = errors.New("clipart not found")

// Clipart is a clipart as the library, the editor's picker and personalization inputs read it.
type Clipart struct {
	ID       int64  `db:"id" json:"id"`
	Name     string `db:"name" json:"name"`
	FolderID *int64 `db:"folder_id" json:"folder_id"`
	// Key is the blob key of the print-size file (a PNG for an SVG clipart): a design image's src.
	Key string `db:"blob_key" json:"key"`
	// Width and Height are the file's pixels, once the renderer has checked it.
	Width  *int `db:"width" json:"width"`
	Height *int `db:"height" json:"height"`
	// Format is the file's format as uploaded: png, webp or svg.
	Format string `db:"format" json:"format"`
	// Status is the upload's: pending (being checked or drawn), ready, or rejected with Message.
	Status   string    `db:"status" json:"status"`
	Message  string    `db:"message" json:"message"`
	ByteSize *int64    `db:"byte_size" json:"byte_size"`
	Created  time.Time `db:"created_at" json:"created_at"`
	// FileURL and ThumbnailURL are the file's and its thumbnail's addresses (filled in, not stored).
	FileURL      string `db:"-" json:"file_url"`
	ThumbnailURL string `db:"-" json:"thumbnail_url"`
}

const columns = `c.id, c.name, c.folder_id, u.blob_key, u.width, u.height, c.format, u.status, u.message, u.byte_size, c.created_at`

// Folder filters of the list.
const (
	allFolders int64 = -1
	noFolder   int64 = 0
)

const (
	qWhere = `FROM cliparts c JOIN uploads u ON u.id = c.upload_id
WHERE c.seller_id = $1 AND c.deleted_at IS NULL
	AND ($2 = -1 OR ($2 = 0 AND c.folder_id IS NULL) OR c.folder_id = $2)
	AND ($3 = '' OR c.name ILIKE $3)
	AND ($4 = '' OR u.status = $4)`
	qCount = `SELECT count(*) ` + qWhere
	qList  = `SELECT ` + columns + ` ` + qWhere + ` ORDER BY c.id DESC LIMIT $5 OFFSET $6`
	qGet   = `SELECT ` + columns + ` FROM cliparts c JOIN uploads u ON u.id = c.upload_id
WHERE c.id = $1 AND c.seller_id = $2 AND c.deleted_at IS NULL`
	qAdd = `INSERT INTO cliparts (seller_id, folder_id, upload_id, name, format) VALUES ($1, $2, $3, $4, $5) RETURNING id`
	qSet = `UPDATE cliparts SET name = $3, folder_id = $4 WHERE id = $1 AND seller_id = $2 AND deleted_at IS NULL`
	// qDelete hides the clipart and answers its file's key.
	qDelete = `UPDATE cliparts c SET deleted_at = now() FROM uploads u
WHERE c.id = $1 AND c.seller_id = $2 AND c.deleted_at IS NULL AND u.id = c.upload_id RETURNING u.blob_key`
	// qRemovable are deleted cliparts whose files may go, oldest first.
	qRemovable = `SELECT id FROM cliparts WHERE deleted_at IS NOT NULL AND deleted_at <= $1 ORDER BY deleted_at LIMIT 100`
	// qLock locks the upload of a deleted clipart: a campaign save naming it reads the row FOR SHARE
	// and so finishes first, and the look at its uses after sees that save.
	qLock = `SELECT c.seller_id, u.id AS upload_id, u.blob_key, u.source_key FROM cliparts c JOIN uploads u ON u.id = c.upload_id
WHERE c.id = $1 AND c.deleted_at IS NOT NULL FOR UPDATE OF u`
)

type store struct{ db *sqlx.DB }

// filter is what the list is narrowed to.
type filter struct {
	folder  int64
	pattern string
	status  string
}

func (s store) list(ctx context.Context, sellerID int64, f filter, limit, offset int) ([]Clipart, int, error) {
	var total int
	if err := s.db.GetContext(ctx, &total, qCount, sellerID, f.folder, f.pattern, f.status); err != nil {
		return nil, 0, fmt.Errorf("count cliparts: %w", err)
	}
	out := []Clipart{}
	if err := s.db.SelectContext(ctx, &out, qList, sellerID, f.folder, f.pattern, f.status, limit, offset); err != nil {
		return nil, 0, fmt.Errorf("list cliparts: %w", err)
	}
	return out, total, nil
}

func (s store) get(ctx context.Context, sellerID, id int64) (Clipart, error) {
	var c Clipart
	err := s.db.GetContext(ctx, &c, qGet, id, sellerID)
	if errors.Is(err, sql.ErrNoRows) {
		return Clipart{}, ErrNotFound
	}
	if err != nil {
		return Clipart{}, fmt.Errorf("load clipart %d: %w", id, err)
	}
	return c, nil
}

// newClipart is a clipart to record, with its upload.
type newClipart struct {
	sellerID  int64
	folderID  *int64
	name      string
	format    string
	key       string
	sourceKey string
	fileName  string
}

// add records the upload, its render:sanitize task and the clipart in one transaction, and answers
// the clipart's id and the outbox row to dispatch after commit. The folder is checked in it (a folder
// deleted meanwhile refuses the clipart rather than filing it nowhere).
func (s store) add(ctx context.Context, n newClipart) (int64, int64, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	if n.folderID != nil {
		if err := folders.Owned(ctx, tx, n.sellerID, folders.Cliparts, *n.folderID); err != nil {
			return 0, 0, err
		}
	}
	up, outboxID, err := uploads.Insert(ctx, tx, uploadcheck.Upload{OwnerID: n.sellerID, Key: n.key, FileName: n.fileName,
		Kind: "clipart", SourceKey: n.sourceKey})
	if err != nil {
		return 0, 0, err
	}
	var id int64
	if err := tx.GetContext(ctx, &id, qAdd, n.sellerID, n.folderID, up.ID, n.name, n.format); err != nil {
		return 0, 0, fmt.Errorf("add clipart: %w", err)
	}
	return id, outboxID, tx.Commit()
}

// set renames the clipart and files it in folderID (nil: outside any folder).
func (s store) set(ctx context.Context, sellerID, id int64, name string, folderID *int64) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if folderID != nil {
		if err := folders.Owned(ctx, tx, sellerID, folders.Cliparts, *folderID); err != nil {
			return err
		}
	}
	res, err := tx.ExecContext(ctx, qSet, id, sellerID, name, folderID)
	if err != nil {
		return fmt.Errorf("change clipart %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return tx.Commit()
}

// remove hides the clipart and answers what still uses its file.
func (s store) remove(ctx context.Context, sellerID, id int64) (uploads.Usage, error) {
	var key string
	err := s.db.GetContext(ctx, &key, qDelete, id, sellerID)
	if errors.Is(err, sql.ErrNoRows) {
		return uploads.Usage{}, ErrNotFound
	}
	if err != nil {
		return uploads.Usage{}, fmt.Errorf("delete clipart %d: %w", id, err)
	}
	used, err := uploads.UsageOf(ctx, s.db, sellerID, []string{key})
	return used[key], err
}

func (s store) removable(ctx context.Context, deletedBefore time.Time) ([]int64, error) {
	var ids []int64
	if err := s.db.SelectContext(ctx, &ids, qRemovable, deletedBefore); err != nil {
		return nil, fmt.Errorf("find removable cliparts: %w", err)
	}
	return ids, nil
}

// removeFiles removes deleted clipart id's files with del and its upload row (and with it the
// clipart's), when nothing uses them; it answers whether it did. The files go before the rows: a
// failure leaves the rows for the next sweep (deleting a missing object is no error).
func (s store) removeFiles(ctx context.Context, id int64, del func(ctx context.Context, key string) error) (bool, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	var row struct {
		SellerID  int64  `db:"seller_id"`
		UploadID  int64  `db:"upload_id"`
		Key       string `db:"blob_key"`
		SourceKey string `db:"source_key"`
	}
	if err := tx.GetContext(ctx, &row, qLock, id); errors.Is(err, sql.ErrNoRows) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("lock clipart %d: %w", id, err)
	}
	used, err := uploads.UsageOf(ctx, tx, row.SellerID, []string{row.Key})
	if err != nil {
		return false, err
	}
	if used[row.Key].Used() {
		return false, nil
	}
	if err := uploads.RemoveFile(ctx, del, row.Key, row.SourceKey); err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM uploads WHERE id = $1`, row.UploadID); err != nil {
		return false, fmt.Errorf("forget clipart %d: %w", id, err)
	}
	return true, tx.Commit()
}
