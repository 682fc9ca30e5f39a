package shop

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
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

// keywords counts the store searches in memory and adds them to search_keywords in one statement
// per flush, so a search costs its page a map update, not a write (docs/search-keywords.md). The
// counts held are bounded: past maxKeys different queries a new one waits for the next flush and is
// dropped meanwhile (and logged), while known ones keep counting. Several storefront processes add
// to the same rows; each flush writes its rows in key order, so two never wait on each other.
type keywords struct {
	db      *sqlx.DB
	log     *slog.Logger
	every   time.Duration
	maxKeys int
	full    chan struct{}

	mu      sync.Mutex
	pending map[keywordKey]keywordCount
	dropped int
}

// Bounds of the keyword counts: how many different queries wait for a flush, and how many make
// one start at once instead of at the next tick.
const (
	maxPendingKeywords = 10_000
	flushAtKeywords    = 1_000
)

func newKeywords(db *sqlx.DB, log *slog.Logger, every time.Duration) *keywords {
	return &keywords{db: db, log: log, every: every, maxKeys: maxPendingKeywords, full: make(chan struct{}, 1),
		pending: map[keywordKey]keywordCount{}}
}

// record counts one search of store for query (normalized), which found results products.
func (k *keywords) record(store int64, query string, results int) {
	key := keywordKey{store: store, hour: time.Now().UTC().Truncate(time.Hour), query: query}
	k.mu.Lock()
	c, known := k.pending[key]
	if !known && len(k.pending) >= k.maxKeys {
		k.dropped++
		k.mu.Unlock()
		return
	}
	c.searches++
	if results == 0 {
		c.noResults++
	}
	c.results = results
	k.pending[key] = c
	n := len(k.pending)
	k.mu.Unlock()
	if n >= flushAtKeywords {
		select {
		case k.full <- struct{}{}:
		default:
		}
	}
}

// qAddKeywords adds a batch of counts to their rows.
const qAddKeywords = `
INSERT INTO search_keywords (store_id, hour, query, searches, no_results, results)
SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::int[], $5::int[], $6::int[])
ON CONFLICT (store_id, hour, query) DO UPDATE SET searches = search_keywords.searches + EXCLUDED.searches,
	no_results = search_keywords.no_results + EXCLUDED.no_results, results = EXCLUDED.results`

// flush writes the counts held so far. Counts that cannot be written (the database away) are kept
// for the next flush, within the bound.
func (k *keywords) flush(ctx context.Context) error {
	k.mu.Lock()
	batch, dropped := k.pending, k.dropped
	k.pending, k.dropped = map[keywordKey]keywordCount{}, 0
	k.mu.Unlock()
	if dropped > 0 {
		k.log.Warn("search keywords dropped: too many different searches between two flushes", "dropped", dropped)
	}
	if len(batch) == 0 {
		return nil
	}
	keys := make([]keywordKey, 0, len(batch))
	for key := range batch {
		keys = append(keys, key)
	}
	slices.SortFunc(keys, func(a, b keywordKey) int {
		return cmp.Or(cmp.Compare(a.store, b.store), a.hour.Compare(b.hour), cmp.Compare(a.query, b.query))
	})
	stores, hours, queries := make([]int64, len(keys)), make([]time.Time, len(keys)), make([]string, len(keys))
	searches, noResults, results := make([]int64, len(keys)), make([]int64, len(keys)), make([]int64, len(keys))
	for i, key := range keys {
		c := batch[key]
		stores[i], hours[i], queries[i] = key.store, key.hour, key.query
		searches[i], noResults[i], results[i] = int64(c.searches), int64(c.noResults), int64(c.results)
	}
	_, err := k.db.ExecContext(ctx, qAddKeywords, pq.Array(stores), pq.Array(hours), pq.Array(queries),
		pq.Array(searches), pq.Array(noResults), pq.Array(results))
	if err != nil {
		k.putBack(batch)
		return fmt.Errorf("add search keywords: %w", err)
	}
	return nil
}

// putBack merges counts a flush could not write into those held since.
func (k *keywords) putBack(batch map[keywordKey]keywordCount) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for key, c := range batch {
		now, known := k.pending[key]
		if !known && len(k.pending) >= k.maxKeys {
			k.dropped += c.searches
			continue
		}
		now.searches += c.searches
		now.noResults += c.noResults
		if !known {
			now.results = c.results
		}
		k.pending[key] = now
	}
}

// run flushes every interval, and at once when many queries wait, until ctx ends; then it flushes
// what is left.
func (k *keywords) run(ctx context.Context) error {
	t := time.NewTicker(k.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			final, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
			return k.flush(final)
		case <-t.C:
		case <-k.full:
		}
		if err := k.flush(ctx); err != nil && ctx.Err() == nil {
			k.log.Warn("search keywords not written yet", "err", err)
		}
	}
}
