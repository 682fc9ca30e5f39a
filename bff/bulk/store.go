package bulk

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	rendertasks "github.com/pressroom/pressroom/renderer/tasks"
	"github.com/pressroom/pressroom/worker/tasks"
)

// ErrNotFound means the record, upload or campaign does not exist or belongs to another account.
var ErrNotFound = errors.New("not found")

// Record is a bulk multi-print-space record as the list and the record call show it. Results is
// null until the record completes, and always null in the list.
type Record struct {
	ID                   int64            `db:"id" json:"id"`
	BulkUploadID         *int64           `db:"bulk_upload_id" json:"bulk_upload_id"`
	TemplateCampaignID   *int64           `db:"template_campaign_id" json:"template_campaign_id"`
	TemplateCampaignName *string          `db:"template_campaign_name" json:"template_campaign_name"`
	CampaignID           *int64           `db:"campaign_id" json:"campaign_id"`
	Designs              string           `db:"designs" json:"designs"`
	Type                 string           `db:"type" json:"type"`
	Status               string           `db:"status" json:"status"`
	Message              string           `db:"message" json:"message"`
	Step                 string           `db:"step" json:"step"`
	Attempts             int              `db:"attempts" json:"attempts"`
	Results              *json.RawMessage `db:"results" json:"results"`
	// Quality is the worst resolution of the print files of the campaign the record made (good,
	// normal or low, see docs/editor.md); null until one is exported.
	Quality   *string   `db:"quality" json:"quality"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
	UpdatedAt time.Time `db:"updated_at" json:"updated_at"`
}

// Upload is a bulk upload with how many of its records are in each status.
type Upload struct {
	ID                 int64          `db:"id" json:"id"`
	Name               string         `db:"name" json:"name"`
	TemplateCampaignID *int64         `db:"template_campaign_id" json:"template_campaign_id"`
	CreatedAt          time.Time      `db:"created_at" json:"created_at"`
	Total              int            `db:"-" json:"total"`
	Counts             map[string]int `db:"-" json:"counts"`
	// Qualities counts the records by the worst resolution of their print files (good, normal, low).
	Qualities map[string]int `db:"-" json:"qualities"`
}

// ActionResult is what a row action did to one id: ok when it applied, the record's status after
// it ("removed" once removed, ” for an unknown id) and, when refused, why.
type ActionResult struct {
	ID      int64  `json:"id"`
	OK      bool   `json:"ok"`
	Status  string `json:"status"`
	Message string `json:"message,omitempty"`
}

const recordColumns = `r.id, r.bulk_upload_id, r.template_campaign_id, c.name AS template_campaign_name, r.campaign_id,
r.designs, r.type, r.status, r.message, r.step, r.attempts, r.created_at, r.updated_at, rq.quality`

// recordFrom is the records with their template's name and, as rq.quality, the worst resolution
// the renderer reported for the print files of the campaign each made.
const recordFrom = ` FROM bulk_records r LEFT JOIN campaigns c ON c.id = r.template_campaign_id
LEFT JOIN LATERAL (
	SELECT CASE WHEN bool_or(d.export_report->'dpi'->>'quality' = 'low') THEN 'low'
		WHEN bool_or(d.export_report->'dpi'->>'quality' = 'normal') THEN 'normal'
		WHEN bool_or(d.export_report->'dpi'->>'quality' = 'good') THEN 'good' END AS quality
	FROM campaign_designs d WHERE d.campaign_id = r.campaign_id AND d.export_status = 'done'
) rq ON true`

// qualities are the resolutions a record can be filtered by.
var qualities = []string{"good", "normal", "low"}

// listFilter is the list query beyond paging.
type listFilter struct {
	Q            string
	Statuses     []string
	Types        []string
	From, To     *time.Time
	BulkUploadID int64
	Qualities    []string
}

// store keeps bulk records in Postgres.
type store struct{ db *sqlx.DB }

// list pages through the owner's records matching f.
func (s store) list(ctx context.Context, ownerID int64, f listFilter, orderBy string, asc bool, limit, offset int) ([]Record, int, error) {
	const where = recordFrom + `
WHERE r.user_id = $1
AND ($2 = '' OR CASE WHEN $2 ~ '^[0-9]{1,18}$' THEN $2::bigint IN (r.id, r.template_campaign_id, r.campaign_id)
	ELSE r.designs ILIKE '%' || $2 || '%' OR c.name ILIKE '%' || $2 || '%' END)
AND (cardinality($3::text[]) = 0 OR r.status = ANY ($3))
AND r.type = ANY ($4)
AND ($5::timestamptz IS NULL OR r.created_at >= $5)
AND ($6::timestamptz IS NULL OR r.created_at < $6)
AND ($7 = 0 OR r.bulk_upload_id = $7)
AND (cardinality($8::text[]) = 0 OR rq.quality = ANY ($8))`
	args := []any{ownerID, f.Q, database.TextArray(f.Statuses), database.TextArray(f.Types), f.From, f.To, f.BulkUploadID,
		database.TextArray(f.Qualities)}
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT count(*)`+where, args...); err != nil {
		return nil, 0, fmt.Errorf("count bulk records: %w", err)
	}
	dir := "DESC"
	if asc {
		dir = "ASC"
	}
	// orderBy is one of the columns ParseListQuery admitted.
	q := `SELECT ` + recordColumns + where + ` ORDER BY r.` + orderBy + ` ` + dir + `, r.id DESC LIMIT $9 OFFSET $10`
	items := []Record{}
	if err := s.db.SelectContext(ctx, &items, q, append(args, limit, offset)...); err != nil {
		return nil, 0, fmt.Errorf("list bulk records: %w", err)
	}
	return items, total, nil
}

