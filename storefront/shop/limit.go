package shop

import (
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// limiter caps the posts (cart, checkout, payment) one client address makes: a token bucket per
// address, refilled at perMinute a minute with a burst of perMinute. It is per process, so N
// storefront processes behind a balancer allow up to N times as much; idle buckets are dropped.
type limiter struct {
	perMinute int
	mu        sync.Mutex
	clients   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	tokens *rate.Limiter
	seen   time.Time
}

func newLimiter(perMinute int) *limiter {
	return &limiter{perMinute: perMinute, clients: map[string]*bucket{}, lastSweep: time.Now()}
}

// allow takes one token for addr, or says how long until one is there.
func (l *limiter) allow(addr string, now time.Time) (bool, time.Duration) {
	if l.perMinute <= 0 {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) > time.Minute {
		for k, c := range l.clients {
			if now.Sub(c.seen) > 2*time.Minute {
				delete(l.clients, k)
			}
		}
		l.lastSweep = now
	}
	c, ok := l.clients[addr]
	if !ok {
		c = &bucket{tokens: rate.NewLimiter(rate.Limit(float64(l.perMinute)/60), l.perMinute)}
		l.clients[addr] = c
	}
	c.seen = now
	r := c.tokens.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// clientAddr is the connection's address: the storefront does not trust forwarded headers.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// limitClient refuses a client's posts and searches (rest is the path under the store's base) beyond
// the limit with 429 and Retry-After: both cost queries and writes no CDN takes off us.
func (s *Server) limitClient(w http.ResponseWriter, r *http.Request, rest string) bool {
	if r.Method != http.MethodPost && rest != "/search" {
		return true
	}
	ok, wait := s.limit.allow(clientAddr(r), time.Now())
	if ok {
		return true
	}
	w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
	w.Header().Set("Cache-Control", cachePrivate)
	http.Error(w, "Too many requests from your address. Please wait a minute and try again.", http.StatusTooManyRequests)
	return false
}
