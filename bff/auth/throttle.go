package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// throttle counts failed logins per account and per client address in Redis, so every bff process
// sees the same counts.
type throttle struct {
	rdb        *redis.Client
	window     time.Duration
	maxAccount int64
	maxClient  int64
}

func accountKey(email string) string {
	h := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(email))))
	return "pressroom:login-failures:account:" + hex.EncodeToString(h[:16])
}

func clientKey(ip string) string { return "pressroom:login-failures:client:" + ip }

// blocked returns how long the caller must wait, or 0 when a login may be tried.
func (t *throttle) blocked(ctx context.Context, email, ip string) (time.Duration, error) {
	var wait time.Duration
	for _, k := range []struct {
		key string
		max int64
	}{{accountKey(email), t.maxAccount}, {clientKey(ip), t.maxClient}} {
		n, err := t.rdb.Get(ctx, k.key).Int64()
		if err == redis.Nil {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("read login throttle: %w", err)
		}
		if n >= k.max {
			ttl, err := t.rdb.TTL(ctx, k.key).Result()
			if err != nil {
				return 0, fmt.Errorf("read login throttle: %w", err)
			}
			wait = max(wait, ttl, time.Second)
		}
	}
	return wait, nil
}

// fail counts one failed login against the account and the client.
func (t *throttle) fail(ctx context.Context, email, ip string) error {
	_, err := t.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, key := range []string{accountKey(email), clientKey(ip)} {
			p.Incr(ctx, key)
			p.ExpireNX(ctx, key, t.window)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("count failed login: %w", err)
	}
	return nil
}

// succeed clears the account's failures; the client's stay, so one address cannot probe many
// accounts by logging into its own between guesses.
func (t *throttle) succeed(ctx context.Context, email string) error {
	return t.rdb.Del(ctx, accountKey(email)).Err()
}

// throttled answers 429 with Retry-After when the account key (an e-mail address, or a purpose and
// an address such as "reset:a@b.c") has used up its attempts; with ip, the client's count applies too.
func (s *Service) throttled(ctx context.Context, key, ip string) error {
	wait, err := s.throttle.blocked(ctx, key, ip)
	if err != nil {
		return err
	}
	if wait > 0 {
		return throttledError(wait)
	}
	return nil
}

// count adds one attempt against the account key only (e-mails sent), leaving the client's count,
// which is for guesses, alone.
func (t *throttle) count(ctx context.Context, key string) error {
	_, err := t.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, accountKey(key))
		p.ExpireNX(ctx, accountKey(key), t.window)
		return nil
	})
	if err != nil {
		return fmt.Errorf("count attempt: %w", err)
	}
	return nil
}
