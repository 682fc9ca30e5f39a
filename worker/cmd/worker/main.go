// Command worker runs Pressroom's background work that is not rendering: bulk records and
// campaign jobs, e-mail sync, scheduled jobs, and the outbox relay.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/logging"
	"github.com/pressroom/pressroom/worker/app"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	cfg, err := app.LoadConfig(env.OS)
	if err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	a, err := app.New(ctx, cfg, logging.New(cfg.Log, os.Stderr).With("service", "worker"))
	if err != nil {
		return err
	}
	defer a.Close()
	return a.Run(ctx)
}
