package campaigns

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
)

// Exported is a campaign as the export writes it (docs/campaigns.md#export).
type Exported struct {
	ID          int64          `db:"id" json:"id"`
	Name        string         `db:"name" json:"name"`
	Slug        string         `db:"slug" json:"slug"`
	SystemType  string         `db:"kind" json:"system_type"`
	ProductType string         `db:"product_type" json:"product_type"`
	Status      string         `db:"status" json:"status"`
	Products    pq.StringArray `db:"products" json:"products"`
	Designs     int            `db:"designs" json:"designs"`
	Stores      pq.StringArray `db:"stores" json:"stores"`
	ArtworkURL  string         `db:"artwork_url" json:"artwork_url"`
	CreatedAt   time.Time      `db:"created_at" json:"created_at"`
	UpdatedAt   time.Time      `db:"updated_at" json:"updated_at"`
}

// exportHeader is the CSV's first row, one column per field of Exported.
var exportHeader = []string{"id", "name", "slug", "system_type", "product_type", "status", "products", "designs", "stores",
	"artwork_url", "created_at", "updated_at"}

// csvRow is e as a CSV row: lists joined by "; ", times in RFC 3339 (UTC).
func (e Exported) csvRow() []string {
	return []string{strconv.FormatInt(e.ID, 10), e.Name, e.Slug, e.SystemType, e.ProductType, e.Status,
		strings.Join(e.Products, "; "), strconv.Itoa(e.Designs), strings.Join(e.Stores, "; "), e.ArtworkURL,
		e.CreatedAt.UTC().Format(time.RFC3339), e.UpdatedAt.UTC().Format(time.RFC3339)}
}

// qExport is the filtered campaigns with their products, designs and the stores selling them,
// newest first.
const qExport = `SELECT c.id, c.name, c.slug, c.kind, ` + productTypeOf + ` AS product_type, c.status,
	array(SELECT p.name FROM campaign_products p WHERE p.campaign_id = c.id ORDER BY p.position, p.id) AS products,
	(SELECT count(*) FROM campaign_designs d WHERE d.campaign_id = c.id) AS designs,
	array(SELECT s.slug FROM stores s WHERE s.owner_id = c.user_id AND EXISTS (
		SELECT 1 FROM store_products sp WHERE sp.store_id = s.id AND sp.campaign_id = c.id AND sp.status = 'active') ORDER BY s.slug) AS stores,
	c.artwork_url, c.created_at, c.updated_at` + listWhere + ` ORDER BY c.id DESC`

// handleExport streams the caller's campaigns the list's filters match (all of them, not a page)
// as CSV or JSON (format=csv, the default, or json), row by row in flat memory.
func (s *Service) handleExport(c echo.Context) error {
	format := c.QueryParam("format")
	if format == "" {
		format = "csv"
	}
	if format != "csv" && format != "json" {
		return invalid(envelope.FieldError{Field: "format", Message: MsgBadFormat})
	}
	f, err := parseFilter(c, strings.TrimSpace(c.QueryParam("q")))
	if err != nil {
		return err
	}
	each := func(emit func(Exported) error) error {
		rows, err := s.d.DB.QueryxContext(c.Request().Context(), qExport, f.args(owner(c))...)
		if err != nil {
			return fmt.Errorf("export campaigns: %w", err)
		}
		defer rows.Close()
		return scanEach(rows, emit)
	}
	if format == "json" {
		return listing.StreamJSON(c, "campaigns", func(write func(any) error) error {
			return each(func(e Exported) error { return write(e) })
		})
	}
	return listing.StreamCSV(c, "campaigns", exportHeader, func(write func([]string) error) error {
		return each(func(e Exported) error { return write(e.csvRow()) })
	})
}

// scanEach reads rows one at a time into emit.
func scanEach(rows *sqlx.Rows, emit func(Exported) error) error {
	for rows.Next() {
		var e Exported
		if err := rows.StructScan(&e); err != nil {
			return fmt.Errorf("read exported campaign: %w", err)
		}
		if err := emit(e); err != nil {
			return err
		}
	}
	return rows.Err()
}
