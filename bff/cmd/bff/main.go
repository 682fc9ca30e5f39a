// Command bff is Pressroom's backend-for-frontend: the HTTP API of the screens and the built UI.
//
//	bff          serve HTTP (migrating first)
//	bff migrate  apply the database migrations and exit
//	bff seed     write the demo data (not in production) and exit
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/pressroom/pressroom/bff/app"
	"github.com/pressroom/pressroom/bff/seed"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/logging"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "bff:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	cfg, err := app.LoadConfig(env.OS)
	if err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	log := logging.New(cfg.Log, os.Stderr).With("service", "bff")
	cmd := "serve"
	if len(args) > 0 {
		cmd = args[0]
	}
	switch cmd {
	case "serve":
		a, err := app.New(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer a.Close()
		return a.Run(ctx)
	case "migrate", "seed":
		db, err := database.Open(ctx, cfg.Database)
		if err != nil {
			return err
		}
		defer db.Close()
		if err := database.Migrate(ctx, db, log); err != nil {
			return err
		}
		if cmd == "seed" {
			store, err := blob.New(cfg.Blob, cfg.Env == "production")
			if err != nil {
				return err
			}
			box, err := cfg.Seal.PaymentBox()
			if err != nil {
				return err
			}
			if err := seed.Run(ctx, seed.Deps{DB: db, Store: store, Env: cfg.Env, BcryptCost: cfg.Auth.BcryptCost, Box: box}); err != nil {
				return err
			}
			log.Info("demo data seeded", "password", seed.DemoPassword)
		}
		return nil
	}
	return errors.New("unknown command " + cmd + ": want serve, migrate or seed")
}
