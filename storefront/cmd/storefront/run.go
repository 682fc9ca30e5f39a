package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/pressroom/pressroom/commerce/checkout"
	"github.com/pressroom/pressroom/commerce/gateways"
	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/logging"
	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/seal"
	"github.com/pressroom/pressroom/storefront/shop"
)

// Config is the storefront's whole configuration.
type Config struct {
	// Env is development, test or production (PRESSROOM_ENV, default development). Production
	// refuses the test payment gateway and the development signing key.
	Env      string
	Log      logging.Config
	Database database.Config
	Blob     blob.Config
	Mail     mail.Config
	Stripe   payments.StripeConfig
	// Seal opens the sellers' own Stripe keys (PRESSROOM_PAYMENT_SECRET_KEY, as the bff's).
	Seal seal.Config
	Shop shop.Config
}

// LoadConfig reads every PRESSROOM_* variable the storefront uses.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := Config{Env: "development"}
	r := env.NewReader(lookup)
	r.String(&cfg.Env, "PRESSROOM_ENV")
	if err := r.Err(); err != nil {
		return cfg, err
	}
	var err error
	if cfg.Log, err = logging.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Database, err = database.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Blob, err = blob.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Mail, err = mail.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Stripe, err = payments.LoadStripeConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Seal, err = seal.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	cfg.Shop, err = shop.LoadConfig(lookup)
	return cfg, err
}

// Validate checks every part, naming the variable to fix.
func (c Config) Validate() error {
	switch c.Env {
	case "development", "test", "production":
	default:
		return fmt.Errorf("PRESSROOM_ENV=%q: want development, test or production", c.Env)
	}
	prod := c.Env == "production"
	for _, err := range []error{c.Log.Validate(), c.Database.Validate(), c.Blob.Validate(prod), c.Mail.Validate(), c.Stripe.Validate(), c.Shop.Validate(prod),
		c.Seal.ValidateKeys(env.Exposure{Production: prod})} {
		if err != nil {
			return err
		}
	}
	if prod {
		return c.Mail.CheckProduction()
	}
	return nil
}

// run serves the shops until ctx ends.
func run(ctx context.Context, cfg Config, log *slog.Logger) error {
	db, err := database.Open(ctx, cfg.Database)
	if err != nil {
		return err
	}
	defer db.Close()
	blobs, err := blob.New(cfg.Blob, cfg.Env == "production")
	if err != nil {
		return err
	}
	gw, err := gateway(cfg, log)
	if err != nil {
		return err
	}
	mailer, err := mail.New(cfg.Mail, db)
	if err != nil {
		return err
	}
	box, err := cfg.Seal.PaymentBox()
	if err != nil {
		return err
	}
	resolver, err := gateways.New(gateways.Deps{DB: db, Box: box, Platform: gw, APIBase: cfg.Stripe.APIBase})
	if err != nil {
		return err
	}
	co, err := checkout.New(checkout.Deps{DB: db, Gateways: resolver})
	if err != nil {
		return err
	}
	h, err := shop.New(cfg.Shop, shop.Deps{DB: db, Blobs: blobs, Checkout: co, Gateways: resolver, Mailer: mailer, Log: log})
	if err != nil {
		return err
	}
	srv := &http.Server{Addr: cfg.Shop.Addr, Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10}
	// The search counts are written until the server has stopped, then once more.
	counting, stopCounting := context.WithCancel(context.WithoutCancel(ctx))
	counted := make(chan error, 1)
	go func() { counted <- h.Run(counting) }()
	finishCounting := sync.OnceValue(func() error { stopCounting(); return <-counted })
	defer finishCounting()
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	log.Info("storefront listening", "addr", cfg.Shop.Addr, "store_domain", cfg.Shop.StoreDomain)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	if err := finishCounting(); err != nil {
		log.Warn("search keywords lost at stop", "err", err)
	}
	return nil
}

// gateway is the platform's: Stripe when its keys are set; otherwise the test gateway, which
// production refuses, so a production storefront without Stripe takes payments only in stores that
// use their seller's own gateway (docs/payments.md).
func gateway(cfg Config, log *slog.Logger) (payments.Gateway, error) {
	if cfg.Stripe.Enabled() {
		return payments.NewStripe(cfg.Stripe)
	}
	if cfg.Env == "production" {
		log.Warn("no payment gateway (PRESSROOM_STRIPE_SECRET_KEY is not set): checkouts cannot be paid")
		return payments.None{}, nil
	}
	return payments.NewTest(cfg.Env)
}
