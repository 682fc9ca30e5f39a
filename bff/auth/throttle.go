package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pressroom/pressroom/bff/envelope"
)

// MsgSignInUnavailable is the answer while the throttle's Redis cannot be reached: no guess is
// checked uncounted, so sign-in waits for it.
const MsgSignInUnavailable = "Sign-in is briefly unavailable. Please try again in a minute."

// throttle counts attempts in Redis, so every bff process sees the same counts. An attempt is counted
// before the work it guards (a password or code check, a hash, an e-mail), in one atomic step with
// the check of the limit, so a parallel burst gets no more tries than a sequence.
type throttle struct {
	rdb *redis.Client
	log *slog.Logger
	// down is set while Redis fails, so an outage is logged once, not per request.
	down atomic.Bool
}

// limit is one counter and the attempts it allows per window; the window starts at its first attempt.
type limit struct {
	key    string
	max    int64
	window time.Duration
}

// attemptScript counts one attempt against every key (KEYS[i]) unless one of them has reached its
// limit (ARGV[2i-1]); a key's window (ARGV[2i], milliseconds) starts at its first attempt. It answers
// 0 when the attempt was counted, else the milliseconds until the fullest key frees up.
var attemptScript = redis.NewScript(`
local wait = 0
for i, key in ipairs(KEYS) do
  local n = tonumber(redis.call('GET', key) or '0')
  if n >= tonumber(ARGV[2 * i - 1]) then
    local ttl = redis.call('PTTL', key)
    if ttl < 0 then
      redis.call('PEXPIRE', key, ARGV[2 * i])
      ttl = tonumber(ARGV[2 * i])
    end
    if ttl > wait then wait = ttl end
  end
end
if wait > 0 then return wait end
for i, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 then redis.call('PEXPIRE', key, ARGV[2 * i]) end
end
return 0
`)

// attempt counts one attempt against every limit, or none when one is used up; it returns how long
// to wait (0 when the attempt was counted and may go ahead).
func (t *throttle) attempt(ctx context.Context, limits ...limit) (time.Duration, error) {
	keys := make([]string, len(limits))
	args := make([]any, 0, 2*len(limits))
	for i, l := range limits {
		keys[i] = l.key
		args = append(args, l.max, l.window.Milliseconds())
	}
	ms, err := attemptScript.Run(ctx, t.rdb, keys, args...).Int64()
	if err != nil {
		return 0, t.unreachable(ctx, err)
	}
	t.reachable()
	if ms == 0 {
		return 0, nil
	}
	return max(time.Duration(ms)*time.Millisecond, time.Second), nil
}

// refund takes back the attempt counted against keys (the password was right).
func (t *throttle) refund(ctx context.Context, keys ...string) error {
	_, err := t.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, k := range keys {
			p.Decr(ctx, k)
		}
		return nil
	})
	if err != nil {
		return t.unreachable(ctx, err)
	}
	return nil
}

// clear forgets keys' attempts (a successful login clears the account's count).
func (t *throttle) clear(ctx context.Context, keys ...string) error {
	if err := t.rdb.Del(ctx, keys...).Err(); err != nil {
		return t.unreachable(ctx, err)
	}
	return nil
}

// unreachable turns a Redis failure into a 503 answer and logs the first failure of an outage.
func (t *throttle) unreachable(ctx context.Context, err error) error {
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return err
	}
	if t.down.CompareAndSwap(false, true) {
		t.log.Error("throttle: Redis unreachable; sign-in and account calls answer 503 until it is back", "err", err)
	}
	return envelope.Fail(http.StatusServiceUnavailable, MsgSignInUnavailable)
}

// reachable notes that Redis answers again, logging the end of an outage once.
func (t *throttle) reachable() {
	if t.down.CompareAndSwap(true, false) {
		t.log.Info("throttle: Redis reachable again")
	}
}

// accountKey is the counter of an account key: an e-mail address, or a purpose and an id or address
// such as "reset:a@b.c" or "tfa:7". Addresses are hashed so keys do not hold them.
func accountKey(key string) string {
	h := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(key))))
	return "pressroom:attempts:account:" + hex.EncodeToString(h[:16])
}

// clientKey is the counter of guesses (passwords and codes) from one client address.
func clientKey(ip string) string { return "pressroom:attempts:client:" + ip }

// callKeys are the counters of an anonymous account call (register, forgot, reset) per client
// address and across all clients.
func callKeys(call, ip string) (client, global string) {
	return "pressroom:calls:" + call + ":client:" + ip, "pressroom:calls:" + call + ":all"
}
