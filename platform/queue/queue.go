package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/pressroom/pressroom/platform/env"
)

// Config says how to reach Redis and how servers poll it.
type Config struct {
	// RedisAddr is host:port of Redis (PRESSROOM_REDIS_ADDR, default 127.0.0.1:6379).
	RedisAddr string
	// RedisPassword authenticates to Redis (PRESSROOM_REDIS_PASSWORD, default empty: no AUTH).
	RedisPassword string
	// RedisDB is the logical database (PRESSROOM_REDIS_DB, default 0).
	RedisDB int
	// CheckInterval is how often an idle server looks for new tasks (PRESSROOM_QUEUE_CHECK_INTERVAL,
	// default 20ms; Asynq's own 1s default adds up to a second of latency to an idle service).
	CheckInterval time.Duration
	// ShutdownTimeout is how long a stopping server lets running tasks finish before they are
	// handed back to the queue (PRESSROOM_QUEUE_SHUTDOWN_TIMEOUT, default 30s).
	ShutdownTimeout time.Duration
	// RescueInterval is how often a worker or renderer looks for the running tasks of a dead server
	// (one killed, or cut off) to hand them out again (PRESSROOM_QUEUE_RESCUE_INTERVAL, default 1s;
	// zero leaves them to Asynq's own recoverer, which takes a minute and a half). See Rescue.
	RescueInterval time.Duration
}

// DefaultConfig is a local Redis with a 20ms check interval and a 1s rescue interval.
func DefaultConfig() Config {
	return Config{RedisAddr: "127.0.0.1:6379", CheckInterval: 20 * time.Millisecond, ShutdownTimeout: 30 * time.Second,
		RescueInterval: time.Second}
}

// LoadConfig reads the PRESSROOM_REDIS_* and PRESSROOM_QUEUE_* variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.String(&cfg.RedisAddr, "PRESSROOM_REDIS_ADDR")
	r.String(&cfg.RedisPassword, "PRESSROOM_REDIS_PASSWORD")
	r.Int(&cfg.RedisDB, "PRESSROOM_REDIS_DB")
	r.Duration(&cfg.CheckInterval, "PRESSROOM_QUEUE_CHECK_INTERVAL")
	r.Duration(&cfg.ShutdownTimeout, "PRESSROOM_QUEUE_SHUTDOWN_TIMEOUT")
	r.Duration(&cfg.RescueInterval, "PRESSROOM_QUEUE_RESCUE_INTERVAL")
	return cfg, r.Err()
}

// Validate reports the first setting that cannot work, naming its variable.
func (c Config) Validate() error {
	switch {
	case c.RedisAddr == "":
		return errors.New("PRESSROOM_REDIS_ADDR is empty: want host:port")
	case c.RedisDB < 0 || c.RedisDB > 15:
		return errors.New("PRESSROOM_REDIS_DB: want 0 to 15")
	case c.CheckInterval <= 0:
		return errors.New("PRESSROOM_QUEUE_CHECK_INTERVAL must be positive")
	case c.ShutdownTimeout < 0:
		return errors.New("PRESSROOM_QUEUE_SHUTDOWN_TIMEOUT must not be negative")
	case c.RescueInterval < 0:
		return errors.New("PRESSROOM_QUEUE_RESCUE_INTERVAL must not be negative")
	}
	return nil
}

// RedisOpt is the Asynq connection option.
func (c Config) RedisOpt() asynq.RedisClientOpt {
	return asynq.RedisClientOpt{Addr: c.RedisAddr, Password: c.RedisPassword, DB: c.RedisDB}
}

// NewRedisClient opens a plain Redis client on the same server, for counters such as login throttling.
func (c Config) NewRedisClient() *redis.Client {
	return redis.NewClient(&redis.Options{Addr: c.RedisAddr, Password: c.RedisPassword, DB: c.RedisDB})
}

// Service names a consumer of tasks; each has its own queues.
type Service string

// The services that consume tasks.
const (
	Worker   Service = "worker"
	Renderer Service = "renderer"
)

// Priority is a queue's class of work.
type Priority string

// The priorities, highest first.
const (
	Interactive Priority = "interactive"
	Default     Priority = "default"
	Bulk        Priority = "bulk"
)

var weights = map[Priority]int{Interactive: 6, Default: 3, Bulk: 1}

// Name is the Asynq queue of a service's priority, e.g. "renderer.interactive".
func Name(s Service, p Priority) string { return string(s) + "." + string(p) }

// Queues is the weighted queue set a service's server consumes.
func Queues(s Service) map[string]int {
	q := make(map[string]int, len(weights))
	for p, w := range weights {
		q[Name(s, p)] = w
	}
	return q
}

