package bulk

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/periodic"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/worker/tasks"
)

// Messages the campaign job logs, with tasks.MsgCampaignNotFound.
const (
	MsgNoDesign          = "Original campaign has no design"
	MsgMissingPrintSpace = "Missing print spaces"
	MsgCannotLoadDesigns = "Cannot load designs"
	MsgCampaignCreated   = "Campaign created"
)

// CampaignHandler runs bulk:campaign: it makes the job's campaign from the origin campaign, named
// prefix + campaign_name + suffix (the origin's name when campaign_name is empty), with the
// artwork of every design replaced by the job's new_url, queues the print files, and writes the
// bulk log. A job no longer queued for the task's attempt, or of a designer, is left as it is.
type CampaignHandler struct {
	db    *sqlx.DB
	relay *outbox.Relay
	log   *slog.Logger
}

// NewCampaignHandler builds the handler.
func NewCampaignHandler(db *sqlx.DB, relay *outbox.Relay, log *slog.Logger) (*CampaignHandler, error) {
	if db == nil || relay == nil {
		return nil, errors.New("bulk: database and outbox relay are required")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &CampaignHandler{db: db, relay: relay, log: log}, nil
}

// job is what the task reads of a bulk campaign job.
type job struct {
	ID           int64  `db:"id"`
	UserID       int64  `db:"user_id"`
	OriginID     int64  `db:"origin_id"`
	CampaignName string `db:"campaign_name"`
	Prefix       string `db:"prefix"`
	Suffix       string `db:"suffix"`
	Designs      string `db:"designs"`
}

// ProcessTask runs one job; a failure the job logs ends it failed, a transient error is retried
// and fails the job on the last attempt.
func (h *CampaignHandler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	p, err := queue.ParsePayload(t, func(p tasks.BulkCampaignPayload) bool { return p.JobID > 0 && p.Attempt > 0 })
	if err != nil {
		return err
	}
	err = h.process(ctx, p)
	var inv *invalid
	switch {
	case err == nil:
		return nil
	case errors.As(err, &inv):
		return h.finish(ctx, p, tasks.BulkFailed, inv.msg, 0)
	case ctx.Err() == nil && queue.LastAttempt(ctx):
		h.log.Error("bulk campaign job given up", "job", p.JobID, "err", err)
		return errors.Join(err, h.finish(ctx, p, tasks.BulkFailed, MsgTryAgain, 0))
	}
	return err
}

func (h *CampaignHandler) process(ctx context.Context, p tasks.BulkCampaignPayload) error {
	const load = `
SELECT j.id, j.user_id, coalesce(j.campaign_id, j.template_campaign_id, 0) AS origin_id, j.campaign_name, j.prefix,
	j.suffix, j.designs
FROM bulk_campaign_jobs j JOIN users u ON u.id = j.user_id
WHERE j.id = $1 AND j.attempts = $2 AND j.status = 'queued' AND NOT ('designer' = ANY (u.roles))`
	var j job
	err := h.db.GetContext(ctx, &j, load, p.JobID, p.Attempt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("load bulk campaign job %d: %w", p.JobID, err)
	}
	origin, found, err := loadTemplate(ctx, h.db, j.UserID, j.OriginID)
	if err != nil {
		return err
	}
	if !found {
		return &invalid{tasks.MsgCampaignNotFound}
	}
	hasDesign := false
	for _, pr := range origin.Products {
		if len(pr.Spaces) == 0 {
			return &invalid{MsgMissingPrintSpace}
		}
		hasDesign = hasDesign || len(pr.Designs) > 0
	}
	if !hasDesign {
		return &invalid{MsgNoDesign}
	}
	newURL, ok := jobArtwork(j.Designs)
	if !ok {
		return &invalid{MsgCannotLoadDesigns}
	}
	uploads, err := loadArtworks(ctx, h.db, j.UserID, []item{{NewURL: newURL}})
	var inv *invalid
	if errors.As(err, &inv) {
		return &invalid{MsgCannotLoadDesigns}
	}
	if err != nil {
		return err
	}
	art := uploads[tasks.BlobKey(newURL)].artwork()
	var designs []newDesign
	for _, pr := range origin.Products {
		for _, d := range pr.Designs {
			doc, err := design.Parse(d.Document)
			if err != nil {
				return &invalid{MsgCannotLoadDesigns}
			}
			replaceArtwork(doc, art)
			nd, err := finish(pr.ID, d.PrintSpace, doc)
			if err != nil {
				return &invalid{MsgCannotLoadDesigns}
			}
			designs = append(designs, nd)
		}
	}
	name := j.CampaignName
	if strings.TrimSpace(name) == "" {
		name = origin.Name
	}
	ids, err := h.save(ctx, p, j, origin, jobName(j.Prefix, name, j.Suffix), art.Key, designs)
	if err != nil || len(ids) == 0 {
		return err
	}
	if _, err := h.relay.Dispatch(ctx, ids...); err != nil {
		h.log.Warn("bulk export tasks left for the relay", "job", j.ID, "err", err)
	}
	return nil
}

// jobArtwork is the new_url of a job's designs: an object with new_url, or the first of an array
// of them.
func jobArtwork(designs string) (string, bool) {
	var one struct {
		NewURL string `json:"new_url"`
	}
	if err := json.Unmarshal([]byte(designs), &one); err == nil && strings.TrimSpace(one.NewURL) != "" {
		return strings.TrimSpace(one.NewURL), true
	}
	var many []struct {
		NewURL string `json:"new_url"`
	}
	if err := json.Unmarshal([]byte(designs), &many); err == nil && len(many) > 0 && strings.TrimSpace(many[0].NewURL) != "" {
		return strings.TrimSpace(many[0].NewURL), true
	}
	return "", false
}

// jobName is prefix + name + suffix, cut to the campaigns table's bound.
func jobName(prefix, name, suffix string) string {
	return tasks.FitName(strings.TrimSpace(prefix + name + suffix))
}

// save creates the job's campaign and completes the job with its log line, in one transaction
// holding the job locked; nothing is written when the job is no longer queued for p.
func (h *CampaignHandler) save(ctx context.Context, p tasks.BulkCampaignPayload, j job, origin template, name, artworkKey string, designs []newDesign) ([]int64, error) {
	tx, err := h.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var status string
	const lock = `SELECT status FROM bulk_campaign_jobs WHERE id = $1 AND attempts = $2 FOR UPDATE`
	if err := tx.GetContext(ctx, &status, lock, p.JobID, p.Attempt); errors.Is(err, sql.ErrNoRows) || (err == nil && status != tasks.BulkQueued) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("lock bulk campaign job %d: %w", p.JobID, err)
	}
	campaignID, _, ids, err := createCampaign(ctx, tx, j.UserID, origin, name, artworkKey, designs)
	if err != nil {
		return nil, err
	}
	if err := finishJob(ctx, tx, p, tasks.BulkCompleted, MsgCampaignCreated, campaignID); err != nil {
		return nil, err
	}
	return ids, tx.Commit()
}

