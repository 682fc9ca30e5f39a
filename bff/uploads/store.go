package uploads

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// Upload statuses.
const (
	StatusPending  = "pending"
	StatusReady    = "ready"
	StatusRejected = "rejected"
)

// Upload is one row of the uploads table, as the UI reads it.
type Upload struct {
	ID          int64     `db:"id" json:"id"`
	OwnerID     *int64    `db:"owner_id" json:"owner_id"`
	Key         string    `db:"blob_key" json:"filePath"`
	FileName    string    `db:"file_name" json:"file_name"`
	Kind        string    `db:"kind" json:"type"`
	Status      string    `db:"status" json:"status"`
	Message     string    `db:"message" json:"message"`
	ContentType string    `db:"content_type" json:"content_type"`
	Width       *int      `db:"width" json:"width"`
	Height      *int      `db:"height" json:"height"`
	DPIX        *float64  `db:"dpi_x" json:"dpi_x"`
	DPIY        *float64  `db:"dpi_y" json:"dpi_y"`
	ByteSize    *int64    `db:"byte_size" json:"byte_size"`
	Stripped    bool      `db:"stripped" json:"stripped"`
	BlobVersion string    `db:"blob_version" json:"-"`
	CreatedAt   time.Time `db:"created_at" json:"created_at"`
	UpdatedAt   time.Time `db:"updated_at" json:"updated_at"`
	// FileURL is the stable address of the file (filled in, not stored).
	FileURL string `db:"-" json:"fileUrl"`
}

const columns = `id, owner_id, blob_key, file_name, kind, status, message, content_type, width, height, dpi_x, dpi_y,
byte_size, stripped, blob_version, created_at, updated_at`

// ErrNotFound means no upload matches.
var ErrNotFound = errors.New("upload not found")

// store keeps uploads in Postgres.
type store struct{ db *sqlx.DB }

// record inserts a pending upload of key with its sanitize task in one transaction and returns it
// with the outbox row to dispatch after commit. Recording a key again returns the first row and
// no outbox row: the ingest call may be repeated.
func (s store) record(ctx context.Context, ownerID int64, key, fileName, kind string) (Upload, int64, error) {
	const q = `INSERT INTO uploads (owner_id, blob_key, file_name, kind) VALUES (NULLIF($1, 0), $2, $3, $4)
ON CONFLICT (blob_key) DO NOTHING RETURNING ` + columns
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return Upload{}, 0, err
	}
	defer tx.Rollback()
	var u Upload
	err = tx.GetContext(ctx, &u, q, ownerID, key, fileName, kind)
	if errors.Is(err, sql.ErrNoRows) {
		u, err = s.byKey(ctx, key)
		return u, 0, err
	}
	if err != nil {
		return Upload{}, 0, fmt.Errorf("record upload: %w", err)
	}
	job, err := tasks.NewSanitizeJob(u.ID)
	if err != nil {
		return Upload{}, 0, err
	}
	outboxID, err := outbox.Add(ctx, tx, job)
	if err != nil {
		return Upload{}, 0, err
	}
	return u, outboxID, tx.Commit()
}

func (s store) get(ctx context.Context, id int64) (Upload, error) {
	var u Upload
	err := s.db.GetContext(ctx, &u, `SELECT `+columns+` FROM uploads WHERE id = $1`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return Upload{}, ErrNotFound
	}
	return u, err
}

func (s store) byKey(ctx context.Context, key string) (Upload, error) {
	var u Upload
	err := s.db.GetContext(ctx, &u, `SELECT `+columns+` FROM uploads WHERE blob_key = $1`, key)
	if errors.Is(err, sql.ErrNoRows) {
		return Upload{}, ErrNotFound
	}
	return u, err
}

// list pages through an owner's uploads, newest first, optionally those whose name contains q.
func (s store) list(ctx context.Context, ownerID int64, q string, limit, offset int) ([]Upload, int, error) {
	const count = `SELECT count(*) FROM uploads WHERE owner_id = $1 AND ($2 = '' OR file_name ILIKE '%' || $2 || '%')`
	const page = `SELECT ` + columns + ` FROM uploads WHERE owner_id = $1 AND ($2 = '' OR file_name ILIKE '%' || $2 || '%')
ORDER BY id DESC LIMIT $3 OFFSET $4`
	var total int
	if err := s.db.GetContext(ctx, &total, count, ownerID, q); err != nil {
		return nil, 0, err
	}
	items := []Upload{}
	if err := s.db.SelectContext(ctx, &items, page, ownerID, q, limit, offset); err != nil {
		return nil, 0, err
	}
	return items, total, nil
}