// record reads one of the owner's records with its results.
func (s store) record(ctx context.Context, ownerID, id int64) (Record, error) {
	q := `SELECT ` + recordColumns + `, r.results` + recordFrom + `
WHERE r.id = $1 AND r.user_id = $2`
	var r Record
	err := s.db.GetContext(ctx, &r, q, id, ownerID)
	if errors.Is(err, sql.ErrNoRows) {
		return Record{}, ErrNotFound
	}
	if err != nil {
		return Record{}, fmt.Errorf("load bulk record %d: %w", id, err)
	}
	return r, nil
}

// records reads the owner's records among ids, in id order, without results.
func (s store) records(ctx context.Context, ownerID int64, ids []int64) ([]Record, error) {
	q := `SELECT ` + recordColumns + recordFrom + `
WHERE r.user_id = $1 AND r.id = ANY ($2) ORDER BY r.id`
	out := []Record{}
	if err := s.db.SelectContext(ctx, &out, q, ownerID, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("read bulk records: %w", err)
	}
	return out, nil
}

// ownsCampaign reports ErrNotFound unless campaign id is the owner's.
func ownsCampaign(ctx context.Context, q sqlx.QueryerContext, ownerID, id int64) error {
	var got int64
	err := sqlx.GetContext(ctx, q, &got, `SELECT id FROM campaigns WHERE id = $1 AND user_id = $2`, id, ownerID)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("find campaign %d: %w", id, err)
	}
	return nil
}

