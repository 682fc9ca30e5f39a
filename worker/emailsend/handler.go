package emailsend

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/worker/tasks"
)

// Mailer delivers one message; *mail.Mailer is the real one.
type Mailer interface {
	Send(ctx context.Context, msg mail.Message) error
}

// Handler runs email:send-campaign and email:send-test tasks.
type Handler struct {
	cfg   Config
	store store
	mail  Mailer
	log   *slog.Logger
}

// NewHandler validates cfg (the worker's own config demands the public address in production) and builds the handler.
func NewHandler(cfg Config, db *sqlx.DB, m Mailer, log *slog.Logger) (*Handler, error) {
	if err := cfg.Validate(false); err != nil {
		return nil, err
	}
	if db == nil || m == nil {
		return nil, errors.New("emailsend: db and mailer are required")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Handler{cfg: cfg, store: store{db}, mail: m, log: log}, nil
}

// ProcessTask sends a campaign: it adds a delivery row per subscribed subscriber, then claims
// pending rows a batch at a time and mails them one by one, recording each outcome. A retried or
// restarted task resumes with the rows still pending; a row claimed by an attempt that died is
// failed, never mailed again. A send already finished is left as it is.
func (h *Handler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	p, err := parseCampaign(t)
	if err != nil {
		return err
	}
	c, err := h.store.campaign(ctx, p.CampaignID)
	if errors.Is(err, ErrNoCampaign) {
		return fmt.Errorf("campaign %d: %w", p.CampaignID, asynq.SkipRetry)
	}
	if err != nil {
		return err
	}
	switch c.Status {
	case tasks.EmailSent, tasks.EmailFailed:
		return nil
	case tasks.EmailDraft:
		return fmt.Errorf("campaign %d is a draft, not queued: %w", c.ID, asynq.SkipRetry)
	}
	err = h.send(ctx, c)
	if err != nil && ctx.Err() == nil && queue.LastAttempt(ctx) {
		h.log.Warn("campaign send failed", "campaign_id", c.ID, "err", err)
		if ferr := h.store.fail(ctx, c.ID, "The send stopped: "+err.Error()); ferr != nil {
			return errors.Join(err, ferr)
		}
	}
	return err
}

func (h *Handler) send(ctx context.Context, c campaign) error {
	lost, err := h.store.start(ctx, c.ID)
	if err != nil {
		return fmt.Errorf("start campaign %d: %w", c.ID, err)
	}
	if lost > 0 {
		h.log.Warn("campaign deliveries interrupted by an earlier attempt", "campaign_id", c.ID, "count", lost)
	}
	for after := int64(0); ; {
		last, err := h.store.addRecipients(ctx, c, after, h.cfg.BatchSize*20)
		if err != nil {
			return fmt.Errorf("add recipients of campaign %d: %w", c.ID, err)
		}
		if last == 0 {
			break
		}
		after = last
	}
	if err := h.store.countRecipients(ctx, c.ID); err != nil {
		return fmt.Errorf("count recipients of campaign %d: %w", c.ID, err)
	}
	for {
		batch, err := h.store.claim(ctx, c.ID, h.cfg.BatchSize)
		if err != nil {
			return err
		}
		if len(batch) == 0 {
			return h.store.finish(ctx, c.ID)
		}
		if err := h.deliver(ctx, c, batch); err != nil {
			return err
		}
	}
}

// deliver mails a claimed batch. When the task's context ends, the rows not yet attempted go back
// to pending; outcomes are recorded even then, since the mail has left.
func (h *Handler) deliver(ctx context.Context, c campaign, batch []delivery) error {
	keep := context.WithoutCancel(ctx)
	for i, d := range batch {
		if err := ctx.Err(); err != nil {
			ids := make([]int64, 0, len(batch)-i)
			for _, r := range batch[i:] {
				ids = append(ids, r.ID)
			}
			return errors.Join(err, h.store.release(keep, ids))
		}
		status, msg := tasks.EmailSent, ""
		if !d.Subscribed {
			status = "skipped"
		} else {
			err := h.mail.Send(ctx, message(c, d.Email, "", recipientValues(c, d, h.cfg.Public.Link(tasks.UnsubscribePath+d.Token))))
			if err != nil {
				status, msg = tasks.EmailFailed, err.Error()
				h.log.Info("campaign delivery failed", "campaign_id", c.ID, "delivery_id", d.ID, "err", err)
			}
		}
		if err := h.store.settle(keep, d, status, msg); err != nil {
			return fmt.Errorf("record delivery %d: %w", d.ID, err)
		}
	}
	return nil
}

// TestHandler runs email:send-test tasks.
type TestHandler struct{ h *Handler }

// Tests is the handler of the test sends, sharing h's mailer and configuration.
func (h *Handler) Tests() *TestHandler { return &TestHandler{h} }

// ProcessTask mails one copy of the campaign to the payload's address, its subject marked [Test],
// its merge fields filled with the samples the preview shows and its unsubscribe link pointing
// nowhere real.
func (t *TestHandler) ProcessTask(ctx context.Context, task *asynq.Task) error {
	p, err := parseTest(task)
	if err != nil {
		return err
	}
	c, err := t.h.store.campaign(ctx, p.CampaignID)
	if errors.Is(err, ErrNoCampaign) {
		return fmt.Errorf("campaign %d: %w", p.CampaignID, asynq.SkipRetry)
	}
	if err != nil {
		return err
	}
	values := tasks.SampleMergeValues()
	values[tasks.MergeStoreName] = c.StoreName
	values[tasks.MergeUnsubscribeURL] = t.h.cfg.Public.Link(tasks.UnsubscribePath + "test")
	return t.h.mail.Send(ctx, message(c, p.To, "[Test] ", values))
}