// Job is a task described as data: what to run, with its payload (ids, never pixels) and how it is
// queued. Task constructors return a Job so it can be stored in the outbox and enqueued later
// exactly as built.
type Job struct {
	Type    string
	Payload []byte
	Queue   string
	// TaskID, when set, makes Asynq refuse a duplicate while the first is still known to it.
	TaskID   string
	MaxRetry int
	Timeout  time.Duration
}

// NewJob is j carrying payload encoded as JSON: how every task constructor fills in its Job.
func NewJob(j Job, payload any) (Job, error) {
	b, err := json.Marshal(payload)
	if err != nil {
		return Job{}, fmt.Errorf("%s payload: %w", j.Type, err)
	}
	j.Payload = b
	return j, nil
}

// ParsePayload decodes t's JSON payload. One that does not decode, or that valid refuses, fails
// with asynq.SkipRetry: no retry can mend it.
func ParsePayload[P any](t *asynq.Task, valid func(P) bool) (P, error) {
	var p P
	if err := json.Unmarshal(t.Payload(), &p); err != nil || !valid(p) {
		var zero P
		return zero, fmt.Errorf("malformed %s payload %q: %w", t.Type(), t.Payload(), asynq.SkipRetry)
	}
	return p, nil
}

// LastAttempt reports whether the running task has no retry left, so a handler records that it
// gave up instead of leaving its row in progress.
func LastAttempt(ctx context.Context) bool {
	retried, ok1 := asynq.GetRetryCount(ctx)
	limit, ok2 := asynq.GetMaxRetry(ctx)
	return ok1 && ok2 && retried >= limit
}

// Task builds the Asynq task with the Job's options.
func (j Job) Task() *asynq.Task {
	opts := []asynq.Option{asynq.Queue(j.Queue), asynq.MaxRetry(j.MaxRetry)}
	if j.TaskID != "" {
		opts = append(opts, asynq.TaskID(j.TaskID))
	}
	if j.Timeout > 0 {
		opts = append(opts, asynq.Timeout(j.Timeout))
	}
	return asynq.NewTask(j.Type, j.Payload, opts...)
}

// Enqueue hands the Job to Redis. A TaskID Asynq already holds counts as success: the job is there.
func (j Job) Enqueue(ctx context.Context, c *asynq.Client) error {
	_, err := c.EnqueueContext(ctx, j.Task())
	if errors.Is(err, asynq.ErrTaskIDConflict) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("enqueue %s: %w", j.Type, err)
	}
	return nil
}

// NewServer builds the Asynq server of a service with its weighted queues.
func NewServer(cfg Config, s Service, concurrency int, log *slog.Logger) *asynq.Server {
	return asynq.NewServer(cfg.RedisOpt(), asynq.Config{
		Concurrency:       concurrency,
		Queues:            Queues(s),
		TaskCheckInterval: cfg.CheckInterval,
		ShutdownTimeout:   cfg.ShutdownTimeout,
		Logger:            asynqLogger{log.With("component", "asynq")},
		LogLevel:          asynq.WarnLevel,
	})
}

// Logging logs every task with its type, id, queue, duration and outcome.
func Logging(log *slog.Logger) asynq.MiddlewareFunc {
	return func(next asynq.Handler) asynq.Handler {
		return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
			start := time.Now()
			id, _ := asynq.GetTaskID(ctx)
			q, _ := asynq.GetQueueName(ctx)
			retry, _ := asynq.GetRetryCount(ctx)
			err := next.ProcessTask(ctx, t)
			attrs := []any{"type", t.Type(), "task_id", id, "queue", q, "retry", retry, "took", time.Since(start)}
			if err != nil {
				log.Error("task failed", append(attrs, "err", err)...)
			} else {
				log.Info("task done", attrs...)
			}
			return err
		})
	}
}

// asynqLogger adapts slog to Asynq's logger interface.
type asynqLogger struct{ log *slog.Logger }

func (l asynqLogger) Debug(args ...any) { l.log.Debug(fmt.Sprint(args...)) }
func (l asynqLogger) Info(args ...any)  { l.log.Info(fmt.Sprint(args...)) }
func (l asynqLogger) Warn(args ...any)  { l.log.Warn(fmt.Sprint(args...)) }
func (l asynqLogger) Error(args ...any) { l.log.Error(fmt.Sprint(args...)) }
func (l asynqLogger) Fatal(args ...any) { l.log.Error(fmt.Sprint(args...)) }

// Serve runs srv with handler until ctx ends, then stops taking tasks and waits for running ones
// up to the configured shutdown timeout; unfinished tasks go back to their queue.
func Serve(ctx context.Context, srv *asynq.Server, handler asynq.Handler) error {
	if err := srv.Start(handler); err != nil {
		return fmt.Errorf("start task server: %w", err)
	}
	<-ctx.Done()
	srv.Shutdown()
	return nil
}
