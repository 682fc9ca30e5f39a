package shop

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// hostCache keeps, for the page cache's time, which store a custom domain serves (or that it
// serves none), so that a page served from the page cache costs no database query on a custom
// domain either. A domain whose verification is lost stops serving within that time. Entries are
// bounded: once full, the expired ones are swept, and if none has expired the host is asked of the
// database without being kept (random host names cannot grow it).
type hostCache struct {
	ttl   time.Duration
	mu    sync.Mutex
	hosts map[string]cachedHost
	group singleflight.Group
}

type cachedHost struct {
	slug    string // "" when the host is no store's verified domain
	expires time.Time
}

// maxCachedHosts bounds the cache.
const maxCachedHosts = 4096

// newHostCache keeps answers for ttl; 0 or less keeps nothing (nil: every request asks).
func newHostCache(ttl time.Duration) *hostCache {
	if ttl <= 0 {
		return nil
	}
	return &hostCache{ttl: ttl, hosts: map[string]cachedHost{}}
}

// slug is the slug of the store whose verified domain host is, "" for none, from the cache or from
// look (one lookup at a time per host).
func (c *hostCache) slug(ctx context.Context, host string, look func(context.Context, string) (string, error)) (string, error) {
	if c == nil {
		return look(ctx, host)
	}
	now := time.Now()
	c.mu.Lock()
	e, ok := c.hosts[host]
	c.mu.Unlock()
	if ok && now.Before(e.expires) {
		return e.slug, nil
	}
	v, err, _ := c.group.Do(host, func() (any, error) { return look(ctx, host) })
	if err != nil {
		return "", err
	}
	slug := v.(string)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.hosts) >= maxCachedHosts {
		for h, old := range c.hosts {
			if !now.Before(old.expires) {
				delete(c.hosts, h)
			}
		}
	}
	if len(c.hosts) < maxCachedHosts {
		c.hosts[host] = cachedHost{slug: slug, expires: now.Add(c.ttl)}
	}
	return slug, nil
}
