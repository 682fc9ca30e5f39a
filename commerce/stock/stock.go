package stock

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// MaxChanges bounds one bulk change: a screen's worth of colours and sizes.
const MaxChanges = 500

// Option is a colour and a size.
type Option struct {
	Color string `db:"color" json:"color"`
	Size  string `db:"size" json:"size"`
}

// Options are the out-of-stock colours and sizes of one product.
type Options []Option

// Has reports whether color in size is among o.
func (o Options) Has(color, size string) bool {
	return slices.Contains(o, Option{Color: color, Size: size})
}

// qUnavailable is the rule: a product's colour and size is out of stock while its template's is,
// for the colours the product comes in.
const qUnavailable = `
SELECT p.id AS product_id, o.color, o.size
FROM campaign_products p
JOIN out_of_stock_variants o ON o.template_id = p.template_id
WHERE p.id = ANY($1)
	AND EXISTS (SELECT 1 FROM json_array_elements(p.options::json -> 'colors') col WHERE col ->> 'name' = o.color)
ORDER BY p.id, o.color, o.size`

// Unavailable answers the out-of-stock colours and sizes of each of the campaign products that has
// any; products with none are absent from the map.
func Unavailable(ctx context.Context, db sqlx.QueryerContext, productIDs []int64) (map[int64]Options, error) {
	out := map[int64]Options{}
	if len(productIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		ProductID int64 `db:"product_id"`
		Option
	}
	if err := sqlx.SelectContext(ctx, db, &rows, qUnavailable, pq.Array(productIDs)); err != nil {
		return nil, fmt.Errorf("load stock: %w", err)
	}
	for _, r := range rows {
		out[r.ProductID] = append(out[r.ProductID], r.Option)
	}
	return out, nil
}

// Change sets one colour and size of a template in or out of stock.
type Change struct {
	TemplateID int64  `json:"template_id"`
	Color      string `json:"color"`
	Size       string `json:"size"`
	InStock    bool   `json:"in_stock"`
}

// ChangeError is a change that names no colour or size of the catalogue; nothing was changed.
type ChangeError struct {
	Index   int    // of the change in the list
	Field   string // template_id, color or size
	Message string
}

func (e *ChangeError) Error() string {
	return fmt.Sprintf("change %d: %s: %s", e.Index, e.Field, e.Message)
}

// Messages of refused changes.
const (
	MsgNoChanges = "Choose one or more colours and sizes."
	MsgTooMany   = "Change at most 500 colours and sizes at once."
	MsgTemplate  = "Choose a product of the catalogue."
	MsgColor     = "Choose one of the product's colours."
	MsgSize      = "Choose one of the product's sizes."
)

// template is what a change is checked against: a template's colours and sizes.
type template struct{ Colors, Sizes []string }

// catalogue reads the colours and sizes of the templates.
func catalogue(ctx context.Context, db sqlx.QueryerContext) (map[int64]*template, error) {
	var rows []struct {
		ID      int64          `db:"id"`
		Options string         `db:"options"`
		Sizes   pq.StringArray `db:"sizes"`
	}
	const q = `SELECT t.id, t.options,
	coalesce((SELECT array_agg(z.size ORDER BY z.position) FROM product_sizes z WHERE z.product_type = t.product_type), '{}') AS sizes
FROM product_templates t`
	if err := sqlx.SelectContext(ctx, db, &rows, q); err != nil {
		return nil, fmt.Errorf("load catalogue: %w", err)
	}
	out := make(map[int64]*template, len(rows))
	for _, r := range rows {
		var opts struct {
			Colors []struct {
				Name string `json:"name"`
			} `json:"colors"`
		}
		if err := json.Unmarshal([]byte(r.Options), &opts); err != nil {
			return nil, fmt.Errorf("template %d options: %w", r.ID, err)
		}
		t := &template{Sizes: r.Sizes}
		for _, c := range opts.Colors {
			t.Colors = append(t.Colors, c.Name)
		}
		out[r.ID] = t
	}
	return out, nil
}

