package mockup

import (
	"container/list"
	"context"
	"errors"
	"sync"
)

// cacheKey names one prepared template: the template (id and fingerprint) at one output size.
type cacheKey struct {
	id, fingerprint string
	size            int
}

// cache keeps prepared templates, least recently used first out, within a byte budget. It is safe for
// concurrent use, and concurrent gets of the same key prepare it once: the others wait for that result.
// Failed preparations are not kept, so a template whose file was missing is read again next time.
type cache struct {
	budget int64

	mu      sync.Mutex
	used    int64
	lru     *list.List // of *cacheEntry, most recent first
	entries map[cacheKey]*list.Element
	pending map[cacheKey]*pendingPrep
}

type cacheEntry struct {
	key cacheKey
	p   *prepared
}

// pendingPrep is a preparation under way; done is closed when p or err is set.
type pendingPrep struct {
	done chan struct{}
	p    *prepared
	err  error
}

func newCache(budget int64) *cache {
	return &cache{budget: budget, lru: list.New(), entries: map[cacheKey]*list.Element{}, pending: map[cacheKey]*pendingPrep{}}
}

// get returns the prepared template for key, calling prepare when it is neither kept nor being prepared.
// A waiter whose ctx ends stops waiting; the preparation goes on for the others.
func (c *cache) get(ctx context.Context, key cacheKey, prepare func() (*prepared, error)) (*prepared, error) {
	c.mu.Lock()
	if el, ok := c.entries[key]; ok {
		c.lru.MoveToFront(el)
		p := el.Value.(*cacheEntry).p
		c.mu.Unlock()
		return p, nil
	}
	if pp, ok := c.pending[key]; ok {
		c.mu.Unlock()
		select {
		case <-pp.done:
			if pp.err != nil && ctx.Err() == nil && (errors.Is(pp.err, context.Canceled) || errors.Is(pp.err, context.DeadlineExceeded)) {
				// the render that was preparing it gave up; this one has not
				return c.get(ctx, key, prepare)
			}
			return pp.p, pp.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	pp := &pendingPrep{done: make(chan struct{})}
	c.pending[key] = pp
	c.mu.Unlock()

	pp.p, pp.err = prepare()

	c.mu.Lock()
	delete(c.pending, key)
	if pp.err == nil {
		c.add(key, pp.p)
	}
	c.mu.Unlock()
	close(pp.done)
	return pp.p, pp.err
}

// add keeps p unless it alone exceeds the budget, evicting the least recently used entries to make room.
// c.mu is held.
func (c *cache) add(key cacheKey, p *prepared) {
	if p.bytes > c.budget {
		return
	}
	for c.used+p.bytes > c.budget {
		last := c.lru.Back()
		e := last.Value.(*cacheEntry)
		c.lru.Remove(last)
		delete(c.entries, e.key)
		c.used -= e.p.bytes
	}
	c.entries[key] = c.lru.PushFront(&cacheEntry{key: key, p: p})
	c.used += p.bytes
}

// stats returns how many templates are kept and their bytes.
func (c *cache) stats() (entries int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len(), c.used
}