// finish ends the job of attempt p with status and logs message.
func (h *CampaignHandler) finish(ctx context.Context, p tasks.BulkCampaignPayload, status, message string, campaignID int64) error {
	tx, err := h.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := finishJob(ctx, tx, p, status, message, campaignID); err != nil {
		return err
	}
	return tx.Commit()
}

// finishJob sets the job of attempt p, while still queued for it, to status with message (and the
// campaign it made, when not 0) and writes message to the bulk log.
func finishJob(ctx context.Context, tx *sqlx.Tx, p tasks.BulkCampaignPayload, status, message string, campaignID int64) error {
	const q = `UPDATE bulk_campaign_jobs SET status = $3, message = $4, new_campaign_id = nullif($5, 0), updated_at = now()
WHERE id = $1 AND attempts = $2 AND status = 'queued'`
	res, err := tx.ExecContext(ctx, q, p.JobID, p.Attempt, status, message, campaignID)
	if err != nil {
		return fmt.Errorf("finish bulk campaign job %d: %w", p.JobID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO bulk_logs (bulk_id, log) VALUES ($1, $2)`, p.JobID, message); err != nil {
		return fmt.Errorf("log bulk campaign job %d: %w", p.JobID, err)
	}
	return nil
}

// Scheduler finds pending bulk campaign jobs and queues them.
type Scheduler struct {
	interval time.Duration
	batch    int
	db       *sqlx.DB
	relay    *outbox.Relay
	log      *slog.Logger
}

// NewScheduler validates cfg and builds a Scheduler.
func NewScheduler(cfg Config, db *sqlx.DB, relay *outbox.Relay, log *slog.Logger) (*Scheduler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if db == nil || relay == nil {
		return nil, errors.New("bulk: database and outbox relay are required")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Scheduler{interval: cfg.ScheduleInterval, batch: cfg.ReconcileBatch, db: db, relay: relay, log: log}, nil
}

// Schedule queues up to a batch of pending jobs, oldest first: each gets a new attempt and its
// bulk:campaign task through the outbox in one transaction. Jobs another scheduler holds are
// skipped. It returns how many it queued.
func (s *Scheduler) Schedule(ctx context.Context) (int, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	const q = `
UPDATE bulk_campaign_jobs SET status = 'queued', attempts = attempts + 1, updated_at = now()
WHERE id IN (SELECT id FROM bulk_campaign_jobs WHERE status = 'pending' ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
RETURNING id, attempts`
	var rows []struct {
		ID       int64 `db:"id"`
		Attempts int   `db:"attempts"`
	}
	if err := tx.SelectContext(ctx, &rows, q, s.batch); err != nil {
		return 0, fmt.Errorf("schedule bulk campaign jobs: %w", err)
	}
	ids := make([]int64, 0, len(rows))
	for _, r := range rows {
		j, err := tasks.NewBulkCampaignJob(r.ID, r.Attempts)
		if err != nil {
			return 0, err
		}
		oid, err := outbox.Add(ctx, tx, j)
		if err != nil {
			return 0, err
		}
		ids = append(ids, oid)
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	if len(ids) > 0 {
		if _, err := s.relay.Dispatch(ctx, ids...); err != nil {
			s.log.Warn("bulk campaign tasks left for the relay", "err", err)
		}
	}
	return len(rows), nil
}

// Run schedules at once and then every interval until ctx ends.
func (s *Scheduler) Run(ctx context.Context) error {
	return periodic.Run(ctx, s.interval, s.log, s.Schedule, "bulk campaign scheduler", "bulk campaign jobs queued")
}
