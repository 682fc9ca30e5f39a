package tasks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
)

// TypeBuildFeed builds a social feed's file (docs/social-feeds.md).
const TypeBuildFeed = "feeds:build"

// Feed formats: Google Merchant's RSS 2.0 with the g: namespace, and the Facebook catalogue's CSV.
const (
	FeedGoogle   = "google"
	FeedFacebook = "facebook"
)

// FeedFormats is every format, in the order screens list them.
var FeedFormats = []string{FeedGoogle, FeedFacebook}

// BuildFeedPayload is what a feed build carries: the feed and the change (its wanted_seq) it was
// queued for.
type BuildFeedPayload struct {
	FeedID int64 `json:"feed_id"`
	Seq    int64 `json:"seq"`
}

// NewBuildFeedJob builds the feed's file for change seq. The task id is the feed and the change, so
// a change is built once; a build that finds a later change built already does nothing.
func NewBuildFeedJob(feedID, seq int64) (queue.Job, error) {
	return queue.NewJob(queue.Job{
		Type: TypeBuildFeed, Queue: queue.Name(queue.Worker, queue.Default),
		TaskID:   "feed-build-" + strconv.FormatInt(feedID, 10) + "-" + strconv.FormatInt(seq, 10),
		MaxRetry: 5, Timeout: 10 * time.Minute,
	}, BuildFeedPayload{FeedID: feedID, Seq: seq})
}

// FeedExt is the file extension of a feed of format: xml for Google, csv for Facebook.
func FeedExt(format string) string {
	if format == FeedFacebook {
		return "csv"
	}
	return "xml"
}

// FeedContentType is the media type a feed of format is served with.
func FeedContentType(format string) string {
	if format == FeedFacebook {
		return "text/csv; charset=utf-8"
	}
	return "application/rss+xml; charset=utf-8"
}

// FeedKey is the blob key of a feed's file: feeds/{id}.{ext}, replaced whole by each build.
func FeedKey(feedID int64, format string) string {
	return "feeds/" + strconv.FormatInt(feedID, 10) + "." + FeedExt(format)
}

// FeedPath is where a store serves its feed, under the store's base: /feeds/{id}.{ext}.
func FeedPath(feedID int64, format string) string {
	return "/feeds/" + strconv.FormatInt(feedID, 10) + "." + FeedExt(format)
}

// qWantFeed counts a change of feed $1 that calls for a build, unless $2 is set and the feed's
// wanted_seq is no longer $2.
const qWantFeed = `UPDATE social_feeds SET wanted_seq = wanted_seq + 1, updated_at = now()
WHERE id = $1 AND ($2 = 0 OR wanted_seq = $2) RETURNING wanted_seq`

// QueueFeedBuild counts a change of feed id that calls for a build (its wanted_seq goes up) and
// queues the build through the outbox, in tx: the one way a build is asked for, by the seller's
// edits (bff) and by the catalogue changing (the worker's watch). With expect set, only a feed whose
// wanted_seq is still expect is queued. It answers the outbox row to dispatch after commit, 0 when
// nothing was queued.
func QueueFeedBuild(ctx context.Context, tx sqlx.ExtContext, id, expect int64) (int64, error) {
	var seq int64
	err := sqlx.GetContext(ctx, tx, &seq, qWantFeed, id, expect)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("queue feed %d: %w", id, err)
	}
	job, err := NewBuildFeedJob(id, seq)
	if err != nil {
		return 0, err
	}
	return outbox.Add(ctx, tx, job)
}
