package campaigns

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/uploads"
	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/trademark"
	"github.com/pressroom/pressroom/renderer/outlines"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// Errors of the store.
var (
	// ErrNotFound means the campaign does not exist or belongs to another account.
	ErrNotFound = errors.New("campaign not found")
	// ErrProductNotFound means the product is not one of the campaign's.
	ErrProductNotFound = errors.New("product not found")
	// ErrMockupNotFound means the campaign has no mockup of that id.
	ErrMockupNotFound = errors.New("mockup not found")
	// ErrMockupNotFailed means the mockup is made; only a failed one is queued again.
	ErrMockupNotFailed = errors.New("the mockup has not failed")
	// ErrMockupOutdated means the design has moved past the mockup's revision and its print file is
	// not made yet (or failed), so the mockup would show an old design; the new print file queues it.
	ErrMockupOutdated = errors.New("the design has changed since the mockup failed")
	// errTooManyProducts means a campaign has MaxProducts products already.
	errTooManyProducts = errors.New("too many products")
)

// Template is a product template of the catalogue. print_spaces and options are JSON text, as the
// API carries them (see PrintSpace).
type Template struct {
	ID             int64   `db:"id" json:"id"`
	Name           string  `db:"name" json:"name"`
	ProductType    string  `db:"product_type" json:"product_type"`
	PrintSpaces    string  `db:"print_spaces" json:"print_spaces"`
	FullPrinted    int     `db:"full_printed" json:"full_printed"`
	Options        string  `db:"options" json:"options"`
	DefaultOption  string  `db:"default_option" json:"default_option"`
	MockupType     string  `db:"mockup_type" json:"mockup_type"`
	BaseCost       float64 `db:"base_cost" json:"base_cost"`
	ExtraPrintCost float64 `db:"extra_print_cost" json:"extra_print_cost"`
	Personalized   bool    `db:"personalized" json:"personalized"`
}

// Model is a 3D mockup template of the catalogue (one whose design_json names a GLB model): the
// renderer draws a campaign's 3D mockups on it, and the editor previews the design on it live. It
// applies to a product of its template whose mockup type is TypeDetail, or to any when that is empty.
type Model struct {
	TemplateID int64  `db:"template_id" json:"template_id"`
	PrintSpace string `db:"print_space" json:"print_space"`
	TypeDetail string `db:"type_detail" json:"type_detail"`
	Name       string `db:"name" json:"name"`
	Key        string `db:"glb" json:"-"`
	// URL is where the GLB is fetched (GET /api/files/...).
	URL string `db:"-" json:"url"`
}

// Product is a product of a campaign: the template's fields when it was added (ID is the product's
// own id) and the template it came from. Outlines, in a campaign's answer, are the product around
// each print space that has one (renderer/outlines), by print space name, which the editor draws.
type Product struct {
	Template
	TemplateID int64                       `db:"template_id" json:"template_id"`
	Outlines   map[string]outlines.Outline `db:"-" json:"outlines,omitempty"`
}

// withOutlines fills in the product's outlines.
func (p *Product) withOutlines() error {
	spaces, err := p.Spaces()
	if err != nil {
		return err
	}
	for _, ps := range spaces {
		if o, ok := outlines.For(p.ProductType, ps.Name, ps.Width, ps.Height); ok {
			if p.Outlines == nil {
				p.Outlines = map[string]outlines.Outline{}
			}
			p.Outlines[ps.Name] = o
		}
	}
	return nil
}

// fullPrintedHandmade is the full_printed value of handmade products, which the personalized match
// rule leaves out.
const fullPrintedHandmade = 1

// PrintSpace is one print space of a product as its print_spaces JSON holds it.
type PrintSpace struct {
	Name         string  `json:"name"`
	Width        int     `json:"width"`
	Height       int     `json:"height"`
	DisplayWidth int     `json:"displayWidth"`
	PrintType    int     `json:"printType"`
	IsMain       bool    `json:"isMain"`
	ViewWidth    int     `json:"viewWidth"`
	ViewHeight   int     `json:"viewHeight"`
	DPI          float64 `json:"DPI"`
	MinDPI       float64 `json:"minDPI"`
}

