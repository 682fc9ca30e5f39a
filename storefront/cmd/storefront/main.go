// Command storefront serves the buyers' shops: every store's pages, cart, checkout and order
// status pages (see docs/storefront.md). It migrates nothing: the bff owns the schema.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/logging"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, err := LoadConfig(env.OS)
	if err == nil {
		err = cfg.Validate()
	}
	if err == nil {
		err = run(ctx, cfg, logging.New(cfg.Log, os.Stderr).With("service", "storefront"))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "storefront:", err)
		os.Exit(1)
	}
}
