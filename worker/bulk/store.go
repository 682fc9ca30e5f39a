package bulk

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/worker/tasks"
)

// errNotReady means an artwork is still being checked by the renderer: the task is retried.
var errNotReady = errors.New("artwork not checked yet")

// record is what the task reads of a bulk record, with the fields of an imported row (see
// imports.go): its name, its product templates, and the store it is sold in with its price.
type record struct {
	ID                 int64         `db:"id"`
	UserID             int64         `db:"user_id"`
	TemplateCampaignID sql.NullInt64 `db:"template_campaign_id"`
	Designs            string        `db:"designs"`
	Name               string        `db:"name"`
	TemplateIDs        pq.Int64Array `db:"template_ids"`
	StoreID            sql.NullInt64 `db:"store_id"`
	Price              []byte        `db:"price"`
}

// template is the template campaign with its products and designs, in id order.
type template struct {
	ID           int64  `db:"id"`
	Name         string `db:"name"`
	Kind         string `db:"kind"`
	Personalized *bool  `db:"personalized"`
	Products     []product
}

// loadRecord returns the record of attempt p when it is queued for it and its account is not a
// designer's; ok is false otherwise (stopped, restarted, removed, done, or a designer's record).
func loadRecord(ctx context.Context, db sqlx.QueryerContext, p tasks.BulkRecordPayload) (record, bool, error) {
	const q = `
SELECT r.id, r.user_id, r.template_campaign_id, r.designs, r.name, r.template_ids, r.store_id, r.price
FROM bulk_records r JOIN users u ON u.id = r.user_id
WHERE r.id = $1 AND r.attempts = $2 AND r.status = 'queued' AND NOT ('designer' = ANY (u.roles))`
	var r record
	err := sqlx.GetContext(ctx, db, &r, q, p.RecordID, p.Attempt)
	if errors.Is(err, sql.ErrNoRows) {
		return record{}, false, nil
	}
	if err != nil {
		return record{}, false, fmt.Errorf("load bulk record %d: %w", p.RecordID, err)
	}
	return r, true, nil
}

