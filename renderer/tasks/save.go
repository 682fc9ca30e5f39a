package tasks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
)

// Design is a design document to store for one print space of a campaign product.
type Design struct {
	CampaignID int64
	ProductID  int64
	PrintSpace string
	Document   []byte
	// Option is the document's option (design.Document.Option).
	Option string
	// Empty is a document without objects: an empty print space has no print file to make.
	Empty bool
}

// SaveDesign stores d in tx and queues its print file: a print space without a design gets one at
// revision 1; a changed document, or one whose export failed (saving again is how the seller
// retries), moves to the next revision with its previous print file's columns cleared. The new
// revision is ExportPending with its render:export task added to the outbox at priority, or
// ExportNone for an empty document. An unchanged document keeps its revision and print file, and
// nothing is queued. It returns the outbox id of the task it added, 0 when none.
func SaveDesign(ctx context.Context, tx *sqlx.Tx, d Design, priority queue.Priority) (int64, error) {
	const upsert = `
INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json, option, export_status)
VALUES ($1, $2, $3, $4::jsonb, $5, $6)
ON CONFLICT (product_id, print_space) DO UPDATE SET design_json = EXCLUDED.design_json, option = EXCLUDED.option,
	revision = campaign_designs.revision + 1, export_status = EXCLUDED.export_status, width = 0, height = 0, dpi = 0,
	file_size = 0, export_report = NULL, export_error = '', exported_at = NULL, updated_at = now()
WHERE campaign_designs.design_json IS DISTINCT FROM EXCLUDED.design_json OR campaign_designs.export_status = 'failed'
RETURNING id, revision`
	status := ExportPending
	if d.Empty {
		status = ExportNone
	}
	var saved struct {
		ID       int64 `db:"id"`
		Revision int64 `db:"revision"`
	}
	err := tx.GetContext(ctx, &saved, upsert, d.CampaignID, d.ProductID, d.PrintSpace, string(d.Document), d.Option, status)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("store design %d/%s: %w", d.ProductID, d.PrintSpace, err)
	}
	if d.Empty {
		return 0, nil
	}
	return QueueExport(ctx, tx, saved.ID, saved.Revision, priority)
}

// QueueExport adds the render:export task of revision of design designID to the outbox in tx, at
// priority, and returns its outbox id. The design row is at that revision with ExportPending,
// written in the same transaction.
func QueueExport(ctx context.Context, tx *sqlx.Tx, designID, revision int64, priority queue.Priority) (int64, error) {
	job, err := NewExportJob(designID, revision, priority)
	if err != nil {
		return 0, err
	}
	return outbox.Add(ctx, tx, job)
}
