package imageproxy

import (
	"container/list"
	"sync"
)

// entry is one servable answer: an original or a thumbnail.
type entry struct {
	body        []byte
	contentType string
	etag        string
}

func (e *entry) size() int64 { return int64(len(e.body)+len(e.contentType)+len(e.etag)) + 64 }

// lru is a byte-bounded least-recently-used cache. Entries bigger than an eighth of the budget are
// not kept, so one large image cannot flush everything else.
type lru struct {
	mu    sync.Mutex
	max   int64
	used  int64
	order *list.List // front is most recent; values are *lruItem
	items map[string]*list.Element
}

type lruItem struct {
	key string
	e   *entry
}

func newLRU(max int64) *lru {
	return &lru{max: max, order: list.New(), items: map[string]*list.Element{}}
}

func (c *lru) get(key string) (*entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*lruItem).e, true
}

func (c *lru) add(key string, e *entry) {
	n := e.size() + int64(len(key))
	if n > c.max/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		c.used -= el.Value.(*lruItem).e.size() + int64(len(key))
		c.order.Remove(el)
	}
	c.items[key] = c.order.PushFront(&lruItem{key: key, e: e})
	c.used += n
	for c.used > c.max {
		el := c.order.Back()
		it := el.Value.(*lruItem)
		c.order.Remove(el)
		delete(c.items, it.key)
		c.used -= it.e.size() + int64(len(it.key))
	}
}
