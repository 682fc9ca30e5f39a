package mockuptask

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// Queue makes the mockups of revision of design designID pending and adds their tasks to the outbox
// in tx at priority: one campaign_mockups row per mockup template of the design's product template
// and print space that applies to the product (type_detail empty or equal to its mockup_type), drawn
// by render:mockup, or by render:mockup3d for a 3D template (one whose design_json names a glb). A
// row already showing this revision, done, is left as it is. The product's first mockup becomes its
// default when it has none. It returns the outbox ids of the tasks it added.
//
// At queue.Bulk priority the 3D templates are skipped: no row, no task, so a bulk record (the target
// is 500 records in five minutes) costs flat mockups only and its reconciler waits for nothing more;
// a 3D mockup a product already has stays as it was. The seller's own saves (queue.Interactive) draw
// them.
func Queue(ctx context.Context, tx *sqlx.Tx, designID, revision int64, priority queue.Priority) ([]int64, error) {
	const upsert = `
WITH d AS (
	SELECT id, campaign_id, product_id, print_space FROM campaign_designs WHERE id = $1 AND revision = $2
), up AS (
	INSERT INTO campaign_mockups (campaign_id, product_id, print_space, mockup_template_id, design_id, design_revision)
	SELECT d.campaign_id, d.product_id, d.print_space, t.id, d.id, $2
	FROM d JOIN campaign_products p ON p.id = d.product_id
	JOIN mockup_templates t ON t.template_id = p.template_id AND t.print_space = d.print_space
	WHERE (t.type_detail = '' OR t.type_detail = p.mockup_type) AND ($3 OR coalesce(t.design_json->>'glb', '') = '')
	ORDER BY t.position, t.id
	ON CONFLICT (product_id, mockup_template_id) DO UPDATE SET design_id = EXCLUDED.design_id,
		design_revision = EXCLUDED.design_revision, status = 'pending', error = '', updated_at = now()
	WHERE (campaign_mockups.design_id, campaign_mockups.design_revision) IS DISTINCT FROM (EXCLUDED.design_id, EXCLUDED.design_revision)
		OR campaign_mockups.status <> 'done'
	RETURNING id, product_id, mockup_template_id
)
SELECT up.id, up.product_id, coalesce(t.design_json->>'glb', '') <> '' AS three_d
FROM up JOIN mockup_templates t ON t.id = up.mockup_template_id
ORDER BY t.position, t.id`
	var rows []struct {
		ID        int64 `db:"id"`
		ProductID int64 `db:"product_id"`
		ThreeD    bool  `db:"three_d"`
	}
	if err := tx.SelectContext(ctx, &rows, upsert, designID, revision, priority != queue.Bulk); err != nil {
		return nil, fmt.Errorf("queue mockups of design %d r%d: %w", designID, revision, err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	if err := chooseDefault(ctx, tx, rows[0].ProductID); err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(rows))
	for _, r := range rows {
		job, err := tasks.NewMockupJob(r.ThreeD, r.ID, revision, 0, priority)
		if err != nil {
			return nil, err
		}
		oid, err := outbox.Add(ctx, tx, job)
		if err != nil {
			return nil, err
		}
		ids = append(ids, oid)
	}
	return ids, nil
}

// chooseDefault makes the product's first mockup (by template position) its default unless the
// seller chose one: print files finish in any order, so a default shown before the first template's
// mockup existed moves to it. Two exports of one product's print spaces may race here; the loser
// finds the winner's default through the unique index and keeps it, which the savepoint lets the
// transaction survive.
func chooseDefault(ctx context.Context, tx *sqlx.Tx, productID int64) error {
	const first = `(SELECT m.id FROM campaign_mockups m JOIN mockup_templates t ON t.id = m.mockup_template_id
	WHERE m.product_id = $1 ORDER BY t.position, t.id LIMIT 1)`
	const clear = `UPDATE campaign_mockups SET is_default_mockup = false, updated_at = now()
WHERE product_id = $1 AND is_default_mockup AND NOT default_chosen AND id <> ` + first
	const set = `UPDATE campaign_mockups SET is_default_mockup = true, updated_at = now()
WHERE id = ` + first + ` AND NOT EXISTS (SELECT 1 FROM campaign_mockups WHERE product_id = $1 AND is_default_mockup)`
	if _, err := tx.ExecContext(ctx, `SAVEPOINT mockup_default`); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, clear, productID)
	if err == nil {
		_, err = tx.ExecContext(ctx, set, productID)
	}
	if database.UniqueViolation(err) {
		_, err = tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT mockup_default`)
		return err
	}
	if err != nil {
		return fmt.Errorf("choose default mockup of product %d: %w", productID, err)
	}
	_, err = tx.ExecContext(ctx, `RELEASE SAVEPOINT mockup_default`)
	return err
}
