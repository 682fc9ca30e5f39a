package review

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Item statuses (the order item's design statuses and the review's outcomes).
const (
	StatusDesigning = "designing"
	StatusReviewing = "reviewing"
	StatusApproved  = "approved"
	StatusRejected  = "rejected"
)

// Review actions, as events record them.
const (
	ActionApprove  = "approve"
	ActionReject   = "reject"
	ActionReplace  = "replace"
	ActionRerender = "rerender"
)

// errNotFound: no item with that id.
var errNotFound = errors.New("review: no such item")

// Item is a design-order item as the queue and the review screen show it. The detail fields
// (Design, Events, FileURL) are only filled for one item.
type Item struct {
	ID              int64           `db:"id" json:"id"`
	OrderID         int64           `db:"order_id" json:"order_id"`
	OrderNumber     string          `db:"order_number" json:"order_number"`
	CustomerName    string          `db:"customer_name" json:"customer_name"`
	SellerID        int64           `db:"seller_id" json:"seller_id"`
	ProductName     string          `db:"product_name" json:"product_name"`
	ProductType     string          `db:"product_type" json:"product_type"`
	PrintSpace      json.RawMessage `db:"print_space" json:"print_space"`
	Personalization json.RawMessage `db:"personalization" json:"personalization"`
	Status          string          `db:"status" json:"status"`
	Revision        int64           `db:"revision" json:"revision"`
	PrintStatus     string          `db:"print_status" json:"print_status"`
	PrintError      string          `db:"print_error" json:"print_error"`
	PrintKey        string          `db:"print_key" json:"-"`
	Width           *int            `db:"width" json:"width"`
	Height          *int            `db:"height" json:"height"`
	DeclaredDPI     *float64        `db:"declared_dpi" json:"declared_dpi"`
	ByteSize        *int64          `db:"byte_size" json:"byte_size"`
	Stripped        *bool           `db:"stripped" json:"stripped"`
	DPIReport       nullJSON        `db:"dpi_report" json:"dpi_report"`
	Manifest        nullJSON        `db:"tiles_manifest" json:"manifest"`
	UpdatedAt       time.Time       `db:"updated_at" json:"updated_at"`
	Design          json.RawMessage `db:"design_json" json:"design,omitempty"`
	// TilesURL is the bff path the tiles of this revision are under: TilesURL + "{level}/{col}_{row}.{format}".
	TilesURL string `db:"-" json:"tiles_url,omitempty"`
	// FileURL is a signed, expiring URL of the full print file.
	FileURL string  `db:"-" json:"file_url,omitempty"`
	Events  []Event `db:"-" json:"events,omitempty"`
}

// nullJSON is a jsonb column that may be NULL, answered as null.
type nullJSON []byte

// Scan implements sql.Scanner.
func (n *nullJSON) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*n = nil
	case []byte:
		*n = append((*n)[:0], v...)
	case string:
		*n = nullJSON(v)
	default:
		return fmt.Errorf("review: scan %T into a JSON column", src)
	}
	return nil
}

// MarshalJSON implements json.Marshaler.
func (n nullJSON) MarshalJSON() ([]byte, error) {
	if len(n) == 0 {
		return []byte("null"), nil
	}
	return n, nil
}

