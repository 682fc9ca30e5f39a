package imageproxy

import (
	"fmt"
	"math"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/ratelimit"
)

// msgRateLimitedPattern is the 429 answer's message, with the seconds to wait.
const msgRateLimitedPattern = "Too many image requests. Please try again in %d seconds."

// rateLimit counts the proxy's requests per client and per account.
type rateLimit struct{ w *ratelimit.Window }

// limited answers 429 with Retry-After when key has used up limit; nil lets the request through.
func (r *rateLimit) limited(c echo.Context, key string, limit int64) error {
	wait, err := r.w.Take(c.Request().Context(), key, 1, limit)
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