// create inserts one record per designs text, queued with their bulk:record tasks in the outbox
// (or pending when start is false), under a new bulk upload named uploadName when it is not
// empty. It returns the records' ids, the upload id (0 without one) and the outbox rows.
func (s store) create(ctx context.Context, ownerID, templateID int64, typ string, designs []string, uploadName string, start bool) ([]int64, int64, []int64, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, 0, nil, err
	}
	defer tx.Rollback()
	if err := ownsCampaign(ctx, tx, ownerID, templateID); err != nil {
		return nil, 0, nil, err
	}
	if err := underCampaignLimit(ctx, tx, ownerID, len(designs)); err != nil {
		return nil, 0, nil, err
	}
	if err := markTemplates(ctx, tx, []int64{templateID}); err != nil {
		return nil, 0, nil, err
	}
	var uploadID sql.NullInt64
	if uploadName != "" {
		const q = `INSERT INTO bulk_uploads (user_id, template_campaign_id, name) VALUES ($1, $2, $3) RETURNING id`
		if err := tx.GetContext(ctx, &uploadID, q, ownerID, templateID, uploadName); err != nil {
			return nil, 0, nil, fmt.Errorf("create bulk upload: %w", err)
		}
	}
	status, attempts := tasks.BulkPending, 0
	if start {
		status, attempts = tasks.BulkQueued, 1
	}
	const q = `
INSERT INTO bulk_records (user_id, bulk_upload_id, template_campaign_id, designs, type, status, attempts)
SELECT $1::bigint, $2::bigint, $3::bigint, d, $4::text, $5::text, $6::integer FROM unnest($7::text[]) WITH ORDINALITY AS t (d, n) ORDER BY n
RETURNING id`
	var ids []int64
	if err := tx.SelectContext(ctx, &ids, q, ownerID, uploadID, templateID, typ, status, attempts, database.TextArray(designs)); err != nil {
		return nil, 0, nil, fmt.Errorf("create bulk records: %w", err)
	}
	var outboxIDs []int64
	if start {
		for _, id := range ids {
			oid, err := queueRecord(ctx, tx, id, attempts)
			if err != nil {
				return nil, 0, nil, err
			}
			outboxIDs = append(outboxIDs, oid)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, 0, nil, err
	}
	return ids, uploadID.Int64, outboxIDs, nil
}

// underCampaignLimit holds the account's campaign limit (see tasks.UnderCampaignLimit) for adding
// bulk records or jobs that each make one campaign: the records and jobs still pending or queued
// will make theirs too, so they count with the campaigns already there. It returns a
// *tasks.CampaignLimitError when they would not all fit.
func underCampaignLimit(ctx context.Context, tx *sqlx.Tx, ownerID int64, adding int) error {
	const q = `
SELECT (SELECT count(*) FROM bulk_records WHERE user_id = $1 AND campaign_id IS NULL AND status IN ('pending', 'queued'))
	+ (SELECT count(*) FROM bulk_campaign_jobs WHERE user_id = $1 AND new_campaign_id IS NULL AND status IN ('pending', 'queued'))`
	var pending int
	if err := tx.GetContext(ctx, &pending, q, ownerID); err != nil {
		return fmt.Errorf("count pending bulk campaigns: %w", err)
	}
	return tasks.UnderCampaignLimit(ctx, tx, ownerID, pending+adding)
}

// queueRecord adds the bulk:record task of the record's attempt to the outbox in tx.
func queueRecord(ctx context.Context, tx sqlx.ExtContext, id int64, attempt int) (int64, error) {
	job, err := tasks.NewBulkRecordJob(id, attempt)
	if err != nil {
		return 0, err
	}
	return outbox.Add(ctx, tx, job)
}

// changed is a record a row action changed, with its attempt when it was queued.
type changed struct {
	ID       int64 `db:"id"`
	Attempts int   `db:"attempts"`
}

// requeue queues the owner's records among ids (all of them when all is set) that are in one of
// from: a new attempt with its task in the outbox. It returns the records changed and the outbox rows.
func requeue(ctx context.Context, tx *sqlx.Tx, ownerID int64, ids []int64, all bool, from []string) ([]changed, []int64, error) {
	const q = `UPDATE bulk_records SET status = 'queued', attempts = attempts + 1, message = '', step = '', updated_at = now()
WHERE user_id = $1 AND ($2 OR id = ANY ($3)) AND status = ANY ($4) AND campaign_id IS NULL
RETURNING id, attempts`
	var rows []changed
	if err := tx.SelectContext(ctx, &rows, q, ownerID, all, pq.Array(ids), database.TextArray(from)); err != nil {
		return nil, nil, fmt.Errorf("queue bulk records: %w", err)
	}
	var outboxIDs []int64
	for _, r := range rows {
		oid, err := queueRecord(ctx, tx, r.ID, r.Attempts)
		if err != nil {
			return nil, nil, err
		}
		outboxIDs = append(outboxIDs, oid)
	}
	return rows, outboxIDs, nil
}

