package uploads

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/platform/uploadcheck"
)

// Upload statuses.
const (
	StatusPending  = "pending"
	StatusReady    = "ready"
	StatusRejected = "rejected"
)

// Upload is one row of the uploads table, as the UI reads it.
type Upload struct {
	ID          int64    `db:"id" json:"id"`
	OwnerID     *int64   `db:"owner_id" json:"owner_id"`
	Key         string   `db:"blob_key" json:"filePath"`
	FileName    string   `db:"file_name" json:"file_name"`
	Kind        string   `db:"kind" json:"type"`
	Status      string   `db:"status" json:"status"`
	Message     string   `db:"message" json:"message"`
	ContentType string   `db:"content_type" json:"content_type"`
	Width       *int     `db:"width" json:"width"`
	Height      *int     `db:"height" json:"height"`
	DPIX        *float64 `db:"dpi_x" json:"dpi_x"`
	DPIY        *float64 `db:"dpi_y" json:"dpi_y"`
	ByteSize    *int64   `db:"byte_size" json:"byte_size"`
	Stripped    bool     `db:"stripped" json:"stripped"`
	BlobVersion string   `db:"blob_version" json:"-"`
	// FolderID is the artwork folder the upload is filed in (package folders), if any.
	FolderID  *int64    `db:"folder_id" json:"folder_id"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
	UpdatedAt time.Time `db:"updated_at" json:"updated_at"`
	// FileURL is the stable address of the file (filled in, not stored).
	FileURL string `db:"-" json:"fileUrl"`
}

// Columns are the columns of an Upload, for the packages that read uploads their own way (artworks).
const Columns = `id, owner_id, blob_key, file_name, kind, status, message, content_type, width, height, dpi_x, dpi_y,
byte_size, stripped, blob_version, folder_id, created_at, updated_at`

const columns = Columns

// ErrNotFound means no upload matches.
var ErrNotFound = errors.New("upload not found")

// store keeps uploads in Postgres.
type store struct{ db *sqlx.DB }

// record inserts a pending upload of key with its sanitize task in one transaction and returns it
// with the outbox row to dispatch after commit. Recording a key again returns the first row and
// no outbox row: the ingest call may be repeated.
func (s store) record(ctx context.Context, ownerID int64, key, fileName, kind string) (Upload, int64, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return Upload{}, 0, err
	}
	defer tx.Rollback()
	// The upload is completed: the sweep must leave its file alone.
	if _, err := tx.ExecContext(ctx, `DELETE FROM upload_grants WHERE blob_key = $1`, key); err != nil {
		return Upload{}, 0, fmt.Errorf("record upload: %w", err)
	}
	u, outboxID, err := Insert(ctx, tx, uploadcheck.Upload{OwnerID: ownerID, Key: key, FileName: fileName, Kind: kind})
	if errors.Is(err, errRecorded) {
		u, err = s.byKey(ctx, key)
		return u, 0, err
	}
	if err != nil {
		return Upload{}, 0, err
	}
	return u, outboxID, tx.Commit()
}

// errRecorded means the key has an upload row already.
var errRecorded = errors.New("upload already recorded")

// Insert records the pending upload n with its check (uploadcheck.Record) in tx and answers its row
// and the outbox row to dispatch after commit; errRecorded when the key has a row already.
func Insert(ctx context.Context, tx *sqlx.Tx, n uploadcheck.Upload) (Upload, int64, error) {
	id, outboxID, err := uploadcheck.Record(ctx, tx, n)
	if err != nil {
		return Upload{}, 0, err
	}
	if id == 0 {
		return Upload{}, 0, errRecorded
	}
	var u Upload
	if err := tx.GetContext(ctx, &u, `SELECT `+columns+` FROM uploads WHERE id = $1`, id); err != nil {
		return Upload{}, 0, fmt.Errorf("record upload: %w", err)
	}
	return u, outboxID, nil
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

// grant records a signed upload of key, allowed up to maxBytes until expires.
func (s store) grant(ctx context.Context, key string, maxBytes int64, expires time.Time) error {
	const q = `INSERT INTO upload_grants (blob_key, max_bytes, expires_at) VALUES ($1, $2, $3)
ON CONFLICT (blob_key) DO UPDATE SET max_bytes = excluded.max_bytes, expires_at = excluded.expires_at`
	if _, err := s.db.ExecContext(ctx, q, key, maxBytes, expires); err != nil {
		return fmt.Errorf("record signed upload: %w", err)
	}
	return nil
}

// sweepBatch is how many abandoned grants one transaction of the sweep claims.
const sweepBatch = 100

// sweep claims up to sweepBatch grants that expired more than grace ago, calls remove with the keys
// of those no upload took, and deletes the grants once remove succeeded, all in one transaction:
// another process sweeping at the same time skips the claimed rows, and a failed remove leaves them
// for the next pass. It returns how many grants it settled.
func (s store) sweep(ctx context.Context, grace time.Duration, remove func(keys []string) error) (int, error) {
	const claim = `SELECT g.blob_key, EXISTS (SELECT 1 FROM uploads u WHERE u.blob_key = g.blob_key) AS completed
FROM upload_grants g WHERE g.expires_at < now() - make_interval(secs => $1)
ORDER BY g.expires_at LIMIT $2 FOR UPDATE OF g SKIP LOCKED`
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var rows []struct {
		Key       string `db:"blob_key"`
		Completed bool   `db:"completed"`
	}
	if err := tx.SelectContext(ctx, &rows, claim, grace.Seconds(), sweepBatch); err != nil {
		return 0, fmt.Errorf("claim abandoned uploads: %w", err)
	}
	if len(rows) == 0 {
		return 0, nil
	}
	all, abandoned := make([]string, 0, len(rows)), []string{}
	for _, r := range rows {
		all = append(all, r.Key)
		if !r.Completed {
			abandoned = append(abandoned, r.Key)
		}
	}
	if err := remove(abandoned); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM upload_grants WHERE blob_key = ANY($1)`, pq.Array(all)); err != nil {
		return 0, fmt.Errorf("forget abandoned uploads: %w", err)
	}
	return len(rows), tx.Commit()
}

// campaignPublished is the status of a campaign buyers see; every other status is a draft.
const campaignPublished = "active"

// campaignRow is what the file rules read of a campaign.
type campaignRow struct {
	UserID int64  `db:"user_id"`
	Status string `db:"status"`
}

// campaign reads the owner and status of campaign id.
func (s store) campaign(ctx context.Context, id int64) (campaignRow, error) {
	var r campaignRow
	err := s.db.GetContext(ctx, &r, `SELECT user_id, status FROM campaigns WHERE id = $1`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return campaignRow{}, ErrNotFound
	}
	return r, err
}
