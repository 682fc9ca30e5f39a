package feeds

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/periodic"
	"github.com/pressroom/pressroom/worker/tasks"
)

// qFingerprint is what a feed's catalogue looks like, in one line: the store's name and address,
// how many products it has and when the last of them, their campaigns, their mockups and the stock
// of their templates changed. A feed built from another fingerprint is out of date.
const qFingerprint = `
SELECT concat_ws('|', s.slug, s.name, s.currency, s.is_open, s.updated_at,
	(SELECT count(*) || ':' || coalesce(max(sp.updated_at)::text, '') || ':' || coalesce(max(c.updated_at)::text, '')
		FROM store_products sp JOIN campaigns c ON c.id = sp.campaign_id WHERE sp.store_id = s.id),
	(SELECT count(*) || ':' || coalesce(max(m.updated_at)::text, '')
		FROM campaign_mockups m JOIN store_products sp ON sp.product_id = m.product_id AND sp.store_id = s.id WHERE m.status = 'done'),
	(SELECT coalesce(max(h.changed_at)::text, '') FROM stock_status_changes h
		WHERE h.template_id IN (SELECT p.template_id FROM campaign_products p JOIN store_products sp ON sp.product_id = p.id AND sp.store_id = s.id)))
FROM stores s WHERE s.id = $1`

// Fingerprint is the fingerprint of store storeID's catalogue.
func Fingerprint(ctx context.Context, db sqlx.QueryerContext, storeID int64) (string, error) {
	var fp string
	if err := sqlx.GetContext(ctx, db, &fp, qFingerprint, storeID); err != nil {
		return "", fmt.Errorf("feed fingerprint of store %d: %w", storeID, err)
	}
	return fp, nil
}

// Watcher queues a build of each feed whose catalogue changed since its last build.
type Watcher struct {
	cfg   Config
	db    *sqlx.DB
	relay *outbox.Relay
	log   *slog.Logger
}

// NewWatcher checks its dependencies.
func NewWatcher(cfg Config, db *sqlx.DB, relay *outbox.Relay, log *slog.Logger) (*Watcher, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if db == nil || relay == nil {
		return nil, fmt.Errorf("feeds: db and relay are required")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Watcher{cfg: cfg, db: db, relay: relay, log: log}, nil
}

// Run checks every CheckInterval until ctx ends.
func (w *Watcher) Run(ctx context.Context) error {
	return periodic.Run(ctx, w.cfg.CheckInterval, w.log, w.Pass, "feed watch", "feed builds queued")
}

// qIdle are the feeds with no build pending, with the fingerprint of their last build.
const qIdle = `SELECT id, store_id, fingerprint, wanted_seq FROM social_feeds WHERE built_seq >= wanted_seq ORDER BY store_id, id`

// Pass compares every feed without a pending build with its catalogue and queues a build of those
// that changed, each in its own transaction; it answers how many it queued. A feed a seller changed
// meanwhile (its wanted_seq moved) is left to the build that change queued.
func (w *Watcher) Pass(ctx context.Context) (int, error) {
	var feeds []struct {
		ID          int64  `db:"id"`
		StoreID     int64  `db:"store_id"`
		Fingerprint string `db:"fingerprint"`
		WantedSeq   int64  `db:"wanted_seq"`
	}
	if err := w.db.SelectContext(ctx, &feeds, qIdle); err != nil {
		return 0, fmt.Errorf("feeds to watch: %w", err)
	}
	now := map[int64]string{}
	queued := 0
	for _, f := range feeds {
		fp, ok := now[f.StoreID]
		if !ok {
			var err error
			if fp, err = Fingerprint(ctx, w.db, f.StoreID); err != nil {
				return queued, err
			}
			now[f.StoreID] = fp
		}
		if fp == f.Fingerprint {
			continue
		}
		outboxID, err := queueBuild(ctx, w.db, f.ID, f.WantedSeq)
		if err != nil {
			return queued, err
		}
		if outboxID == 0 {
			continue
		}
		queued++
		if _, err := w.relay.Dispatch(ctx, outboxID); err != nil {
			w.log.Warn("feed build left for the relay", "feed", f.ID, "err", err)
		}
	}
	return queued, nil
}

// queueBuild asks for a build of feed id unless its wanted_seq moved from seq (a seller's change queued
// its own), committing it.
func queueBuild(ctx context.Context, db *sqlx.DB, id, seq int64) (int64, error) {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	outboxID, err := tasks.QueueFeedBuild(ctx, tx, id, seq)
	if err != nil || outboxID == 0 {
		return 0, err
	}
	return outboxID, tx.Commit()
}
