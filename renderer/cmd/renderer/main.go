// Command renderer is Pressroom's render service and its command-line face.
//
//	renderer                                  run the service: render tasks from the queue, and its HTTP server
//	renderer serve                            the same
//	renderer strip IN.png OUT.png             remove text metadata (XMP and friends) from a PNG
//	renderer dpi DESIGN.json                  print the design's DPI report as JSON
//	renderer export DESIGN.json OUT.png [--width N]  render the print file
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/logging"
	"github.com/pressroom/pressroom/renderer/cli"
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
	if len(args) > 0 && args[0] != "serve" {
		return cli.Run(ctx, args, os.Stdout, os.Stderr)
	}
	cfg, err := service.LoadConfig(env.OS)
	if err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	s, err := service.New(ctx, cfg, logging.New(cfg.Log, os.Stderr).With("service", "renderer"))
	if err != nil {
		return err
	}
	defer s.Close()
	return s.Run(ctx)
}
