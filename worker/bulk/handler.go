package bulk

import (
	"context"
	"errors"
	"log/slog"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/worker/tasks"
)

// Handler runs bulk:record.
type Handler struct {
	db    *sqlx.DB
	relay *outbox.Relay
	log   *slog.Logger
}

// NewHandler builds the handler; relay sends the export tasks right after a record is applied (the
// relay's loop sends whatever it could not).
func NewHandler(db *sqlx.DB, relay *outbox.Relay, log *slog.Logger) (*Handler, error) {
	if db == nil || relay == nil {
		return nil, errors.New("bulk: database and outbox relay are required")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Handler{db: db, relay: relay, log: log}, nil
}

// ProcessTask runs the record's steps. A record no longer queued for the task's attempt is left
// as it is; an invalid one fails with the check's message; a transient error is returned for a
// retry, shown on the row meanwhile, and fails the record on the last attempt.
func (h *Handler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	p, err := parsePayload(t)
	if err != nil {
		return err
	}
	err = h.process(ctx, p)
	var inv *invalid
	switch {
	case err == nil:
		return nil
	case errors.As(err, &inv):
		return finishRecord(ctx, h.db, p, tasks.BulkFailed, StepInvalidDesign, inv.msg)
	case ctx.Err() != nil:
		return err
	case queue.LastAttempt(ctx):
		h.log.Error("bulk record given up", "record", p.RecordID, "attempt", p.Attempt, "err", err)
		return errors.Join(err, finishRecord(ctx, h.db, p, tasks.BulkFailed, StepInvalidDesign, MsgTryAgain))
	}
	if nerr := noteMessage(ctx, h.db, p, MsgRetrying); nerr != nil {
		return errors.Join(err, nerr)
	}
	return err
}

// templateOf is what the record's campaign is made from: its template campaign, or, for an
// imported row that names product templates, those.
func (h *Handler) templateOf(ctx context.Context, r record) (template, error) {
	if len(r.TemplateIDs) > 0 {
		return loadProducts(ctx, h.db, r.TemplateIDs)
	}
	if !r.TemplateCampaignID.Valid {
		return template{}, &invalid{tasks.MsgCampaignNotFound}
	}
	tmpl, found, err := loadTemplate(ctx, h.db, r.UserID, r.TemplateCampaignID.Int64)
	if err != nil {
		return template{}, err
	}
	if !found {
		return template{}, &invalid{tasks.MsgCampaignNotFound}
	}
	return tmpl, nil
}

// process runs LOAD_PENDING_RECORD, PRE_LOAD_DESIGN_MOCKUP and APPLY_DESIGN; an *invalid error
// is INVALID_DESIGN. Between steps it stops when the record is no longer queued for p.
func (h *Handler) process(ctx context.Context, p tasks.BulkRecordPayload) error {
	r, ok, err := loadRecord(ctx, h.db, p)
	if err != nil || !ok {
		return err
	}
	if ok, err := enterStep(ctx, h.db, p, StepLoadPendingRecord); err != nil || !ok {
		return err
	}
	items, err := parseItems(r.Designs)
	if err != nil {
		return err
	}

	if ok, err := enterStep(ctx, h.db, p, StepPreLoadDesignMockup); err != nil || !ok {
		return err
	}
	tmpl, err := h.templateOf(ctx, r)
	if err != nil {
		return err
	}
	// Products of the catalogue take an artwork without a print space on their main print space.
	toMain := len(r.TemplateIDs) > 0 && items[0].PrintSpace == ""
	if items[0].PrintSpace == "" && !toMain {
		// The one design without a print space goes on the first print space of the first
		// product's first design.
		if len(tmpl.Products) == 0 || len(tmpl.Products[0].Designs) == 0 {
			return &invalid{MsgPrintSpaceInvalid}
		}
		items[0].PrintSpace = tmpl.Products[0].Designs[0].PrintSpace
	}
	uploads, err := loadArtworks(ctx, h.db, r.UserID, items)
	if err != nil {
		return err
	}

	if ok, err := enterStep(ctx, h.db, p, StepApplyDesign); err != nil || !ok {
		return err
	}
	var designs []newDesign
	if toMain {
		designs, err = applyToMain(tmpl.Products, uploads[tasks.BlobKey(items[0].NewURL)].artwork())
	} else {
		arts := make(map[string]artwork, len(items))
		for _, it := range items {
			arts[it.PrintSpace] = uploads[tasks.BlobKey(it.NewURL)].artwork()
		}
		designs, err = apply(tmpl.Products, arts)
	}
	if err != nil {
		return err
	}
	first := uploads[tasks.BlobKey(items[0].NewURL)]
	name := r.Name
	if name == "" {
		name = campaignName(tmpl.Name, first.FileName)
	}
	ids, applied, err := save(ctx, h.db, p, r, tmpl, tasks.FitName(name), first.Key, designs)
	if err != nil || !applied || len(ids) == 0 {
		return err
	}
	// Committed: if Redis is away now, the relay's loop sends the export tasks later.
	if _, err := h.relay.Dispatch(ctx, ids...); err != nil {
		h.log.Warn("bulk export tasks left for the relay", "record", r.ID, "err", err)
	}
	return nil
}
