package shop

import (
	"cmp"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// visitKey is one row of store_visits: the pages of a store (by its slug, as the address names it)
// opened from one class of device in an hour.
type visitKey struct {
	slug   string
	hour   time.Time
	device string
}

// visits counts the pages buyers open in memory and adds them to store_visits in batches (counter,
// docs/overview.md). A slug no store has is counted like any other and dropped when written.
type visits struct {
	*counter[visitKey, int]
}

// Bounds of the visit counts, as those of the keywords: a store has three rows an hour at most.
const (
	maxPendingVisits = 10_000
	flushAtVisits    = 1_000
)

// qAddVisits adds a batch of counts to their rows, the stores read by slug.
const qAddVisits = `
INSERT INTO store_visits (store_id, hour, device, visits)
SELECT s.id, v.hour, v.device, v.visits
FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::int[]) AS v (slug, hour, device, visits)
JOIN stores s ON s.slug = v.slug
ORDER BY s.id, v.hour, v.device
ON CONFLICT (store_id, hour, device) DO UPDATE SET visits = store_visits.visits + EXCLUDED.visits`

func newVisits(db *sqlx.DB, log *slog.Logger, every time.Duration) *visits {
	merge := func(older, newer int) int { return older + newer }
	compare := func(a, b visitKey) int {
		return cmp.Or(cmp.Compare(a.slug, b.slug), a.hour.Compare(b.hour), cmp.Compare(a.device, b.device))
	}
	write := func(ctx context.Context, keys []visitKey, counts []int) error {
		slugs, hours, devices := make([]string, len(keys)), make([]time.Time, len(keys)), make([]string, len(keys))
		n := make([]int64, len(keys))
		for i, key := range keys {
			slugs[i], hours[i], devices[i], n[i] = key.slug, key.hour, key.device, int64(counts[i])
		}
		_, err := db.ExecContext(ctx, qAddVisits, pq.Array(slugs), pq.Array(hours), pq.Array(devices), pq.Array(n))
		return err
	}
	return &visits{newCounter("store visits", log, every, maxPendingVisits, flushAtVisits, merge, compare, write)}
}

// record counts a page of the store slug opened by r's browser; robots are not visitors.
func (v *visits) record(slug string, r *http.Request) {
	device := deviceOf(r.UserAgent())
	if device == "" {
		return
	}
	v.add(visitKey{slug: slug, hour: time.Now().UTC().Truncate(time.Hour), device: device}, 1)
}

// deviceOf is the class of device a User-Agent names: tablet, mobile or desktop; "" for a robot
// or no User-Agent at all (docs/overview.md).
func deviceOf(ua string) string {
	ua = strings.ToLower(ua)
	switch {
	case ua == "" || strings.Contains(ua, "bot") || strings.Contains(ua, "crawl") || strings.Contains(ua, "spider"):
		return ""
	case strings.Contains(ua, "ipad") || strings.Contains(ua, "tablet") ||
		strings.Contains(ua, "android") && !strings.Contains(ua, "mobile"):
		return "tablet"
	case strings.Contains(ua, "mobi") || strings.Contains(ua, "iphone") || strings.Contains(ua, "android"):
		return "mobile"
	}
	return "desktop"
}