// Spaces parses the product's print spaces.
func (p Product) Spaces() ([]PrintSpace, error) {
	var out []PrintSpace
	if err := json.Unmarshal([]byte(p.PrintSpaces), &out); err != nil {
		return nil, fmt.Errorf("product %d print_spaces: %w", p.ID, err)
	}
	return out, nil
}

// ExportState is where a design's print file stands. FileURL is the print file's blob key and
// DownloadURL a signed GET of it that saves it as FileName (printFileName); they, and the
// measures, are empty until the status is done.
type ExportState struct {
	Status      string          `json:"status"`
	FileURL     string          `json:"file_url"`
	DownloadURL string          `json:"download_url"`
	FileName    string          `json:"file_name"`
	Width       int             `json:"width"`
	Height      int             `json:"height"`
	DPI         float64         `json:"dpi"`
	FileSize    int64           `json:"file_size"`
	Report      json.RawMessage `json:"report"`
	Error       string          `json:"error"`
}

// Design is the design document of one product print space.
type Design struct {
	ID         int64           `json:"id"`
	ProductID  int64           `json:"product_id"`
	PrintSpace string          `json:"print_space"`
	DesignJSON json.RawMessage `json:"design_json"`
	Option     string          `json:"option"`
	Revision   int64           `json:"revision"`
	Export     ExportState     `json:"export"`
}

// Campaign is one campaign with its products and designs.
type Campaign struct {
	ID           int64     `db:"id" json:"id"`
	Name         string    `db:"name" json:"name"`
	Slug         string    `db:"slug" json:"slug"`
	Kind         string    `db:"kind" json:"kind"`
	Personalized *bool     `db:"personalized" json:"personalized"`
	ArtworkURL   string    `db:"artwork_url" json:"artwork_url"`
	Status       string    `db:"status" json:"status"`
	CreatedAt    time.Time `db:"created_at" json:"created_at"`
	UpdatedAt    time.Time `db:"updated_at" json:"updated_at"`
	Products     []Product `db:"-" json:"products"`
	Designs      []Design  `db:"-" json:"designs"`
	Mockups      []Mockup  `db:"-" json:"mockups"`
	// Warnings tell of listed trademarks in the name: the campaign is saved all the same.
	Warnings []trademark.Warning `db:"-" json:"warnings"`
}

// Summary is a campaign in the list.
type Summary struct {
	ID   int64  `db:"id" json:"id"`
	Name string `db:"name" json:"name"`
	Slug string `db:"slug" json:"slug"`
	Kind string `db:"kind" json:"kind"`
	// ProductType is the campaign's template kind (productTypeOf).
	ProductType  string    `db:"product_type" json:"product_type"`
	Personalized *bool     `db:"personalized" json:"personalized"`
	Status       string    `db:"status" json:"status"`
	ProductCount int       `db:"product_count" json:"product_count"`
	DesignCount  int       `db:"design_count" json:"design_count"`
	UpdatedAt    time.Time `db:"updated_at" json:"updated_at"`
	ArtworkURL   string    `db:"artwork_url" json:"-"`
	// PreviewURL is a thumbnail of the campaign's artwork, empty without one (filled in, not stored).
	PreviewURL string `db:"-" json:"preview_url"`
	// MockupURL serves the campaign's default mockup as the buyer will see the product (see
	// store.list for which one): its 500 px WebP preview, or its file for a mockup made before
	// previews existed; empty while no mockup of the campaign is done (filled in, not stored).
	MockupURL string `db:"-" json:"mockup_url"`
	// MockupsPending is whether mockups of the campaign are being made: one is pending, or a print
	// file is being exported, which queues its product's mockups once made.
	MockupsPending bool `db:"mockups_pending" json:"mockups_pending"`
	// The default mockup's file and preview blob keys and its render time; empty and nil without one.
	MockupKey        string     `db:"mockup_file" json:"-"`
	MockupPreviewKey string     `db:"mockup_preview" json:"-"`
	MockupRenderedAt *time.Time `db:"mockup_rendered_at" json:"-"`
}