// reexport sets the owner's failed records among ids that made their campaign back to processing,
// with each failed print file of the campaign at a new revision and its bulk render:export task in
// the outbox. It returns the records changed and the outbox rows.
func reexport(ctx context.Context, tx *sqlx.Tx, ownerID int64, ids []int64) ([]changed, []int64, error) {
	const records = `UPDATE bulk_records SET status = 'processing', message = '', completed_at = NULL, updated_at = now()
WHERE user_id = $1 AND id = ANY ($2) AND status = 'failed' AND campaign_id IS NOT NULL
RETURNING id, attempts`
	var rows []changed
	if err := tx.SelectContext(ctx, &rows, records, ownerID, pq.Array(ids)); err != nil {
		return nil, nil, fmt.Errorf("retry bulk records: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil, nil
	}
	recordIDs := make([]int64, len(rows))
	for i, r := range rows {
		recordIDs[i] = r.ID
	}
	const designs = `UPDATE campaign_designs d SET revision = d.revision + 1, export_status = 'pending', export_error = '',
	updated_at = now()
FROM bulk_records r WHERE r.id = ANY ($1) AND d.campaign_id = r.campaign_id AND d.export_status = 'failed'
RETURNING d.id, d.revision`
	var again []struct {
		ID       int64 `db:"id"`
		Revision int64 `db:"revision"`
	}
	if err := tx.SelectContext(ctx, &again, designs, pq.Array(recordIDs)); err != nil {
		return nil, nil, fmt.Errorf("retry print files: %w", err)
	}
	var outboxIDs []int64
	for _, d := range again {
		oid, err := rendertasks.QueueExport(ctx, tx, d.ID, d.Revision, queue.Bulk)
		if err != nil {
			return nil, nil, err
		}
		outboxIDs = append(outboxIDs, oid)
	}
	return rows, outboxIDs, nil
}

// stop stops the owner's records among ids (all when all is set) that are pending or queued; a
// running task sees it at its next step.
func stop(ctx context.Context, tx *sqlx.Tx, ownerID int64, ids []int64, all bool) ([]changed, error) {
	const q = `UPDATE bulk_records SET status = 'stopped', updated_at = now()
WHERE user_id = $1 AND ($2 OR id = ANY ($3)) AND status IN ('pending', 'queued')
RETURNING id, attempts`
	var rows []changed
	if err := tx.SelectContext(ctx, &rows, q, ownerID, all, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("stop bulk records: %w", err)
	}
	return rows, nil
}

// remove deletes the owner's records among ids; the campaigns they made stay.
func remove(ctx context.Context, tx *sqlx.Tx, ownerID int64, ids []int64) ([]changed, error) {
	var rows []changed
	const q = `DELETE FROM bulk_records WHERE user_id = $1 AND id = ANY ($2) RETURNING id, attempts`
	if err := tx.SelectContext(ctx, &rows, q, ownerID, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("remove bulk records: %w", err)
	}
	return rows, nil
}

// statuses reads the current status of the owner's records among ids.
func statuses(ctx context.Context, q sqlx.QueryerContext, ownerID int64, ids []int64) (map[int64]string, error) {
	var rows []struct {
		ID     int64  `db:"id"`
		Status string `db:"status"`
	}
	const query = `SELECT id, status FROM bulk_records WHERE user_id = $1 AND id = ANY ($2)`
	if err := sqlx.SelectContext(ctx, q, &rows, query, ownerID, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("read bulk record statuses: %w", err)
	}
	out := make(map[int64]string, len(rows))
	for _, r := range rows {
		out[r.ID] = r.Status
	}
	return out, nil
}

// upload reads one of the owner's bulk uploads with its records counted per status.
func (s store) upload(ctx context.Context, ownerID, id int64) (Upload, error) {
	var u Upload
	const q = `SELECT id, name, template_campaign_id, created_at FROM bulk_uploads WHERE id = $1 AND user_id = $2`
	err := s.db.GetContext(ctx, &u, q, id, ownerID)
	if errors.Is(err, sql.ErrNoRows) {
		return Upload{}, ErrNotFound
	}
	if err != nil {
		return Upload{}, fmt.Errorf("load bulk upload %d: %w", id, err)
	}
	uploads := []Upload{u}
	if err := s.countRecords(ctx, uploads); err != nil {
		return Upload{}, err
	}
	return uploads[0], nil
}

// uploads pages through the owner's bulk uploads of artworks (imports of campaigns have a list of
// their own), newest first, those whose name contains text (or whose id is text), each with its
// records counted per status.
func (s store) uploads(ctx context.Context, ownerID int64, text string, limit, offset int) ([]Upload, int, error) {
	const where = ` FROM bulk_uploads WHERE user_id = $1 AND kind = 'artworks'
AND ($2 = '' OR name ILIKE '%' || $2 || '%' OR ($2 ~ '^[0-9]{1,18}$' AND id = $2::bigint))`
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT count(*)`+where, ownerID, text); err != nil {
		return nil, 0, fmt.Errorf("count bulk uploads: %w", err)
	}
	items := []Upload{}
	q := `SELECT id, name, template_campaign_id, created_at` + where + ` ORDER BY id DESC LIMIT $3 OFFSET $4`
	if err := s.db.SelectContext(ctx, &items, q, ownerID, text, limit, offset); err != nil {
		return nil, 0, fmt.Errorf("list bulk uploads: %w", err)
	}
	if err := s.countRecords(ctx, items); err != nil {
		return nil, 0, err
	}
	return items, total, nil
}

// countRecords fills Counts (every status, zero when none) and Total of each upload.
func (s store) countRecords(ctx context.Context, uploads []Upload) error {
	ids := make([]int64, len(uploads))
	at := make(map[int64]*Upload, len(uploads))
	for i := range uploads {
		ids[i] = uploads[i].ID
		at[uploads[i].ID] = &uploads[i]
		uploads[i].Counts = make(map[string]int, len(recordStatuses))
		uploads[i].Qualities = make(map[string]int, len(qualities))
		for _, q := range qualities {
			uploads[i].Qualities[q] = 0
		}
		for _, st := range recordStatuses {
			uploads[i].Counts[st] = 0
		}
	}
	if len(ids) == 0 {
		return nil
	}
	var counts []struct {
		Upload int64  `db:"bulk_upload_id"`
		Status string `db:"status"`
		N      int    `db:"n"`
	}
	const q = `SELECT bulk_upload_id, status, count(*) AS n FROM bulk_records WHERE bulk_upload_id = ANY ($1)
GROUP BY bulk_upload_id, status`
	if err := s.db.SelectContext(ctx, &counts, q, pq.Array(ids)); err != nil {
		return fmt.Errorf("count records of bulk uploads: %w", err)
	}
	for _, c := range counts {
		u := at[c.Upload]
		u.Counts[c.Status] = c.N
		u.Total += c.N
	}
	counts = counts[:0]
	byQuality := `SELECT r.bulk_upload_id, rq.quality AS status, count(*) AS n` + recordFrom + `
WHERE r.bulk_upload_id = ANY ($1) AND rq.quality IS NOT NULL GROUP BY r.bulk_upload_id, rq.quality`
	if err := s.db.SelectContext(ctx, &counts, byQuality, pq.Array(ids)); err != nil {
		return fmt.Errorf("count print file resolutions of bulk uploads: %w", err)
	}
	for _, c := range counts {
		at[c.Upload].Qualities[c.Status] = c.N
	}
	return nil
}

// TemplateChoice is a campaign the import page offers as the template: Used when an earlier bulk
// upload or record took it as the template, Made when a bulk record made it.
type TemplateChoice struct {
	ID   int64  `db:"id" json:"id"`
	Name string `db:"name" json:"name"`
	Used bool   `db:"used" json:"used"`
	Made bool   `db:"made" json:"made"`
}

// templates finds up to limit of the owner's campaigns whose name contains text (or whose id is
// text): campaigns already used as templates first, then those not made by a bulk record (a bulk
// import's copies share their template's name), newest first within each.
func (s store) templates(ctx context.Context, ownerID int64, text string, limit int) ([]TemplateChoice, error) {
	const q = `SELECT c.id, c.name,
	EXISTS (SELECT 1 FROM bulk_uploads u WHERE u.user_id = $1 AND u.template_campaign_id = c.id)
		OR EXISTS (SELECT 1 FROM bulk_records r WHERE r.user_id = $1 AND r.template_campaign_id = c.id) AS used,
	EXISTS (SELECT 1 FROM bulk_records r WHERE r.user_id = $1 AND r.campaign_id = c.id) AS made
FROM campaigns c
WHERE c.user_id = $1
AND ($2 = '' OR c.name ILIKE '%' || $2 || '%' OR ($2 ~ '^[0-9]{1,18}$' AND c.id = $2::bigint))
ORDER BY used DESC, made ASC, c.id DESC
LIMIT $3`
	out := []TemplateChoice{}
	if err := s.db.SelectContext(ctx, &out, q, ownerID, text, limit); err != nil {
		return nil, fmt.Errorf("find template campaigns: %w", err)
	}
	return out, nil
}

// Origin is the origin campaign of the bulk-v3 flow: its products with
// their print spaces and its designs.
type Origin struct {
	ID         int64           `db:"id" json:"id"`
	Name       string          `db:"name" json:"name"`
	Kind       string          `db:"kind" json:"kind"`
	ArtworkURL string          `db:"artwork_url" json:"artwork_url"`
	Products   []OriginProduct `db:"-" json:"products"`
	Designs    []OriginDesign  `db:"-" json:"designs"`
}

// OriginProduct is a product of the origin campaign.
type OriginProduct struct {
	ID            int64  `db:"id" json:"id"`
	TemplateID    int64  `db:"template_id" json:"template_id"`
	Name          string `db:"name" json:"name"`
	ProductType   string `db:"product_type" json:"product_type"`
	PrintSpaces   string `db:"print_spaces" json:"print_spaces"`
	FullPrinted   int    `db:"full_printed" json:"full_printed"`
	Options       string `db:"options" json:"options"`
	DefaultOption string `db:"default_option" json:"default_option"`
	MockupType    string `db:"mockup_type" json:"mockup_type"`
}

// OriginDesign is a design of the origin campaign.
type OriginDesign struct {
	ID         int64           `db:"id" json:"id"`
	ProductID  int64           `db:"product_id" json:"product_id"`
	PrintSpace string          `db:"print_space" json:"print_space"`
	DesignJSON json.RawMessage `db:"design_json" json:"design_json"`
	Option     string          `db:"option" json:"option"`
}

// origin reads the owner's campaign id with its products and designs.
func (s store) origin(ctx context.Context, ownerID, id int64) (Origin, error) {
	var o Origin
	err := s.db.GetContext(ctx, &o, `SELECT id, name, kind, artwork_url FROM campaigns WHERE id = $1 AND user_id = $2`, id, ownerID)
	if errors.Is(err, sql.ErrNoRows) {
		return Origin{}, ErrNotFound
	}
	if err != nil {
		return Origin{}, fmt.Errorf("load campaign %d: %w", id, err)
	}
	o.Products, o.Designs = []OriginProduct{}, []OriginDesign{}
	const products = `SELECT id, template_id, name, product_type, print_spaces, full_printed, options, default_option, mockup_type
FROM campaign_products WHERE campaign_id = $1 ORDER BY id`
	if err := s.db.SelectContext(ctx, &o.Products, products, id); err != nil {
		return Origin{}, fmt.Errorf("load products of campaign %d: %w", id, err)
	}
	const designs = `SELECT id, product_id, print_space, design_json, option FROM campaign_designs WHERE campaign_id = $1 ORDER BY product_id, id`
	if err := s.db.SelectContext(ctx, &o.Designs, designs, id); err != nil {
		return Origin{}, fmt.Errorf("load designs of campaign %d: %w", id, err)
	}
	return o, nil
}
