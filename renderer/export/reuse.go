package export

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/renderer/design"
)

// renderVersion names the renderer's output in fingerprints: raise it with any change that makes a
// document render differently, so that print files of the old output are no longer copied.
const renderVersion = 1

// fingerprint identifies what a print file is made of: the renderer's output version, the document
// (parsed and written back, so that spacing and key order do not count) and every source it reads, by
// key, size and modification time. Designs with the same fingerprint have the same print file: the
// back of every campaign a bulk upload makes, copied from its template, is rendered once.
func fingerprint(ctx context.Context, store blob.Store, doc *design.Document) (string, error) {
	b, err := json.Marshal(doc)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "pressroom print v%d\n%s\n", renderVersion, b)
	for _, src := range doc.Sources() {
		info, err := store.Stat(ctx, src.Value)
		if errors.Is(err, blob.ErrNotFound) {
			// The render reports the missing source; the fingerprint still names the document.
			fmt.Fprintf(h, "%s missing\n", src.Value)
			continue
		}
		if err != nil {
			return "", fmt.Errorf("stat %s: %w", src.Value, err)
		}
		fmt.Fprintf(h, "%s %d %d\n", src.Value, info.Size, info.ModTime.UnixNano())
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// reuse copies the files of another finished design with fingerprint fp (files: the print file, its
// mockup source and, when custom, its base source) to key's, returning what that design recorded. ok
// is false when there is no such design or one of its files is gone (it was exported again meanwhile,
// or before base sources were made): the document is rendered instead.
func (h *Handler) reuse(ctx context.Context, fp string, designID int64, key string, custom bool) (printed, bool, error) {
	const find = `SELECT file_url, width, height, file_size, export_report FROM campaign_designs
WHERE render_key = $1 AND export_status = 'done' AND id <> $2 ORDER BY id LIMIT 1`
	var found struct {
		FileURL string `db:"file_url"`
		Width   int    `db:"width"`
		Height  int    `db:"height"`
		Size    int64  `db:"file_size"`
		Report  []byte `db:"export_report"`
	}
	err := h.db.GetContext(ctx, &found, find, fp, designID)
	if errors.Is(err, sql.ErrNoRows) {
		return printed{}, false, nil
	}
	if err != nil {
		return printed{}, false, fmt.Errorf("find a print file like design %d's: %w", designID, err)
	}
	to := files(key, custom)
	for i, from := range files(found.FileURL, custom) {
		if err := h.copy(ctx, from, to[i]); errors.Is(err, blob.ErrNotFound) {
			return printed{}, false, nil
		} else if err != nil {
			return printed{}, false, err
		}
	}
	return printed{width: found.Width, height: found.Height, size: found.Size, report: found.Report}, true, nil
}

// copy stores the object under from again under to.
func (h *Handler) copy(ctx context.Context, from, to string) error {
	r, info, err := h.store.Get(ctx, from)
	if err != nil {
		return err
	}
	defer r.Close()
	if err := h.store.Put(ctx, to, io.LimitReader(r, info.Size), info.Size, info.ContentType); err != nil {
		return fmt.Errorf("copy %s to %s: %w", from, to, err)
	}
	return nil
}