// ExportItem is one design's export state, as the editor polls it.
type ExportItem struct {
	DesignID   int64  `json:"design_id"`
	ProductID  int64  `json:"product_id"`
	PrintSpace string `json:"print_space"`
	Revision   int64  `json:"revision"`
	ExportState
}

// designRow is a campaign_designs row.
type designRow struct {
	ID         int64     `db:"id"`
	ProductID  int64     `db:"product_id"`
	PrintSpace string    `db:"print_space"`
	DesignJSON []byte    `db:"design_json"`
	Option     string    `db:"option"`
	Revision   int64     `db:"revision"`
	Status     string    `db:"export_status"`
	FileURL    string    `db:"file_url"`
	Width      int       `db:"width"`
	Height     int       `db:"height"`
	DPI        float64   `db:"dpi"`
	FileSize   int64     `db:"file_size"`
	Report     []byte    `db:"export_report"`
	Error      string    `db:"export_error"`
	UpdatedAt  time.Time `db:"updated_at"`
	// CampaignName and ProductName name the print file's download.
	CampaignName string `db:"campaign_name"`
	ProductName  string `db:"product_name"`
}

const (
	templateColumns = `id, name, product_type, print_spaces, full_printed, options, default_option, mockup_type,
base_cost, extra_print_cost, personalized`
	productColumns  = templateColumns + `, template_id`
	campaignColumns = `id, name, slug, kind, personalized, artwork_url, status, created_at, updated_at`
	designColumns   = `d.id, d.product_id, d.print_space, d.design_json, d.option, d.revision, d.export_status, d.file_url,
d.width, d.height, d.dpi, d.file_size, d.export_report, d.export_error, d.updated_at, c.name AS campaign_name, p.name AS product_name`
)

// store keeps campaigns in Postgres. Its functions take a database or a transaction.
type store struct {
	db *sqlx.DB
	// prepared keeps the list's queries (one per sort order) prepared: the campaigns page asks often.
	prepared *database.Statements
}

func newStore(db *sqlx.DB) store { return store{db: db, prepared: database.NewStatements(db)} }

func (store) templates(ctx context.Context, q sqlx.QueryerContext) ([]Template, error) {
	out := []Template{}
	err := sqlx.SelectContext(ctx, q, &out, `SELECT `+templateColumns+` FROM product_templates ORDER BY position, id`)
	if err != nil {
		return nil, fmt.Errorf("list templates: %w", err)
	}
	return out, nil
}

// models lists the catalogue's 3D mockup templates in their order.
func (store) models(ctx context.Context, q sqlx.QueryerContext) ([]Model, error) {
	out := []Model{}
	const query = `SELECT template_id, print_space, type_detail, coalesce(design_json->>'name', '') AS name,
	design_json->>'glb' AS glb
FROM mockup_templates WHERE coalesce(design_json->>'glb', '') <> '' ORDER BY template_id, position, id`
	if err := sqlx.SelectContext(ctx, q, &out, query); err != nil {
		return nil, fmt.Errorf("list 3D models: %w", err)
	}
	return out, nil
}

// previewVariant is the image variant of a campaign's artwork shown in the list.
const previewVariant = "thumb"

// listFilter is the campaign list's query beyond paging: a text in the name, and the kinds
// (system_type), product types and statuses asked for (each empty: all).
type listFilter struct {
	Q        string
	Kinds    []string
	Types    []string
	Statuses []string
}

