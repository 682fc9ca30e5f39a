package imageproxy

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/redis/go-redis/v9"

	"github.com/pressroom/pressroom/bff/envelope"
)

// msgRateLimitedPattern is the 429 answer's message, with the seconds to wait.
const msgRateLimitedPattern = "Too many image requests. Please try again in %d seconds."

// rateLimit counts requests per key in fixed windows in Redis, so every bff process sees the same
// counts: a key's first request in a window starts the window's expiry.
type rateLimit struct {
	rdb    *redis.Client
	window time.Duration
}

// take counts one request against key and returns how long the caller must wait when key has
// made more than limit requests in its window; 0 lets the request through, as does a limit of 0.
func (r *rateLimit) take(ctx context.Context, key string, limit int64) (time.Duration, error) {
	if limit == 0 {
		return 0, nil
	}
	var n *redis.IntCmd
	var ttl *redis.DurationCmd
	_, err := r.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		n = p.Incr(ctx, key)
		p.ExpireNX(ctx, key, r.window)
		ttl = p.PTTL(ctx, key)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("count image proxy request: %w", err)
	}
	if n.Val() <= limit {
		return 0, nil
	}
	return max(ttl.Val(), time.Second), nil
}

// limited answers 429 with Retry-After when key has used up limit; nil lets the request through.
func (r *rateLimit) limited(c echo.Context, key string, limit int64) error {
	wait, err := r.take(c.Request().Context(), key, limit)
	if err != nil || wait == 0 {
		return err
	}
	secs := int(math.Ceil(wait.Seconds()))
	e := envelope.Fail(http.StatusTooManyRequests, fmt.Sprintf(msgRateLimitedPattern, secs))
	e.Header = http.Header{"Retry-After": []string{strconv.Itoa(secs)}}
	return e
}

// clientKey and accountKey are the Redis keys the proxy counts under.
func clientKey(ip string) string { return "pressroom:image-proxy:client:" + ip }
func accountKey(userID int64) string {
	return "pressroom:image-proxy:account:" + strconv.FormatInt(userID, 10)
}
