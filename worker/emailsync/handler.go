package emailsync

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/klaviyo"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/worker/tasks"
)

// Handler runs email:sync-profiles tasks.
type Handler struct {
	cfg    klaviyo.Config
	store  runStore
	sealer *klaviyo.Sealer
	http   *http.Client
	log    *slog.Logger
	// newClient builds the Klaviyo client of one run; tests shorten its waits.
	newClient func(key string) (*klaviyo.Client, error)
}

// NewHandler validates cfg (outside production rules; the binary validates those) and builds the
// handler. hc is the HTTP client for Klaviyo (nil: a 30 s timeout client).
func NewHandler(cfg klaviyo.Config, db *sqlx.DB, hc *http.Client, log *slog.Logger) (*Handler, error) {
	if err := cfg.Validate(false); err != nil {
		return nil, err
	}
	if db == nil {
		return nil, errors.New("emailsync: db is required")
	}
	sealer, err := cfg.Sealer()
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &Handler{cfg: cfg, store: runStore{db}, sealer: sealer, http: hc, log: log}
	h.newClient = func(key string) (*klaviyo.Client, error) { return klaviyo.New(cfg.KlaviyoBaseURL, key, hc) }
	return h, nil
}

// ProcessTask syncs the run's store page by page from the run's cursor. A finished run is left as
// it is (Asynq may deliver twice). Klaviyo refusing the key, list or payload fails the run with
// Klaviyo's message and is not retried; other failures are returned for Asynq to retry, and the
// run is marked failed when no retry is left.
func (h *Handler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	p, err := parsePayload(t)
	if err != nil {
		return err
	}
	run, err := h.store.get(ctx, p.RunID)
	if errors.Is(err, ErrNoRun) {
		return fmt.Errorf("sync run %d: %w", p.RunID, asynq.SkipRetry)
	}
	if err != nil {
		return err
	}
	if run.Status == tasks.SyncDone || run.Status == tasks.SyncFailed {
		return nil
	}
	err = h.sync(ctx, run)
	switch {
	case err == nil:
		return h.store.finish(ctx, run.ID, tasks.SyncDone, "")
	case errors.Is(err, klaviyo.ErrRefused) || errors.Is(err, ErrNotConnected) || errors.Is(err, klaviyo.ErrUnsealable):
		h.log.Warn("email sync failed", "run_id", run.ID, "store_id", run.StoreID, "err", err)
		if ferr := h.store.finish(ctx, run.ID, tasks.SyncFailed, userMessage(err)); ferr != nil {
			return ferr
		}
		return fmt.Errorf("sync run %d: %w: %w", run.ID, err, asynq.SkipRetry)
	case ctx.Err() == nil && queue.LastAttempt(ctx):
		// The task's context is still alive, so the run can be marked on the way out.
		if ferr := h.store.finish(ctx, run.ID, tasks.SyncFailed, userMessage(err)); ferr != nil {
			return errors.Join(err, ferr)
		}
	}
	return err
}

// userMessage is what the settings screen shows of a failed run.
func userMessage(err error) string {
	var apiErr *klaviyo.APIError
	switch {
	case errors.As(err, &apiErr):
		return "Klaviyo: " + apiErr.Message
	case errors.Is(err, ErrNotConnected):
		return "Connect Klaviyo before syncing profiles."
	case errors.Is(err, klaviyo.ErrUnsealable):
		return "The stored Klaviyo key cannot be read. Please enter it again."
	}
	return "The sync stopped: Klaviyo could not be reached. Please try again."
}

func (h *Handler) sync(ctx context.Context, run Run) error {
	conn, err := h.store.connection(ctx, run.StoreID)
	if err != nil {
		return err
	}
	key, err := h.sealer.Open(run.StoreID, conn.Sealed)
	if err != nil {
		return err
	}
	client, err := h.newClient(key)
	if err != nil {
		return err
	}
	if run, err = h.store.start(ctx, run); err != nil {
		return fmt.Errorf("start sync run %d: %w", run.ID, err)
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		page, err := h.store.page(ctx, run.StoreID, run.Cursor, h.cfg.PageSize)
		if err != nil {
			return fmt.Errorf("read subscribers of store %d: %w", run.StoreID, err)
		}
		if len(page) == 0 {
			return nil
		}
		profiles := make([]klaviyo.Profile, len(page))
		for i, s := range page {
			profiles[i] = klaviyo.Profile{Email: s.Email, FirstName: s.FirstName, LastName: s.LastName}
		}
		if _, err := client.ImportProfiles(ctx, conn.ListID, profiles); err != nil {
			return fmt.Errorf("import %d profiles after subscriber %d: %w", len(page), run.Cursor, err)
		}
		next := page[len(page)-1].ID
		// The page is with Klaviyo: record it even if the task's context ended meanwhile.
		if err := h.store.advance(context.WithoutCancel(ctx), run.ID, run.Cursor, next, len(page)); err != nil {
			return fmt.Errorf("record progress of sync run %d: %w", run.ID, err)
		}
		run.Cursor = next
	}
}