// productTypeOf is the product type (template kind) of campaign c: a campaign_template once bulk
// work was made from it, else a campaign_express of the express kinds, else a campaign.
const productTypeOf = `CASE WHEN c.template THEN 'campaign_template'
	WHEN c.kind IN ('campaign_express', 'express_2') THEN 'campaign_express' ELSE 'campaign' END`

// listWhere narrows c to the owner's ($1) campaigns matching a filter ($2 to $5).
const listWhere = ` FROM campaigns c WHERE c.user_id = $1 AND ($2 = '' OR c.name ILIKE '%' || $2 || '%')
AND (cardinality($3::text[]) = 0 OR c.kind = ANY($3))
AND (cardinality($4::text[]) = 0 OR (` + productTypeOf + `) = ANY($4))
AND (cardinality($5::text[]) = 0 OR c.status = ANY($5))`

func (f listFilter) args(ownerID int64) []any {
	return []any{ownerID, f.Q, database.TextArray(f.Kinds), database.TextArray(f.Types), database.TextArray(f.Statuses)}
}

// list pages through an owner's campaigns matching f, filled in for the answer. Each campaign's default mockup is, among its done mockups, the
// one the seller chose (of the first product with a choice), else that of its first product (the
// one the editor opens) by the product's own default and then template order, else the first of
// the next product; all in one query, the mockup looked up only for the page's campaigns.
func (s store) list(ctx context.Context, ownerID int64, f listFilter, orderBy string, asc bool, limit, offset int) ([]Summary, int, error) {
	const where = listWhere
	dir := "DESC"
	if asc {
		dir = "ASC"
	}
	// orderBy is one of the columns ParseListQuery admitted.
	order := ` ORDER BY c.` + orderBy + ` ` + dir + `, c.id DESC`
	// The page carries the count of all matches (the window runs before LIMIT): one round trip, not two.
	page := `SELECT c.total, c.id, c.name, c.slug, c.kind, ` + productTypeOf + ` AS product_type, c.personalized, c.status,
	c.updated_at, c.artwork_url,
	(SELECT count(*) FROM campaign_products p WHERE p.campaign_id = c.id) AS product_count,
	(SELECT count(*) FROM campaign_designs d WHERE d.campaign_id = c.id) AS design_count,
	coalesce(m.file_url, '') AS mockup_file, coalesce(m.preview_url, '') AS mockup_preview, m.rendered_at AS mockup_rendered_at,
	EXISTS (SELECT 1 FROM campaign_mockups pm WHERE pm.campaign_id = c.id AND pm.status = 'pending')
		OR EXISTS (SELECT 1 FROM campaign_designs pd WHERE pd.campaign_id = c.id AND pd.export_status IN ('pending', 'rendering'))
		AS mockups_pending
FROM (SELECT c.*, count(*) OVER () AS total` + where + order + ` LIMIT $6 OFFSET $7) c
LEFT JOIN LATERAL (
	SELECT m.file_url, m.preview_url, m.rendered_at
	FROM campaign_mockups m JOIN mockup_templates t ON t.id = m.mockup_template_id
	WHERE m.campaign_id = c.id AND m.status = 'done' AND m.rendered_at IS NOT NULL
	ORDER BY m.default_chosen DESC, m.product_id, m.is_default_mockup DESC, t.position, t.id
	LIMIT 1
) m ON true` + order
	var rows []struct {
		Total int `db:"total"`
		Summary
	}
	stmt, err := s.prepared.Prepared(ctx, page)
	if err != nil {
		return nil, 0, fmt.Errorf("list campaigns: %w", err)
	}
	if err := stmt.SelectContext(ctx, &rows, append(f.args(ownerID), limit, offset)...); err != nil {
		return nil, 0, fmt.Errorf("list campaigns: %w", err)
	}
	var total int
	if len(rows) > 0 {
		total = rows[0].Total
	} else if offset > 0 { // a page past the end still answers the count
		if err := s.db.GetContext(ctx, &total, `SELECT count(*)`+where, f.args(ownerID)...); err != nil {
			return nil, 0, fmt.Errorf("count campaigns: %w", err)
		}
	}
	items := make([]Summary, len(rows))
	for i := range rows {
		items[i] = rows[i].Summary
	}
	for i := range items {
		it := &items[i]
		if it.ArtworkURL != "" {
			it.PreviewURL = uploads.FileURL(it.ArtworkURL) + "?variant=" + previewVariant
		}
		switch {
		case it.MockupRenderedAt == nil:
		case it.MockupPreviewKey != "":
			it.MockupURL = renderURL(it.MockupPreviewKey, *it.MockupRenderedAt)
		default:
			it.MockupURL = renderURL(it.MockupKey, *it.MockupRenderedAt)
		}
	}
	return items, total, nil
}

