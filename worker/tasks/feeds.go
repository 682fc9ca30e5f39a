package tasks

import (
	"strconv"
	"time"

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
