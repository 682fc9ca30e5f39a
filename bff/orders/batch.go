package orders

import (
	"archive/zip"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"strconv"
	"time"
	"unicode"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/platform/blob"
)

// Messages of the production batch.
const (
	MsgBatchDate    = "The date must be a day as YYYY-MM-DD."
	MsgBatchEmpty   = "No item is ready to print for this day."
	MsgBatchTooMany = "More than 2000 print files are ready: download them a day at a time."
)

// maxBatchFiles caps one batch download.
const maxBatchFiles = 2000

// batchFile is one print file of an item ready to print.
type batchFile struct {
	OrderID     int64  `db:"order_id"`
	OrderNumber string `db:"order_number"`
	SellerName  string `db:"seller_name"`
	ItemID      int64  `db:"item_id"`
	ProductName string `db:"product_name"`
	Color       string `db:"color"`
	Size        string `db:"size"`
	Quantity    int    `db:"quantity"`
	PrintSpace  string `db:"print_space"`
	PrintKey    string `db:"print_key"`
	// CreatedAt orders the batch.
	CreatedAt time.Time `db:"created_at"`
}

// name is the file's path in the batch: a folder per order (its number, and its id, as sellers'
// numbers overlap), then the item and its print space.
func (f batchFile) name() string {
	return path.Join(fmt.Sprintf("%s-%d", safeName(f.OrderNumber), f.OrderID), fmt.Sprintf("%d-%s.png", f.ItemID, safeName(f.PrintSpace)))
}

// safeName keeps letters, digits, '-' and '_' of s for a path inside the zip, so no name can climb out
// of its folder or mean something else to an unzipping tool.
func safeName(s string) string {
	out := []rune{}
	for _, r := range s {
		if r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			out = append(out, r)
		} else {
			out = append(out, '_')
		}
	}
	if len(out) == 0 {
		return "_"
	}
	return string(out)
}

// qBatch lists the print files of the queue's items (qQueueFrom), of orders made on day $1 (all when
// NULL), at most $2.
const qBatch = `SELECT q.*, COALESCE(di.print_space->>'name', '') AS print_space, di.print_key
FROM (SELECT o.id AS order_id, o.number AS order_number, u.name AS seller_name, i.id AS item_id, i.product_name, i.color,
		i.size, i.quantity, o.created_at` + qQueueFrom + `
		AND ($1::date IS NULL OR (o.created_at >= $1::date AND o.created_at < $1::date + 1))) q
JOIN design_order_items di ON di.order_item_id = q.item_id
ORDER BY q.created_at, q.item_id, di.id LIMIT $2`

// batchHeader is the manifest's header.
var batchHeader = []string{"file", "order_number", "seller", "item_id", "product", "color", "size", "quantity", "print_space", "status"}

// handleBatch streams the print files of the items ready to print (see QueueItem) as one zip:
// ORDER/ITEM-SPACE.png per file and manifest.csv listing each with its order, product, colour, size
// and quantity, so the print room can work from the folder alone. ?date=YYYY-MM-DD narrows it to
// the orders of that day (UTC): the daily batch. A file missing from the store is listed in the
// manifest as missing instead of failing the batch.
func (s *Service) handleBatch(c echo.Context) error {
	var day *time.Time
	if v := c.QueryParam("date"); v != "" {
		d, err := time.Parse(time.DateOnly, v)
		if err != nil {
			return envelope.Fail(http.StatusUnprocessableEntity, MsgBatchDate, envelope.FieldError{Field: "date", Message: MsgBatchDate})
		}
		day = &d
	}
	ctx := c.Request().Context()
	var files []batchFile
	if err := s.d.DB.SelectContext(ctx, &files, qBatch, day, maxBatchFiles+1); err != nil {
		return fmt.Errorf("production batch: %w", err)
	}
	switch {
	case len(files) == 0:
		return envelope.Fail(http.StatusNotFound, MsgBatchEmpty)
	case len(files) > maxBatchFiles:
		return envelope.Fail(http.StatusUnprocessableEntity, MsgBatchTooMany, envelope.FieldError{Field: "date", Message: MsgBatchTooMany})
	}
	name := "production-" + time.Now().UTC().Format(time.DateOnly) + ".zip"
	if day != nil {
		name = "production-" + day.Format(time.DateOnly) + ".zip"
	}
	res := c.Response()
	res.Header().Set(echo.HeaderContentType, "application/zip")
	res.Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s"`, name))
	res.WriteHeader(http.StatusOK)
	if err := s.writeBatch(ctx, res, files); err != nil {
		// The status line is gone: the client sees a cut-off file; the log keeps the reason.
		c.Logger().Error(err)
	}
	return nil
}

// writeBatch writes the files and then their manifest as a zip to w. PNGs are stored, not
// compressed again.
func (s *Service) writeBatch(ctx context.Context, w io.Writer, files []batchFile) error {
	z := zip.NewWriter(w)
	now := time.Now()
	manifest := make([][]string, 0, len(files))
	for _, f := range files {
		status, err := s.addFile(ctx, z, f, now)
		if err != nil {
			return err
		}
		manifest = append(manifest, []string{f.name(), listing.Cell(f.OrderNumber), listing.Cell(f.SellerName),
			strconv.FormatInt(f.ItemID, 10), listing.Cell(f.ProductName), listing.Cell(f.Color), listing.Cell(f.Size),
			strconv.Itoa(f.Quantity), listing.Cell(f.PrintSpace), status})
	}
	mw, err := z.CreateHeader(&zip.FileHeader{Name: "manifest.csv", Method: zip.Deflate, Modified: now})
	if err != nil {
		return err
	}
	cw := csv.NewWriter(mw)
	cw.Write(batchHeader)
	cw.WriteAll(manifest)
	if err := cw.Error(); err != nil {
		return err
	}
	return z.Close()
}

// addFile copies one print file into the zip, answering its manifest status: ok, or missing when
// the store has no such file (or it was never rendered).
func (s *Service) addFile(ctx context.Context, z *zip.Writer, f batchFile, now time.Time) (string, error) {
	if f.PrintKey == "" {
		return "missing", nil
	}
	r, _, err := s.d.Blob.Get(ctx, f.PrintKey)
	if errors.Is(err, blob.ErrNotFound) {
		return "missing", nil
	}
	if err != nil {
		return "", fmt.Errorf("print file %s: %w", f.PrintKey, err)
	}
	defer r.Close()
	fw, err := z.CreateHeader(&zip.FileHeader{Name: f.name(), Method: zip.Store, Modified: now})
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(fw, r); err != nil {
		return "", fmt.Errorf("print file %s: %w", f.PrintKey, err)
	}
	return "ok", nil
}
