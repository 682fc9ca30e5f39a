// Command renderer is Pressroom's render service and its command-line face.
//
//	renderer                                  run the service: render tasks from the queue, and its HTTP server
//	renderer serve                            the same
//	renderer strip IN.png OUT.png             remove text metadata (XMP and friends) from a PNG
//	renderer dpi DESIGN.json                  print the design's DPI report as JSON
//	renderer export DESIGN.json OUT.png [--width N]  render the print file
//	renderer seed-demo                        draw and store the demo mockup templates (after `bff seed`; not in production)
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/logging"
	"github.com/pressroom/pressroom/renderer/cli"
	"github.com/pressroom/pressroom/renderer/demoseed"
	"github.com/pressroom/pressroom/renderer/mockup/demo"
	"github.com/pressroom/pressroom/renderer/service"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "renderer:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	if len(args) > 0 && args[0] != "serve" && args[0] != "seed-demo" {
		return cli.Run(ctx, args, os.Stdout, os.Stderr)
	}
	cfg, err := service.LoadConfig(env.OS)
	if err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	if len(args) > 0 && args[0] == "seed-demo" {
		return seedDemo(ctx, cfg)
	}
	s, err := service.New(ctx, cfg, logging.New(cfg.Log, os.Stderr).With("service", "renderer"))
	if err != nil {
		return err
	}
	defer s.Close()
	return s.Run(ctx)
}

// seedDemo draws the demo mockup templates at full size into the blob store and records them for
// the demo catalogue `bff seed` made.
func seedDemo(ctx context.Context, cfg service.Config) error {
	if cfg.Production {
		return errors.New("demo data is never seeded in production (PRESSROOM_ENV=production)")
	}
	db, err := database.Open(ctx, cfg.Database)
	if err != nil {
		return err
	}
	defer db.Close()
	store, err := blob.New(cfg.Blob, cfg.Production)
	if err != nil {
		return err
	}
	return demoseed.Run(ctx, db, store, demo.DefaultSide)
}
