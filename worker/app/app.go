package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"golang.org/x/sync/errgroup"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/customdomain"
	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/klaviyo"
	"github.com/pressroom/pressroom/platform/logging"
	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/ping"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/storelink"
	"github.com/pressroom/pressroom/worker/abandoned"
	"github.com/pressroom/pressroom/worker/bulk"
	"github.com/pressroom/pressroom/worker/emailsend"
	"github.com/pressroom/pressroom/worker/emailsync"
	"github.com/pressroom/pressroom/worker/feeds"
	"github.com/pressroom/pressroom/worker/shipmail"
	"github.com/pressroom/pressroom/worker/tasks"
	"github.com/pressroom/pressroom/worker/webhooks"
)

// Config is the worker's whole configuration.
type Config struct {
	// Env is development, test or production (PRESSROOM_ENV, default development); production
	// demands PRESSROOM_PUBLIC_URL.
	Env string
	// Concurrency is how many tasks run at once (PRESSROOM_WORKER_CONCURRENCY, default 8).
	Concurrency int
	Log         logging.Config
	Database    database.Config
	Queue       queue.Config
	Outbox      outbox.Config
	// Email is the Klaviyo sync (PRESSROOM_KLAVIYO_BASE_URL, PRESSROOM_EMAIL_*).
	Email klaviyo.Config
	// Bulk is the bulk records' reconcile loop and the campaign job scheduler (PRESSROOM_BULK_*).
	Bulk bulk.Config
	// Mail delivers campaign mail (PRESSROOM_SMTP_*; no host: the local mail outbox).
	Mail mail.Config
	// Send is the campaign sends (PRESSROOM_PUBLIC_URL, PRESSROOM_EMAIL_SEND_BATCH).
	Send emailsend.Config
	// Abandon is the abandoned checkouts and their recovery e-mails (PRESSROOM_ABANDON_*,
	// PRESSROOM_STOREFRONT_PUBLIC_URL, PRESSROOM_STOREFRONT_SIGNING_KEY).
	Abandon abandoned.Config
	// Domains re-checks custom domains (PRESSROOM_DNS_RESOLVER, PRESSROOM_DNS_TIMEOUT,
	// PRESSROOM_DOMAIN_RECHECK_INTERVAL).
	Domains customdomain.Config
	// Hooks is the webhook deliveries (PRESSROOM_WEBHOOK_*).
	Hooks webhooks.Config
	// Links is where the links the worker mails and publishes to buyers point, and their key: the
	// review links of delivery e-mails, the product links of social feeds
	// (PRESSROOM_STOREFRONT_PUBLIC_URL, PRESSROOM_STOREFRONT_SIGNING_KEY).
	Links storelink.Config
	// Blob is the blob store the social feeds are written to (PRESSROOM_BLOB_*, PRESSROOM_S3_*).
	Blob blob.Config
	// Feeds is the social feeds' builds and their watch for catalogue changes (PRESSROOM_FEED_*).
	Feeds feeds.Config
}

// LoadConfig reads every PRESSROOM_* variable the worker uses.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := Config{Env: "development", Concurrency: 8}
	r := env.NewReader(lookup)
	r.String(&cfg.Env, "PRESSROOM_ENV")
	r.Int(&cfg.Concurrency, "PRESSROOM_WORKER_CONCURRENCY")
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
	if cfg.Queue, err = queue.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Outbox, err = outbox.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Email, err = klaviyo.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Bulk, err = bulk.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Mail, err = mail.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Send, err = emailsend.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Abandon, err = abandoned.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Domains, err = customdomain.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Hooks, err = webhooks.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Links, err = storelink.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Blob, err = blob.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	cfg.Feeds, err = feeds.LoadConfig(lookup)
	return cfg, err
}

