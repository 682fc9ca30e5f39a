package bulk

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/periodic"
	"github.com/pressroom/pressroom/worker/tasks"
)

// Config tunes the reconcile loop and the campaign job scheduler.
type Config struct {
	// ReconcileInterval is how often processing records are checked for finished print files
	// (PRESSROOM_BULK_RECONCILE_INTERVAL, default 2s).
	ReconcileInterval time.Duration
	// ReconcileBatch caps the records settled per pass (PRESSROOM_BULK_RECONCILE_BATCH, default 500).
	ReconcileBatch int
	// ScheduleInterval is how often pending bulk campaign jobs are looked for and queued
	// (PRESSROOM_BULK_SCHEDULE_INTERVAL, default 10s; the same batch cap applies).
	ScheduleInterval time.Duration
}

// DefaultConfig checks records every two seconds and jobs every ten, up to 500 a pass.
func DefaultConfig() Config {
	return Config{ReconcileInterval: 2 * time.Second, ReconcileBatch: 500, ScheduleInterval: 10 * time.Second}
}

// LoadConfig reads the PRESSROOM_BULK_* variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.Duration(&cfg.ReconcileInterval, "PRESSROOM_BULK_RECONCILE_INTERVAL")
	r.Int(&cfg.ReconcileBatch, "PRESSROOM_BULK_RECONCILE_BATCH")
	r.Duration(&cfg.ScheduleInterval, "PRESSROOM_BULK_SCHEDULE_INTERVAL")
	return cfg, r.Err()
}

// Validate reports the first setting that cannot work, naming its variable.
func (c Config) Validate() error {
	switch {
	case c.ReconcileInterval <= 0:
		return errors.New("PRESSROOM_BULK_RECONCILE_INTERVAL must be positive")
	case c.ReconcileBatch <= 0:
		return errors.New("PRESSROOM_BULK_RECONCILE_BATCH must be positive")
	case c.ScheduleInterval <= 0:
		return errors.New("PRESSROOM_BULK_SCHEDULE_INTERVAL must be positive")
	}
	return nil
}

// Reconciler settles processing records whose print files are all made.
type Reconciler struct {
	cfg Config
	db  *sqlx.DB
	log *slog.Logger
}

// NewReconciler validates cfg and builds a Reconciler.
func NewReconciler(cfg Config, db *sqlx.DB, log *slog.Logger) (*Reconciler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if db == nil {
		return nil, errors.New("bulk: database is required")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Reconciler{cfg: cfg, db: db, log: log}, nil
}

// MsgMockupFailed starts the message of a record one of whose mockups failed; the renderer's
// message follows.
const MsgMockupFailed = "A mockup could not be made: "

// Reconcile settles up to a batch of processing records none of whose designs is still waiting
// for its print file and none of whose mockups for its mockup: completed with the design
// records followed by its mockup records ({mockup_id, product_id, campaign_id, print_space,
// is_default_mockup '1' or '0', file_url}) as results (written once: a record's results are never
// replaced) when every export and mockup is done, failed with the renderer's message when one
// failed, failed with 'Campaign not found' when the campaign was deleted. It
// returns how many records it settled. Several reconcilers may run at once: a record settled by
// one is no longer processing for the others.
func (r *Reconciler) Reconcile(ctx context.Context) (int, error) {
	const q = `
WITH candidates AS (
	SELECT r.id, r.campaign_id FROM bulk_records r
	WHERE r.status = 'processing' AND NOT EXISTS (SELECT 1 FROM campaign_designs d
		WHERE d.campaign_id = r.campaign_id AND d.export_status IN ('pending', 'rendering'))
	AND NOT EXISTS (SELECT 1 FROM campaign_mockups m WHERE m.campaign_id = r.campaign_id AND m.status = 'pending')
	ORDER BY r.id LIMIT $1
), settled AS (
	SELECT c.id, c.campaign_id IS NULL AS lost,
		min(d.export_error) FILTER (WHERE d.export_status = 'failed') AS failure,
		coalesce(jsonb_agg(jsonb_build_object('print_space', d.print_space, 'product_id', d.product_id,
			'file_url', d.file_url, 'design_json', d.design_json, 'option', d.option) ORDER BY d.product_id, d.id)
			FILTER (WHERE d.id IS NOT NULL), '[]'::jsonb) AS results
	FROM candidates c LEFT JOIN campaign_designs d ON d.campaign_id = c.campaign_id
	GROUP BY c.id, c.campaign_id
), mockups AS (
	SELECT c.id, min(m.error) FILTER (WHERE m.status = 'failed') AS failure,
		coalesce(jsonb_agg(jsonb_build_object('mockup_id', m.mockup_template_id, 'product_id', m.product_id,
			'campaign_id', m.campaign_id, 'print_space', m.print_space,
			'is_default_mockup', CASE WHEN m.is_default_mockup THEN '1' ELSE '0' END, 'file_url', m.file_url)
			ORDER BY m.product_id, m.id) FILTER (WHERE m.id IS NOT NULL), '[]'::jsonb) AS results
	FROM candidates c LEFT JOIN campaign_mockups m ON m.campaign_id = c.campaign_id
	GROUP BY c.id
)
UPDATE bulk_records b SET
	status = CASE WHEN s.lost OR s.failure IS NOT NULL OR mk.failure IS NOT NULL THEN 'failed' ELSE 'completed' END,
	message = CASE WHEN s.lost THEN $2 WHEN s.failure IS NOT NULL THEN $3 || s.failure
		WHEN mk.failure IS NOT NULL THEN $4 || mk.failure ELSE '' END,
	results = CASE WHEN s.lost OR s.failure IS NOT NULL OR mk.failure IS NOT NULL THEN b.results
		ELSE coalesce(b.results, s.results || mk.results) END,
	completed_at = now(), updated_at = now()
FROM settled s JOIN mockups mk ON mk.id = s.id
WHERE b.id = s.id AND b.status = 'processing'`
	res, err := r.db.ExecContext(ctx, q, r.cfg.ReconcileBatch, tasks.MsgCampaignNotFound, MsgExportFailed, MsgMockupFailed)
	if err != nil {
		return 0, fmt.Errorf("reconcile bulk records: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// Run reconciles at once and then every interval until ctx ends.
func (r *Reconciler) Run(ctx context.Context) error {
	return periodic.Run(ctx, r.cfg.ReconcileInterval, r.log, r.Reconcile, "bulk reconcile", "bulk records settled")
}
