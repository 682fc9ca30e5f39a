// Package periodic runs a pass of housekeeping work now and then every interval, the way the worker's
// bulk reconciler and scheduler and the renderer's blob sweep run beside their task servers.
package periodic

import (
	"context"
	"log/slog"
	"time"
)

// Run runs pass at once and then every interval until ctx ends, logging a failed pass under failed
// and a pass that handled something under done with its count. It returns nil when ctx ends: a pass
// that fails is tried again at the next tick, never stopping the process.
func Run(ctx context.Context, interval time.Duration, log *slog.Logger, pass func(context.Context) (int, error), failed, done string) error {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		if n, err := pass(ctx); err != nil && ctx.Err() == nil {
			log.Error(failed, "err", err)
		} else if n > 0 {
			log.Info(done, "count", n)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}