// Validate checks every part, naming the variable to fix.
func (c Config) Validate() error {
	if c.Concurrency < 1 {
		return fmt.Errorf("PRESSROOM_WORKER_CONCURRENCY=%d: want at least 1", c.Concurrency)
	}
	for _, v := range []interface{ Validate() error }{c.Log, c.Database, c.Queue, c.Outbox, c.Bulk, c.Mail, c.Abandon, c.Domains, c.Hooks, c.Links, c.Feeds} {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	if err := c.Send.Validate(c.Env == "production"); err != nil {
		return err
	}
	if err := c.Blob.Validate(c.Env == "production"); err != nil {
		return err
	}
	return c.Email.Validate(false)
}

// App is the assembled worker.
type App struct {
	cfg    Config
	log    *slog.Logger
	db     *sqlx.DB
	client *asynq.Client
	relay  *outbox.Relay
	bulk   *bulk.Reconciler
	jobs   *bulk.Scheduler
	left   *abandoned.Runner
	checks *customdomain.Checker
	hooks  *webhooks.Runner
	feeds  *feeds.Watcher
	server *asynq.Server
	mux    *asynq.ServeMux
}

// New connects, migrates and registers every task handler.
func New(ctx context.Context, cfg Config, log *slog.Logger) (*App, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	db, err := database.Open(ctx, cfg.Database)
	if err != nil {
		return nil, err
	}
	if err := database.Migrate(ctx, db, log); err != nil {
		db.Close()
		return nil, err
	}
	client := asynq.NewClient(cfg.Queue.RedisOpt())
	relay, err := outbox.NewRelay(cfg.Outbox, db, client, log)
	if err != nil {
		client.Close()
		db.Close()
		return nil, err
	}
	mux := asynq.NewServeMux()
	mux.Use(queue.Logging(log))
	mux.Handle(ping.TypePing, ping.NewHandler(db, queue.Worker))
	emailSync, err := emailsync.NewHandler(cfg.Email, db, nil, log)
	if err != nil {
		client.Close()
		db.Close()
		return nil, err
	}
	mux.Handle(tasks.TypeSyncProfiles, emailSync)
	mailer, err := mail.New(cfg.Mail, db)
	if err != nil {
		client.Close()
		db.Close()
		return nil, err
	}
	campaignSend, err := emailsend.NewHandler(cfg.Send, db, mailer, log)
	if err != nil {
		client.Close()
		db.Close()
		return nil, err
	}
	mux.Handle(tasks.TypeSendCampaign, campaignSend)
	shipping, err := shipmail.NewHandler(db, mailer)
	if err != nil {
		client.Close()
		db.Close()
		return nil, err
	}
	mux.Handle(tasks.TypeShippingMail, shipping)
	delivery, err := shipmail.NewDeliveryHandler(db, mailer, cfg.Links)
	if err != nil {
		client.Close()
		db.Close()
		return nil, err
	}
	mux.Handle(tasks.TypeDeliveryMail, delivery)
	blobs, err := blob.New(cfg.Blob, cfg.Env == "production")
	if err != nil {
		client.Close()
		db.Close()
		return nil, err
	}
	feedBuilder, err := feeds.NewBuilder(cfg.Feeds, db, blobs, cfg.Links, log)
	if err != nil {
		client.Close()
		db.Close()
		return nil, err
	}
	mux.Handle(tasks.TypeBuildFeed, feedBuilder)
	feedWatch, err := feeds.NewWatcher(cfg.Feeds, db, relay, log)
	if err != nil {
		client.Close()
		db.Close()
		return nil, err
	}
	mux.Handle(tasks.TypeSendTest, campaignSend.Tests())
	bulkRecords, err := bulk.NewHandler(db, relay, log)
	if err != nil {
		client.Close()
		db.Close()
		return nil, err
	}
	mux.Handle(tasks.TypeBulkRecord, bulkRecords)
	bulkCampaigns, err := bulk.NewCampaignHandler(db, relay, log)
	if err != nil {
		client.Close()
		db.Close()
		return nil, err
	}
	mux.Handle(tasks.TypeBulkCampaign, bulkCampaigns)
	reconciler, err := bulk.NewReconciler(cfg.Bulk, db, log)
	if err != nil {
		client.Close()
		db.Close()
		return nil, err
	}
	scheduler, err := bulk.NewScheduler(cfg.Bulk, db, relay, log)
	if err != nil {
		client.Close()
		db.Close()
		return nil, err
	}
	left, err := abandoned.New(cfg.Abandon, db, mailer, log)
	if err != nil {
		client.Close()
		db.Close()
		return nil, err
	}
	checks, err := customdomain.NewChecker(cfg.Domains, db)
	if err != nil {
		client.Close()
		db.Close()
		return nil, err
	}
	hooks, err := webhooks.New(cfg.Hooks, db, log)
	if err != nil {
		client.Close()
		db.Close()
		return nil, err
	}
	return &App{
		cfg: cfg, log: log, db: db, client: client, relay: relay, mux: mux, bulk: reconciler, jobs: scheduler, left: left, checks: checks,
		hooks: hooks, feeds: feedWatch,
		server: queue.NewServer(cfg.Queue, queue.Worker, cfg.Concurrency, log),
	}, nil
}

// Run processes tasks and relays the outbox until ctx ends, then shuts down gracefully.
func (a *App) Run(ctx context.Context) error {
	a.log.Info("worker started", "queues", queue.Queues(queue.Worker), "concurrency", a.cfg.Concurrency)
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return queue.Serve(ctx, a.server, a.mux) })
	g.Go(func() error { return queue.Rescue(ctx, a.cfg.Queue, queue.Worker, a.log) })
	g.Go(func() error { return a.relay.Run(ctx) })
	g.Go(func() error { return a.bulk.Run(ctx) })
	g.Go(func() error { return a.jobs.Run(ctx) })
	g.Go(func() error { return a.left.Run(ctx) })
	g.Go(func() error { return a.checks.Run(ctx, a.log) })
	g.Go(func() error { return a.hooks.Run(ctx) })
	g.Go(func() error { return a.feeds.Run(ctx) })
	if err := g.Wait(); err != nil {
		return err
	}
	a.log.Info("worker stopped")
	return nil
}

// Close releases connections.
func (a *App) Close() error {
	return errors.Join(a.client.Close(), a.db.Close())
}
