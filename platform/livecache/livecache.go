package livecache

import (
	"sync"
	"time"
)

// Cache holds values of type V by key K, each until a time, while its channel is followed. Its
// Listening, Changed and Lost make it a database.Follower.
type Cache[K comparable, V any] struct {
	mu      sync.Mutex
	max     int
	live    bool
	gen     uint64
	entries map[K]entry[V]
	// concerns says whether a notification's payload concerns an entry, which is then dropped.
	concerns func(payload string, k K, v V) bool
}

type entry[V any] struct {
	v     V
	until time.Time
}

// Ticket is what Get answers on a miss, to hand to Put with the value then read from Postgres.
type Ticket uint64

// New is a cache of at most max entries (it empties itself when full) whose notifications drop the
// entries concerns reports.
func New[K comparable, V any](max int, concerns func(payload string, k K, v V) bool) *Cache[K, V] {
	return &Cache[K, V]{max: max, entries: map[K]entry[V]{}, concerns: concerns}
}

// Get is the value kept under k, if the channel is followed and the value is still within its time
// at now; on a miss, the ticket to Put the value read from Postgres with.
func (c *Cache[K, V]) Get(k K, now time.Time) (V, Ticket, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live {
		if e, ok := c.entries[k]; ok && now.Before(e.until) {
			return e.v, Ticket(c.gen), true
		}
	}
	var zero V
	return zero, Ticket(c.gen), false
}

// Put keeps v under k until then, unless a notification arrived or the channel was lost since Get
// answered t: v may then predate a change.
func (c *Cache[K, V]) Put(t Ticket, k K, v V, until time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live || c.gen != uint64(t) {
		return
	}
	if len(c.entries) >= c.max {
		clear(c.entries)
	}
	c.entries[k] = entry[V]{v: v, until: until}
}

// Listening starts serving: every change from now on will be notified. The cache starts empty.
func (c *Cache[K, V]) Listening() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.entries)
	c.live = true
}

// Lost stops serving until Listening: changes may go unnoticed meanwhile.
func (c *Cache[K, V]) Lost() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.entries)
	c.live = false
}

// Changed drops the entries payload concerns. The process making a change calls it too, so that its
// own next request does not wait for the notification.
func (c *Cache[K, V]) Changed(payload string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for k, e := range c.entries {
		if c.concerns(payload, k, e.v) {
			delete(c.entries, k)
		}
	}
}