// Set applies changes as actor, in one transaction, and answers how many changed a status (setting
// what is already so changes nothing and records nothing). Each change that did something is kept
// in the history. A change naming no colour or size of the catalogue is a *ChangeError.
func Set(ctx context.Context, db *sqlx.DB, actor int64, changes []Change) (int, error) {
	switch {
	case len(changes) == 0:
		return 0, &ChangeError{Field: "changes", Message: MsgNoChanges}
	case len(changes) > MaxChanges:
		return 0, &ChangeError{Field: "changes", Message: MsgTooMany}
	}
	cat, err := catalogue(ctx, db)
	if err != nil {
		return 0, err
	}
	for i, c := range changes {
		t := cat[c.TemplateID]
		switch {
		case t == nil:
			return 0, &ChangeError{Index: i, Field: "template_id", Message: MsgTemplate}
		case !slices.Contains(t.Colors, c.Color):
			return 0, &ChangeError{Index: i, Field: "color", Message: MsgColor}
		case !slices.Contains(t.Sizes, c.Size):
			return 0, &ChangeError{Index: i, Field: "size", Message: MsgSize}
		}
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	const (
		qOut = `INSERT INTO out_of_stock_variants (template_id, color, size, changed_by) VALUES ($1, $2, $3, $4)
ON CONFLICT DO NOTHING`
		qIn      = `DELETE FROM out_of_stock_variants WHERE template_id = $1 AND color = $2 AND size = $3`
		qHistory = `INSERT INTO stock_status_changes (template_id, color, size, in_stock, changed_by) VALUES ($1, $2, $3, $4, $5)`
	)
	n := 0
	for _, c := range changes {
		args := []any{c.TemplateID, c.Color, c.Size}
		q := qIn
		if !c.InStock {
			q, args = qOut, append(args, actor)
		}
		res, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			return 0, fmt.Errorf("set stock: %w", err)
		}
		if done, _ := res.RowsAffected(); done == 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, qHistory, c.TemplateID, c.Color, c.Size, c.InStock, actor); err != nil {
			return 0, fmt.Errorf("record stock change: %w", err)
		}
		n++
	}
	return n, tx.Commit()
}

// Row is one colour and size of a template with its status.
type Row struct {
	TemplateID   int64      `db:"template_id" json:"template_id"`
	TemplateName string     `db:"template_name" json:"template_name"`
	ProductType  string     `db:"product_type" json:"product_type"`
	Color        string     `db:"color" json:"color"`
	Hex          string     `db:"hex" json:"hex"`
	Size         string     `db:"size" json:"size"`
	InStock      bool       `db:"in_stock" json:"in_stock"`
	Since        *time.Time `db:"since" json:"out_of_stock_since"`
}

// Filter narrows the grid.
type Filter struct {
	TemplateID int64 // 0: every template
	OutOnly    bool  // only what is out of stock
}

const qGrid = `
SELECT t.id AS template_id, t.name AS template_name, t.product_type, c.v ->> 'name' AS color,
	coalesce(c.v ->> 'hex', '') AS hex, z.size, o.template_id IS NULL AS in_stock, o.changed_at AS since
FROM product_templates t
CROSS JOIN LATERAL json_array_elements(t.options::json -> 'colors') WITH ORDINALITY AS c (v, n)
JOIN product_sizes z ON z.product_type = t.product_type
LEFT JOIN out_of_stock_variants o ON o.template_id = t.id AND o.color = c.v ->> 'name' AND o.size = z.size
WHERE ($1 = 0 OR t.id = $1) AND (NOT $2 OR o.template_id IS NOT NULL)
ORDER BY t.position, t.id, c.n, z.position`

// Grid answers every colour and size of the templates with its status, in the catalogue's order.
func Grid(ctx context.Context, db sqlx.QueryerContext, f Filter) ([]Row, error) {
	out := []Row{}
	if err := sqlx.SelectContext(ctx, db, &out, qGrid, f.TemplateID, f.OutOnly); err != nil {
		return nil, fmt.Errorf("load stock grid: %w", err)
	}
	return out, nil
}

// Entry is one change of the history.
type Entry struct {
	ID           int64     `db:"id" json:"id"`
	TemplateID   int64     `db:"template_id" json:"template_id"`
	TemplateName string    `db:"template_name" json:"template_name"`
	Color        string    `db:"color" json:"color"`
	Size         string    `db:"size" json:"size"`
	InStock      bool      `db:"in_stock" json:"in_stock"`
	ChangedBy    string    `db:"changed_by" json:"changed_by"`
	ChangedAt    time.Time `db:"changed_at" json:"changed_at"`
}

const qHistory = `
SELECT h.id, h.template_id, t.name AS template_name, h.color, h.size, h.in_stock, coalesce(u.name, '') AS changed_by, h.changed_at
FROM stock_status_changes h
JOIN product_templates t ON t.id = h.template_id
LEFT JOIN users u ON u.id = h.changed_by
ORDER BY h.changed_at DESC, h.id DESC
LIMIT $1`

// History answers the latest limit changes, newest first.
func History(ctx context.Context, db sqlx.QueryerContext, limit int) ([]Entry, error) {
	out := []Entry{}
	if err := sqlx.SelectContext(ctx, db, &out, qHistory, limit); err != nil {
		return nil, fmt.Errorf("load stock history: %w", err)
	}
	return out, nil
}