// campaign loads the owner's campaign id with its products and designs; with lock the campaign row
// is locked for the rest of the transaction (q must then be one).
func (store) campaign(ctx context.Context, q sqlx.QueryerContext, ownerID, id int64, lock bool) (Campaign, []designRow, error) {
	load := `SELECT ` + campaignColumns + ` FROM campaigns WHERE id = $1 AND user_id = $2`
	if lock {
		load += ` FOR UPDATE`
	}
	var c Campaign
	err := sqlx.GetContext(ctx, q, &c, load, id, ownerID)
	if errors.Is(err, sql.ErrNoRows) {
		return Campaign{}, nil, ErrNotFound
	}
	if err != nil {
		return Campaign{}, nil, fmt.Errorf("load campaign %d: %w", id, err)
	}
	c.Products = []Product{}
	const products = `SELECT ` + productColumns + ` FROM campaign_products WHERE campaign_id = $1 ORDER BY id`
	if err := sqlx.SelectContext(ctx, q, &c.Products, products, id); err != nil {
		return Campaign{}, nil, fmt.Errorf("load products of campaign %d: %w", id, err)
	}
	rows, err := designRows(ctx, q, id)
	return c, rows, err
}

func designRows(ctx context.Context, q sqlx.QueryerContext, campaignID int64) ([]designRow, error) {
	rows := []designRow{}
	const designs = `SELECT ` + designColumns + ` FROM campaign_designs d
JOIN campaigns c ON c.id = d.campaign_id JOIN campaign_products p ON p.id = d.product_id
WHERE d.campaign_id = $1 ORDER BY d.product_id, d.id`
	if err := sqlx.SelectContext(ctx, q, &rows, designs, campaignID); err != nil {
		return nil, fmt.Errorf("load designs of campaign %d: %w", campaignID, err)
	}
	return rows, nil
}

// owns reports whether campaign id is the owner's.
func (store) owns(ctx context.Context, q sqlx.QueryerContext, ownerID, id int64, lock bool) error {
	query := `SELECT id FROM campaigns WHERE id = $1 AND user_id = $2`
	if lock {
		query += ` FOR UPDATE`
	}
	var got int64
	err := sqlx.GetContext(ctx, q, &got, query, id, ownerID)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("find campaign %d: %w", id, err)
	}
	return nil
}

