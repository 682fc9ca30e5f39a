package uploadcheck

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// contentTypes are the files an upload may be, by extension; the renderer checks the bytes.
var contentTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp",
}

// MsgFileType is the refusal of a file name with another extension.
const MsgFileType = "Only PNG, JPEG and WebP images can be uploaded."

// ErrFileType means the file name's extension is not an accepted image type.
var ErrFileType = errors.New("file type not accepted")

// ContentType is the content type of fileName by its extension, or ErrFileType.
func ContentType(fileName string) (string, error) {
	ct, ok := contentTypes[strings.ToLower(path.Ext(fileName))]
	if !ok {
		return "", ErrFileType
	}
	return ct, nil
}

// Upload is an upload to record.
type Upload struct {
	// OwnerID is the seller's (0: nobody's, as a buyer's photo or a review's is).
	OwnerID  int64
	Key      string
	FileName string
	Kind     string
	// SourceKey is the file the renderer makes Key from (an SVG clipart's clean file), or "".
	SourceKey string
}

// Record inserts the pending upload u with its render:sanitize task, in tx: the one place an
// upload row and its check are written together. It answers the upload's id and the outbox row to
// dispatch after commit; a key recorded before answers id 0 and adds nothing, so a repeated call
// queues no second check.
func Record(ctx context.Context, tx sqlx.ExtContext, u Upload) (id, outboxID int64, err error) {
	const q = `INSERT INTO uploads (owner_id, blob_key, file_name, kind, source_key) VALUES (NULLIF($1, 0), $2, $3, $4, $5)
ON CONFLICT (blob_key) DO NOTHING RETURNING id`
	err = sqlx.GetContext(ctx, tx, &id, q, u.OwnerID, u.Key, u.FileName, u.Kind, u.SourceKey)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("record upload: %w", err)
	}
	job, err := tasks.NewSanitizeJob(id)
	if err != nil {
		return 0, 0, err
	}
	outboxID, err = outbox.Add(ctx, tx, job)
	return id, outboxID, err
}
