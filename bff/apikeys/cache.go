package apikeys

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/platform/livecache"
)

// Live keys are kept per process by secret hash in a livecache following the auth_changed
// notifications (docs/performance.md, api-v1): the triggers send "k:<key id>" when a key is revoked
// or changed and "u:<user id>" when its account changes (a suspension), and the keys they concern
// are dropped as the notification arrives. While the notifications are not followed, each request
// reads its key from Postgres.

// keyCacheTTL bounds how long a key is served from the cache without reading it again.
const keyCacheTTL = time.Minute

func newKeyCache() *livecache.Cache[string, liveKey] { return livecache.New(10000, keyConcerned) }

// keyConcerned says whether a notification concerns a cached key: "k:<key id>" that key,
// "u:<user id>" the keys of that account, "s:<session id>" none; anything else, every key.
func keyConcerned(payload string, _ string, k liveKey) bool {
	kind, num, _ := strings.Cut(payload, ":")
	id, err := strconv.ParseInt(num, 10, 64)
	switch {
	case err != nil:
		return true
	case kind == "k":
		return k.KeyID == id
	case kind == "u":
		return k.SellerID == id
	case kind == "s":
		return false
	}
	return true
}

// Changes is what follows the notifications of the key and account triggers (auth_changed, on the
// connection auth.Service.FollowChanges listens with), so that keys are served from the process
// cache while it can.
func (s *Service) Changes() database.Follower { return s.keys }

// live is the caller of a secret's hash, from the process cache or Postgres.
func (s *Service) live(ctx context.Context, hash []byte) (Caller, error) {
	now := time.Now()
	k, ticket, ok := s.keys.Get(string(hash), now)
	if ok {
		return k.Caller, nil
	}
	k, err := s.store.live(ctx, hash)
	if err != nil {
		return Caller{}, err
	}
	until := now.Add(keyCacheTTL)
	if k.ExpiresAt != nil && k.ExpiresAt.Before(until) {
		until = *k.ExpiresAt
	}
	s.keys.Put(ticket, string(hash), k, until)
	return k.Caller, nil
}