func (store) removeProduct(ctx context.Context, tx *sqlx.Tx, campaignID, productID int64) error {
	res, err := tx.ExecContext(ctx, `DELETE FROM campaign_products WHERE campaign_id = $1 AND id = $2`, campaignID, productID)
	if err != nil {
		return fmt.Errorf("remove product: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrProductNotFound
	}
	return touch(ctx, tx, campaignID)
}

// touch marks the campaign changed.
func touch(ctx context.Context, tx sqlx.ExecerContext, campaignID int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE campaigns SET updated_at = now() WHERE id = $1`, campaignID); err != nil {
		return fmt.Errorf("touch campaign %d: %w", campaignID, err)
	}
	return nil
}

func (store) delete(ctx context.Context, db sqlx.ExecerContext, ownerID, id int64) error {
	res, err := db.ExecContext(ctx, `DELETE FROM campaigns WHERE id = $1 AND user_id = $2`, id, ownerID)
	if err != nil {
		return fmt.Errorf("delete campaign %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// usableSources returns which of keys are uploads of the owner that were not rejected, platform
// fonts, or fonts of the owner whose file is still stored (a deleted one included: designs that
// already name it keep it). The upload and font rows are read FOR SHARE, so that deleting an artwork
// (bff/artworks) or the sweeps removing a deleted clipart's or font's file (bff/cliparts, bff/fonts)
// wait for this save and then see its design.
func (store) usableSources(ctx context.Context, q sqlx.QueryerContext, ownerID int64, keys []string) (map[string]bool, error) {
	var found, fonts []string
	const query = `SELECT blob_key FROM uploads WHERE owner_id = $1 AND blob_key = ANY($2) AND status <> 'rejected' FOR SHARE`
	if err := sqlx.SelectContext(ctx, q, &found, query, ownerID, pq.Array(keys)); err != nil {
		return nil, fmt.Errorf("find uploads: %w", err)
	}
	const qFonts = `SELECT file_key FROM fonts WHERE file_key = ANY($2) AND (seller_id IS NULL OR seller_id = $1)
AND file_removed_at IS NULL FOR SHARE`
	if err := sqlx.SelectContext(ctx, q, &fonts, qFonts, ownerID, pq.Array(keys)); err != nil {
		return nil, fmt.Errorf("find fonts: %w", err)
	}
	out := make(map[string]bool, len(found)+len(fonts))
	for _, k := range append(found, fonts...) {
		out[k] = true
	}
	return out, nil
}

// retryMockup queues failed mockup mockupID of campaign campaignID again in tx, at interactive
// priority since a retry is always the seller's: the row is made pending for its revision and its
// task (tasks.NewMockupJob, under a task id counting the seller's retries, as Asynq keeps a failed
// task's id for days) is added to the outbox. A mockup already pending is left as it is (a second
// request while the first is queued adds nothing): the answer is then 0. It returns the outbox id
// of the task it added.
func (store) retryMockup(ctx context.Context, tx *sqlx.Tx, campaignID, mockupID int64) (int64, error) {
	const load = `
SELECT m.status, m.design_revision, d.revision = m.design_revision AND d.export_status = 'done' AS current,
	coalesce(t.design_json->>'glb', '') <> '' AS three_d
FROM campaign_mockups m
JOIN campaign_designs d ON d.id = m.design_id
JOIN mockup_templates t ON t.id = m.mockup_template_id
WHERE m.id = $1 AND m.campaign_id = $2
FOR UPDATE OF m`
	var r struct {
		Status   string `db:"status"`
		Revision int64  `db:"design_revision"`
		Current  bool   `db:"current"`
		ThreeD   bool   `db:"three_d"`
	}
	err := tx.GetContext(ctx, &r, load, mockupID, campaignID)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, ErrMockupNotFound
	case err != nil:
		return 0, fmt.Errorf("load campaign mockup %d: %w", mockupID, err)
	case r.Status == tasks.MockupPending:
		return 0, nil
	case r.Status != tasks.MockupFailed:
		return 0, ErrMockupNotFailed
	case !r.Current:
		return 0, ErrMockupOutdated
	}
	const pend = `UPDATE campaign_mockups SET status = 'pending', error = '', retries = retries + 1, updated_at = now()
WHERE id = $1 RETURNING retries`
	var retries int64
	if err := tx.GetContext(ctx, &retries, pend, mockupID); err != nil {
		return 0, fmt.Errorf("make campaign mockup %d pending: %w", mockupID, err)
	}
	job, err := tasks.NewMockupJob(r.ThreeD, mockupID, r.Revision, retries, queue.Interactive)
	if err != nil {
		return 0, err
	}
	return outbox.Add(ctx, tx, job)
}
