package shop

import (
	"cmp"
	"context"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// keywordKey is one row of search_keywords: a store's query in an hour.
type keywordKey struct {
	store int64
	hour  time.Time
	query string
}

// keywordCount is what the searches of one key added since the last flush.
type keywordCount struct {
	searches, noResults, results int
}

// keywords counts the store searches in memory and adds them to search_keywords in batches
// (counter, docs/search-keywords.md).
type keywords struct {
	*counter[keywordKey, keywordCount]
}

// Bounds of the keyword counts: how many different queries wait for a flush, and how many make
// one start at once instead of at the next tick.
const (
	maxPendingKeywords = 10_000
	flushAtKeywords    = 1_000
)

func newKeywords(db *sqlx.DB, log *slog.Logger, every time.Duration) *keywords {
	merge := func(older, newer keywordCount) keywordCount {
		return keywordCount{searches: older.searches + newer.searches, noResults: older.noResults + newer.noResults,
			results: newer.results}
	}
	compare := func(a, b keywordKey) int {
		return cmp.Or(cmp.Compare(a.store, b.store), a.hour.Compare(b.hour), cmp.Compare(a.query, b.query))
	}
	write := func(ctx context.Context, keys []keywordKey, counts []keywordCount) error {
		stores, hours, queries := make([]int64, len(keys)), make([]time.Time, len(keys)), make([]string, len(keys))
		searches, noResults, results := make([]int64, len(keys)), make([]int64, len(keys)), make([]int64, len(keys))
		for i, key := range keys {
			c := counts[i]
			stores[i], hours[i], queries[i] = key.store, key.hour, key.query
			searches[i], noResults[i], results[i] = int64(c.searches), int64(c.noResults), int64(c.results)
		}
		_, err := db.ExecContext(ctx, qAddKeywords, pq.Array(stores), pq.Array(hours), pq.Array(queries),
			pq.Array(searches), pq.Array(noResults), pq.Array(results))
		return err
	}
	return &keywords{newCounter("search keywords", log, every, maxPendingKeywords, flushAtKeywords, merge, compare, write)}
}

// record counts one search of store for query (normalized), which found results products.
func (k *keywords) record(store int64, query string, results int) {
	c := keywordCount{searches: 1, results: results}
	if results == 0 {
		c.noResults = 1
	}
	k.add(keywordKey{store: store, hour: time.Now().UTC().Truncate(time.Hour), query: query}, c)
}

// qAddKeywords adds a batch of counts to their rows.
const qAddKeywords = `
INSERT INTO search_keywords (store_id, hour, query, searches, no_results, results)
SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::int[], $5::int[], $6::int[])
ON CONFLICT (store_id, hour, query) DO UPDATE SET searches = search_keywords.searches + EXCLUDED.searches,
	no_results = search_keywords.no_results + EXCLUDED.no_results, results = EXCLUDED.results`