// enterStep records step on the record while it is still queued for attempt p; false means it
// no longer is (stopped, restarted or removed).
func enterStep(ctx context.Context, db sqlx.ExecerContext, p tasks.BulkRecordPayload, step string) (bool, error) {
	const q = `UPDATE bulk_records SET step = $3, updated_at = now() WHERE id = $1 AND attempts = $2 AND status = 'queued'`
	res, err := db.ExecContext(ctx, q, p.RecordID, p.Attempt, step)
	if err != nil {
		return false, fmt.Errorf("bulk record %d step %s: %w", p.RecordID, step, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// finishRecord sets the record of attempt p to status with message, while it is still queued for it.
func finishRecord(ctx context.Context, db sqlx.ExecerContext, p tasks.BulkRecordPayload, status, step, message string) error {
	const q = `UPDATE bulk_records SET status = $3, step = $4, message = $5, updated_at = now()
WHERE id = $1 AND attempts = $2 AND status = 'queued'`
	if _, err := db.ExecContext(ctx, q, p.RecordID, p.Attempt, status, step, message); err != nil {
		return fmt.Errorf("mark bulk record %d %s: %w", p.RecordID, status, err)
	}
	return nil
}

// noteMessage shows message on the row of attempt p without changing its status.
func noteMessage(ctx context.Context, db sqlx.ExecerContext, p tasks.BulkRecordPayload, message string) error {
	const q = `UPDATE bulk_records SET message = $3, updated_at = now() WHERE id = $1 AND attempts = $2 AND status = 'queued'`
	_, err := db.ExecContext(ctx, q, p.RecordID, p.Attempt, message)
	return err
}

// loadTemplate reads the owner's template campaign with its products and designs; ok is false
// when there is no such campaign of the owner.
func loadTemplate(ctx context.Context, db sqlx.QueryerContext, ownerID, id int64) (template, bool, error) {
	var t template
	err := sqlx.GetContext(ctx, db, &t, `SELECT id, name, kind, personalized FROM campaigns WHERE id = $1 AND user_id = $2`, id, ownerID)
	if errors.Is(err, sql.ErrNoRows) {
		return template{}, false, nil
	}
	if err != nil {
		return template{}, false, fmt.Errorf("load template campaign %d: %w", id, err)
	}
	var prods []struct {
		ID          int64  `db:"id"`
		PrintSpaces string `db:"print_spaces"`
	}
	if err := sqlx.SelectContext(ctx, db, &prods, `SELECT id, print_spaces FROM campaign_products WHERE campaign_id = $1 ORDER BY id`, id); err != nil {
		return template{}, false, fmt.Errorf("load products of campaign %d: %w", id, err)
	}
	var designs []struct {
		ProductID  int64  `db:"product_id"`
		PrintSpace string `db:"print_space"`
		Document   []byte `db:"design_json"`
	}
	const qd = `SELECT product_id, print_space, design_json FROM campaign_designs WHERE campaign_id = $1 ORDER BY product_id, id`
	if err := sqlx.SelectContext(ctx, db, &designs, qd, id); err != nil {
		return template{}, false, fmt.Errorf("load designs of campaign %d: %w", id, err)
	}
	for _, pr := range prods {
		p := product{ID: pr.ID}
		if err := json.Unmarshal([]byte(pr.PrintSpaces), &p.Spaces); err != nil {
			return template{}, false, fmt.Errorf("product %d print_spaces: %w", pr.ID, err)
		}
		for _, d := range designs {
			if d.ProductID == pr.ID {
				p.Designs = append(p.Designs, templateDesign{PrintSpace: d.PrintSpace, Document: d.Document})
			}
		}
		t.Products = append(t.Products, p)
	}
	return t, true, nil
}

// upload is what the task reads of an artwork upload.
type upload struct {
	Key      string        `db:"blob_key"`
	FileName string        `db:"file_name"`
	Status   string        `db:"status"`
	Width    sql.NullInt64 `db:"width"`
	Height   sql.NullInt64 `db:"height"`
}

// artwork is the upload as a replacement image.
func (u upload) artwork() artwork {
	return artwork{Key: u.Key, Width: int(u.Width.Int64), Height: int(u.Height.Int64)}
}

// loadArtworks reads the owner's uploads under keys. A key that is no usable upload of the owner
// fails the record with 'Load img failed' and its new_url; one still being checked is errNotReady.
func loadArtworks(ctx context.Context, db sqlx.QueryerContext, ownerID int64, items []item) (map[string]upload, error) {
	keys := make([]string, len(items))
	for i, it := range items {
		keys[i] = tasks.BlobKey(it.NewURL)
	}
	var rows []upload
	const q = `SELECT blob_key, file_name, status, width, height FROM uploads WHERE owner_id = $1 AND blob_key = ANY ($2)`
	if err := sqlx.SelectContext(ctx, db, &rows, q, ownerID, pq.Array(keys)); err != nil {
		return nil, fmt.Errorf("load artworks: %w", err)
	}
	found := make(map[string]upload, len(rows))
	for _, r := range rows {
		found[r.Key] = r
	}
	for i, it := range items {
		u, ok := found[keys[i]]
		switch {
		case !ok || u.Status == "rejected":
			return nil, &invalid{MsgLoadImgFailed + " " + it.NewURL}
		case u.Status != "ready" || !u.Width.Valid || !u.Height.Valid:
			return nil, fmt.Errorf("%s: %w", it.NewURL, errNotReady)
		}
	}
	return found, nil
}

// campaignName is "{template name} - {artwork file name without extension}", cut to fit.
func campaignName(templateName, fileName string) string {
	stem := strings.TrimSuffix(fileName, path.Ext(fileName))
	name := templateName
	if stem != "" {
		name += " - " + stem
	}
	return tasks.FitName(name)
}

// save creates the campaign of record r's attempt p from template t with designs (see
// createCampaign), puts it on sale when the record names a store (publish), and sets the record
// processing, in one transaction holding the record locked. It
// returns the outbox rows to dispatch; applied is false when the record is no longer queued for p
// (stopped, restarted, removed, or applied by an earlier run of the task), and then nothing is
// written.
func save(ctx context.Context, db *sqlx.DB, p tasks.BulkRecordPayload, r record, t template, name, artworkKey string, designs []newDesign) (outboxIDs []int64, applied bool, err error) {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, false, err
	}
	defer tx.Rollback()
	var status string
	const lock = `SELECT status FROM bulk_records WHERE id = $1 AND attempts = $2 FOR UPDATE`
	if err := tx.GetContext(ctx, &status, lock, p.RecordID, p.Attempt); errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	} else if err != nil {
		return nil, false, fmt.Errorf("lock bulk record %d: %w", p.RecordID, err)
	}
	if status != tasks.BulkQueued {
		return nil, false, nil
	}
	campaignID, products, outboxIDs, err := createCampaign(ctx, tx, r.UserID, t, name, artworkKey, designs)
	if err != nil {
		return nil, false, err
	}
	if err := publish(ctx, tx, r, campaignID, products); err != nil {
		return nil, false, err
	}
	const done = `UPDATE bulk_records SET status = 'processing', step = $2, campaign_id = $3, message = '',
	processed_at = now(), updated_at = now() WHERE id = $1`
	if _, err := tx.ExecContext(ctx, done, r.ID, StepApplyDesignSuccess, campaignID); err != nil {
		return nil, false, fmt.Errorf("mark bulk record %d processing: %w", r.ID, err)
	}
	if err := tx.Commit(); err != nil {
		return nil, false, err
	}
	return outboxIDs, true, nil
}

// createCampaign creates in tx the owner's campaign name copied from template t (its kind,
// personalized setting and products) with designs, through tasks.CreateCampaign at bulk priority.
// It returns the campaign and its products' ids by template product, and the outbox rows to
// dispatch after commit. An owner at their campaign limit gets no campaign: the error is an
// *invalid with the limit's message.
func createCampaign(ctx context.Context, tx *sqlx.Tx, ownerID int64, t template, name, artworkKey string, designs []newDesign) (int64, map[int64]int64, []int64, error) {
	c := tasks.NewCampaign{OwnerID: ownerID, Name: name, Kind: t.Kind, Personalized: t.Personalized, ArtworkKey: artworkKey}
	index := make(map[int64]int, len(t.Products))
	for i, pr := range t.Products {
		index[pr.ID] = i
		c.Products = append(c.Products, pr.source())
	}
	for _, d := range designs {
		c.Designs = append(c.Designs, tasks.CampaignDesign{Product: index[d.ProductID], PrintSpace: d.PrintSpace, Document: d.Document,
			Option: d.Option, Empty: d.Empty})
	}
	made, err := tasks.CreateCampaign(ctx, tx, c, queue.Bulk)
	var over *tasks.CampaignLimitError
	if errors.As(err, &over) {
		return 0, nil, nil, &invalid{over.Error()}
	}
	if err != nil {
		return 0, nil, nil, err
	}
	products := make(map[int64]int64, len(t.Products))
	for i, pr := range t.Products {
		products[pr.ID] = made.ProductIDs[i]
	}
	return made.ID, products, made.OutboxIDs, nil
}