// Event is one recorded review action.
type Event struct {
	ID        int64     `db:"id" json:"id"`
	UserID    *int64    `db:"user_id" json:"user_id"`
	UserName  string    `db:"user_name" json:"user_name"`
	Action    string    `db:"action" json:"action"`
	Comment   string    `db:"comment" json:"comment"`
	Revision  int64     `db:"revision" json:"revision"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
}

const itemColumns = `i.id, i.order_id, o.number AS order_number, o.customer_name, o.seller_id, i.product_name,
	i.product_type, i.print_space, i.personalization, i.status, i.revision, i.print_status, i.print_error, i.print_key,
	i.width, i.height, i.declared_dpi, i.byte_size, i.stripped, i.dpi_report, i.tiles_manifest, i.updated_at`

// listFrom is the queue's FROM and WHERE: $1 the statuses (all when empty), $2 the search.
const listFrom = `FROM design_order_items i JOIN design_orders o ON o.id = i.order_id
WHERE (coalesce(cardinality($1::text[]), 0) = 0 OR i.status = ANY($1))
  AND ($2 = '' OR o.number ILIKE '%' || $2 || '%' OR o.customer_name ILIKE '%' || $2 || '%' OR i.product_name ILIKE '%' || $2 || '%')`

// listFilter is what the queue asks for.
type listFilter struct {
	statuses []string
	q        string
	limit    int
	offset   int
	asc      bool
}

// list returns one page of items in the statuses (all when empty), matching q on the order number,
// customer or product, oldest first when asc, and the total.
func list(ctx context.Context, db sqlx.QueryerContext, f listFilter) ([]Item, int, error) {
	order := "DESC"
	if f.asc {
		order = "ASC"
	}
	q := `SELECT ` + itemColumns + `, count(*) OVER () AS total
` + listFrom + `
ORDER BY i.id ` + order + `
LIMIT $3 OFFSET $4`
	var rows []struct {
		Item
		Total int `db:"total"`
	}
	if err := sqlx.SelectContext(ctx, db, &rows, q, pq.Array(f.statuses), f.q, f.limit, f.offset); err != nil {
		return nil, 0, fmt.Errorf("list design-order items: %w", err)
	}
	items := make([]Item, len(rows))
	total := 0
	for i, r := range rows {
		items[i], total = r.Item, r.Total
	}
	if len(rows) == 0 && f.offset > 0 {
		// Past the last page: count without it.
		cq := `SELECT count(*) ` + listFrom
		if err := sqlx.GetContext(ctx, db, &total, cq, pq.Array(f.statuses), f.q); err != nil {
			return nil, 0, fmt.Errorf("count design-order items: %w", err)
		}
	}
	return items, total, nil
}

// get returns one item with its design document; lock takes the row for update (q is then a
// transaction).
func get(ctx context.Context, db sqlx.QueryerContext, id int64, lock bool) (Item, error) {
	q := `SELECT ` + itemColumns + `, i.design_json FROM design_order_items i JOIN design_orders o ON o.id = i.order_id
WHERE i.id = $1`
	if lock {
		q += ` FOR UPDATE OF i`
	}
	var it Item
	err := sqlx.GetContext(ctx, db, &it, q, id)
	if errors.Is(err, sql.ErrNoRows) {
		return Item{}, errNotFound
	}
	if err != nil {
		return Item{}, fmt.Errorf("load design-order item %d: %w", id, err)
	}
	return it, nil
}

// events returns an item's review actions, newest first.
func events(ctx context.Context, db sqlx.QueryerContext, id int64) ([]Event, error) {
	const q = `SELECT e.id, e.user_id, coalesce(u.name, '') AS user_name, e.action, e.comment, e.revision, e.created_at
FROM design_review_events e LEFT JOIN users u ON u.id = e.user_id WHERE e.item_id = $1 ORDER BY e.id DESC`
	out := []Event{}
	if err := sqlx.SelectContext(ctx, db, &out, q, id); err != nil {
		return nil, fmt.Errorf("load review events of item %d: %w", id, err)
	}
	return out, nil
}

// record adds a review action.
func record(ctx context.Context, tx sqlx.ExtContext, itemID, userID int64, action, comment string, revision int64) error {
	const q = `INSERT INTO design_review_events (item_id, user_id, action, comment, revision) VALUES ($1, $2, $3, $4, $5)`
	if _, err := tx.ExecContext(ctx, q, itemID, userID, action, comment, revision); err != nil {
		return fmt.Errorf("record %s of item %d: %w", action, itemID, err)
	}
	return nil
}

// setStatus moves an item to status.
func setStatus(ctx context.Context, tx sqlx.ExtContext, id int64, status string) error {
	const q = `UPDATE design_order_items SET status = $2, updated_at = now() WHERE id = $1`
	if _, err := tx.ExecContext(ctx, q, id, status); err != nil {
		return fmt.Errorf("move item %d to %s: %w", id, status, err)
	}
	return nil
}

// newRevision starts the item's next print file: designing again, the facts of the old file cleared,
// printKey the new file (” while it is rendered). It returns the new revision.
func newRevision(ctx context.Context, tx sqlx.QueryerContext, id int64, printKey string) (int64, error) {
	const q = `UPDATE design_order_items SET revision = revision + 1, status = 'designing', print_status = 'pending',
	print_error = '', print_key = $2, width = NULL, height = NULL, declared_dpi = NULL, byte_size = NULL, stripped = NULL,
	dpi_report = NULL, tiles_key = '', tiles_manifest = NULL, updated_at = now()
WHERE id = $1 RETURNING revision`
	var rev int64
	if err := sqlx.GetContext(ctx, tx, &rev, q, id, printKey); err != nil {
		return 0, fmt.Errorf("start a new print file of item %d: %w", id, err)
	}
	return rev, nil
}

// upload is what a replacement needs of an upload.
type upload struct {
	Key         string `db:"blob_key"`
	Status      string `db:"status"`
	ContentType string `db:"content_type"`
	Version     string `db:"blob_version"`
}

// uploadOf returns the caller's upload id.
func uploadOf(ctx context.Context, db sqlx.QueryerContext, ownerID, id int64) (upload, error) {
	const q = `SELECT blob_key, status, content_type, blob_version FROM uploads WHERE id = $1 AND owner_id = $2`
	var u upload
	err := sqlx.GetContext(ctx, db, &u, q, id, ownerID)
	if errors.Is(err, sql.ErrNoRows) {
		return upload{}, errNotFound
	}
	if err != nil {
		return upload{}, fmt.Errorf("load upload %d: %w", id, err)
	}
	return u, nil
}
