package queue

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// Asynq (v0.26) hands a dead server's tasks out again late: a running task holds a 30 s lease that
// its server's heartbeat renews every 5 s, and Asynq's recoverer looks once a minute for leases that
// expired more than 30 s ago, then schedules the task after the retry delay (15 s and more). A task
// whose process was killed thus ran again 83 to 98 s later, none of it configurable. Rescue notices
// sooner, from what Asynq keeps in Redis:
//
//   - each live server lists its running tasks under a key that expires 10 s after its last
//     heartbeat (Inspector.Servers reads them);
//   - each running task's lease is renewed to 30 s ahead at every heartbeat.
//
// A task whose lease was last renewed more than orphanAfter ago and that no live server lists is a
// dead server's: Rescue puts it back at the head of its queue, as Asynq does with the unfinished tasks
// of a server that stops gracefully. That is about 10 s after the kill (the dead server's list
// expiring), plus one RescueInterval.
const (
	// leaseDuration is Asynq's lease of a running task, renewed at each heartbeat (its rdb.LeaseDuration).
	leaseDuration = 30 * time.Second
	// orphanAfter is how long a lease must have gone unrenewed: twice the 5 s heartbeat, which also
	// covers a task started since its server last wrote its list.
	orphanAfter = 10 * time.Second
	// maxRescues is how often one task is rescued within rescueWindow. A task that kills its process
	// every time is then left to Asynq's recoverer, which counts each loss as a failed attempt, so the
	// task ends archived once its retries are spent instead of looping for ever.
	maxRescues   = 3
	rescueWindow = time.Hour
)

// rescueScript moves one task from active back to pending, if its lease is still stale (no server
// renewed it meanwhile) and it has been rescued fewer than maxRescues times; it returns 1 if it did.
//
//	KEYS[1] asynq:{q}:active  KEYS[2] asynq:{q}:lease  KEYS[3] asynq:{q}:pending
//	KEYS[4] asynq:{q}:t:<id>  KEYS[5] the task's rescue counter
//	ARGV[1] task id  ARGV[2] stale cutoff (unix s)  ARGV[3] maxRescues  ARGV[4] counter TTL (s)
var rescueScript = redis.NewScript(`
local lease = redis.call("ZSCORE", KEYS[2], ARGV[1])
if not lease or tonumber(lease) > tonumber(ARGV[2]) then return 0 end
if tonumber(redis.call("GET", KEYS[5]) or "0") >= tonumber(ARGV[3]) then return 0 end
if redis.call("LREM", KEYS[1], 0, ARGV[1]) == 0 then return 0 end
redis.call("ZREM", KEYS[2], ARGV[1])
redis.call("RPUSH", KEYS[3], ARGV[1])
redis.call("HSET", KEYS[4], "state", "pending")
redis.call("INCR", KEYS[5])
redis.call("EXPIRE", KEYS[5], ARGV[4])
return 1`)

// Rescue requeues, every cfg.RescueInterval until ctx ends, the running tasks of service s's queues
// that a dead server left behind (see rescueOrphans). Several processes may run it at once. It
// returns nil when ctx ends; a zero RescueInterval leaves dead servers' tasks to Asynq alone.
func Rescue(ctx context.Context, cfg Config, s Service, log *slog.Logger) error {
	if cfg.RescueInterval == 0 {
		<-ctx.Done()
		return nil
	}
	rdb := cfg.NewRedisClient()
	defer rdb.Close()
	insp := asynq.NewInspectorFromRedisClient(rdb)
	queues := make([]string, 0, len(weights))
	for q := range Queues(s) {
		queues = append(queues, q)
	}
	tick := time.NewTicker(cfg.RescueInterval)
	defer tick.Stop()
	failing := false
	for {
		n, err := rescueOrphans(ctx, rdb, insp, queues, time.Now())
		switch {
		case err != nil && !failing && ctx.Err() == nil:
			log.Warn("looking for tasks of dead servers", "err", err)
			failing = true
		case err == nil:
			failing = false
		}
		if n > 0 {
			log.Warn("requeued the tasks a dead server left running", "count", n)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// rescueOrphans requeues the tasks of queues that are active with a lease unrenewed since before
// now-orphanAfter and that no live server lists as running; it returns how many it requeued.
func rescueOrphans(ctx context.Context, rdb *redis.Client, insp *asynq.Inspector, queues []string, now time.Time) (int, error) {
	servers, err := insp.Servers()
	if err != nil {
		return 0, fmt.Errorf("list servers: %w", err)
	}
	running := map[string]bool{}
	for _, srv := range servers {
		for _, w := range srv.ActiveWorkers {
			running[w.Queue+"\x00"+w.TaskID] = true
		}
	}
	// A lease renewed at time r expires at r+leaseDuration: stale when that is at most this cutoff.
	cutoff := strconv.FormatInt(now.Add(leaseDuration-orphanAfter).Unix(), 10)
	rescued := 0
	for _, q := range queues {
		prefix := "asynq:{" + q + "}:"
		ids, err := rdb.ZRangeByScore(ctx, prefix+"lease", &redis.ZRangeBy{Min: "-inf", Max: cutoff}).Result()
		if err != nil {
			return rescued, fmt.Errorf("%s leases: %w", q, err)
		}
		for _, id := range ids {
			if running[q+"\x00"+id] {
				continue
			}
			keys := []string{prefix + "active", prefix + "lease", prefix + "pending", prefix + "t:" + id, "pressroom:rescued:{" + q + "}:" + id}
			n, err := rescueScript.Run(ctx, rdb, keys, id, cutoff, maxRescues, int(rescueWindow.Seconds())).Int()
			if err != nil {
				return rescued, fmt.Errorf("requeue %s task %s: %w", q, id, err)
			}
			rescued += n
		}
	}
	return rescued, nil
}
