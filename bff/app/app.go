package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"slices"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"
	"github.com/redis/go-redis/v9"
	"golang.org/x/sync/errgroup"

	"github.com/pressroom/pressroom/bff/abandoned"
	"github.com/pressroom/pressroom/bff/apikeys"
	"github.com/pressroom/pressroom/bff/artworks"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/billing"
	"github.com/pressroom/pressroom/bff/blog"
	"github.com/pressroom/pressroom/bff/bulk"
	"github.com/pressroom/pressroom/bff/campaigns"
	"github.com/pressroom/pressroom/bff/cliparts"
	"github.com/pressroom/pressroom/bff/collections"
	"github.com/pressroom/pressroom/bff/crossselling"
	"github.com/pressroom/pressroom/bff/customers"
	"github.com/pressroom/pressroom/bff/domains"
	"github.com/pressroom/pressroom/bff/emailmarketing"
	"github.com/pressroom/pressroom/bff/featured"
	"github.com/pressroom/pressroom/bff/folders"
	"github.com/pressroom/pressroom/bff/fonts"
	"github.com/pressroom/pressroom/bff/idempotency"
	"github.com/pressroom/pressroom/bff/imageproxy"
	"github.com/pressroom/pressroom/bff/notifications"
	"github.com/pressroom/pressroom/bff/orders"
	"github.com/pressroom/pressroom/bff/paymentaccounts"
	"github.com/pressroom/pressroom/bff/paymentgateways"
	"github.com/pressroom/pressroom/bff/pricing"
	"github.com/pressroom/pressroom/bff/promotions"
	"github.com/pressroom/pressroom/bff/publicapi"
	"github.com/pressroom/pressroom/bff/reports"
	"github.com/pressroom/pressroom/bff/review"
	"github.com/pressroom/pressroom/bff/reviews"
	"github.com/pressroom/pressroom/bff/searchkeywords"
	"github.com/pressroom/pressroom/bff/server"
	"github.com/pressroom/pressroom/bff/socialfeeds"
	"github.com/pressroom/pressroom/bff/stock"
	"github.com/pressroom/pressroom/bff/stores"
	"github.com/pressroom/pressroom/bff/survey"
	"github.com/pressroom/pressroom/bff/system"
	"github.com/pressroom/pressroom/bff/systemconfig"
	"github.com/pressroom/pressroom/bff/team"
	"github.com/pressroom/pressroom/bff/tracking"
	"github.com/pressroom/pressroom/bff/trademarks"
	"github.com/pressroom/pressroom/bff/uploads"
	"github.com/pressroom/pressroom/bff/version"
	"github.com/pressroom/pressroom/bff/webhooks"
	"github.com/pressroom/pressroom/commerce/gateways"
	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/commerce/refunds"
	"github.com/pressroom/pressroom/commerce/storesite"
	commercehooks "github.com/pressroom/pressroom/commerce/webhooks"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/customdomain"
	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/klaviyo"
	"github.com/pressroom/pressroom/platform/logging"
	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/seal"
	"github.com/pressroom/pressroom/platform/storelink"
)

// Config is the bff's whole configuration.
type Config struct {
	// Env is development, test or production (PRESSROOM_ENV, default development). Production
	// refuses the demo seed.
	Env      string
	Log      logging.Config
	Server   server.Config
	Database database.Config
	Queue    queue.Config
	Outbox   outbox.Config
	Auth     auth.Config
	Mail     mail.Config
	// Blob is the blob store (PRESSROOM_BLOB_*, PRESSROOM_S3_*); the local one is served at /blobs.
	Blob    blob.Config
	Uploads uploads.Config
	// Fonts is when deleted fonts' files are removed (PRESSROOM_FONT_*).
	Fonts fonts.Config
	// Cliparts is when deleted cliparts' files are removed (PRESSROOM_CLIPART_*).
	Cliparts cliparts.Config
	// Idempotency keeps the answers of creates sent with an Idempotency-Key (PRESSROOM_IDEMPOTENCY_*).
	Idempotency idempotency.Config
	// ImageProxy is the foreign-image proxy (PRESSROOM_IMAGE_PROXY_*); production needs its key.
	ImageProxy imageproxy.Config
	// Version is the build identity GET /api/api3/version reports (PRESSROOM_BUILD_ID).
	Version version.Config
	// Email is the Klaviyo connection (PRESSROOM_KLAVIYO_BASE_URL, PRESSROOM_EMAIL_*); production
	// needs PRESSROOM_EMAIL_SECRET_KEY.
	Email klaviyo.Config
	// Stripe is the platform's Stripe account (PRESSROOM_STRIPE_*, as the storefront's): refunds of
	// Stripe payments go through it, and sellers' own Stripe accounts are reached at its API address.
	Stripe payments.StripeConfig
	// Seal seals sellers' Stripe keys and payout account numbers (PRESSROOM_PAYMENT_SECRET_KEY);
	// production needs it.
	Seal seal.Config
	// Gateways is where sellers' Stripe accounts deliver their webhooks (PRESSROOM_STOREFRONT_PUBLIC_URL).
	Gateways paymentgateways.Config
	// Accounts is how long a payment account's confirmation link works (PRESSROOM_PAYMENT_ACCOUNT_CONFIRM_TTL).
	Accounts paymentaccounts.Config
	// API is the public API's rate limit per key (PRESSROOM_API_RATE_*).
	API publicapi.Config
	// Domains is how custom domains are checked (PRESSROOM_DNS_RESOLVER, PRESSROOM_DNS_TIMEOUT) and
	// which are the platform's own (PRESSROOM_STORE_DOMAIN).
	Domains customdomain.Config
	// StorefrontAddr is the storefront's listen address (PRESSROOM_STOREFRONT_ADDR, as the
	// storefront's, default 127.0.0.1:8082): on the development store domain localhost, the port of
	// the store addresses the dashboard shows.
	StorefrontAddr string
	// Hooks checks the addresses of webhook endpoints as sellers save them (PRESSROOM_WEBHOOK_*,
	// the worker's settings of the same names).
	Hooks commercehooks.Config
	// Storefront is where buyers and catalogues reach the stores: the base of the social feeds'
	// addresses the screens show (PRESSROOM_STOREFRONT_PUBLIC_URL).
	Storefront storelink.Config
}

// LoadConfig reads every PRESSROOM_* variable the bff uses.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := Config{Env: "development", StorefrontAddr: "127.0.0.1:8082"}
	r := env.NewReader(lookup)
	r.String(&cfg.Env, "PRESSROOM_ENV")
	r.String(&cfg.StorefrontAddr, "PRESSROOM_STOREFRONT_ADDR")
	if err := r.Err(); err != nil {
		return cfg, err
	}
	var err error
	if cfg.Log, err = logging.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Server, err = server.LoadConfig(lookup); err != nil {
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
	if cfg.Auth, err = auth.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Mail, err = mail.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Blob, err = blob.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.ImageProxy, err = imageproxy.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Version, err = version.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Email, err = klaviyo.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Idempotency, err = idempotency.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Stripe, err = payments.LoadStripeConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Seal, err = seal.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Gateways, err = paymentgateways.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Accounts, err = paymentaccounts.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.API, err = publicapi.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Domains, err = customdomain.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Hooks, err = commercehooks.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Fonts, err = fonts.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Cliparts, err = cliparts.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Storefront, err = storelink.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	cfg.Uploads, err = uploads.LoadConfig(lookup)
	return cfg, err
}

// Validate checks every part, naming the variable to fix.
func (c Config) Validate() error {
	switch c.Env {
	case "development", "test", "production":
	default:
		return fmt.Errorf("PRESSROOM_ENV=%q: want development, test or production", c.Env)
	}
	if _, _, err := net.SplitHostPort(c.StorefrontAddr); err != nil {
		return fmt.Errorf("PRESSROOM_STOREFRONT_ADDR=%q: want host:port", c.StorefrontAddr)
	}
	for _, v := range []interface{ Validate() error }{c.Log, c.Server, c.Database, c.Queue, c.Outbox, c.Auth, c.Mail, c.Uploads, c.Fonts, c.Cliparts, c.Version, c.Idempotency, c.Stripe, c.Gateways, c.Accounts, c.API, c.Domains, c.Hooks, c.Storefront} {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	production := c.Env == "production"
	if err := c.Email.Validate(production); err != nil {
		return err
	}
	if production {
		if err := c.Mail.CheckProduction(); err != nil {
			return err
		}
	}
	if err := c.Auth.Public.Validate(production); err != nil {
		return err
	}
	if err := c.Blob.Validate(production); err != nil {
		return err
	}
	// The public development keys only on a machine nobody else reaches.
	x := env.Exposure{Production: production, AddrVar: "PRESSROOM_HTTP_ADDR", Addr: c.Server.Addr}
	for _, v := range []interface{ ValidateKeys(env.Exposure) error }{c.Blob, c.ImageProxy, c.Email, c.Seal} {
		if err := v.ValidateKeys(x); err != nil {
			return err
		}
	}
	return nil
}

// App is the assembled bff.
type App struct {
	cfg   Config
	log   *slog.Logger
	DB    *sqlx.DB
	redis *redis.Client
	queue *asynq.Client
	Echo  *echo.Echo
	Auth  *auth.Service
	keys  *idempotency.Keys
	// uploads sweeps abandoned uploads while the app runs.
	uploads *uploads.Service
	// campaigns follows the changes of campaign lists while the app runs.
	campaigns *campaigns.Service
	// fonts removes deleted fonts' files nothing uses while the app runs.
	fonts *fonts.Service
	// cliparts removes deleted cliparts' files nothing uses while the app runs.
	cliparts *cliparts.Service
	// apiKeys follows the changes of API keys and writes their uses while the app runs.
	apiKeys *apikeys.Service
}

// New connects to Postgres and Redis, migrates, and builds every route.
func New(ctx context.Context, cfg Config, log *slog.Logger) (*App, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	db, err := database.Open(ctx, cfg.Database)
	if err != nil {
		return nil, err
	}
	a := &App{cfg: cfg, log: log, DB: db, redis: cfg.Queue.NewRedisClient(), queue: asynq.NewClient(cfg.Queue.RedisOpt())}
	if err := a.build(ctx); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

func (a *App) build(ctx context.Context) error {
	if err := database.Migrate(ctx, a.DB, a.log); err != nil {
		return err
	}
	relay, err := outbox.NewRelay(a.cfg.Outbox, a.DB, a.queue, a.log)
	if err != nil {
		return err
	}
	mailer, err := mail.New(a.cfg.Mail, a.DB)
	if err != nil {
		return err
	}
	a.Auth, err = auth.NewService(a.cfg.Auth, a.DB, a.redis, mailer, a.log)
	if err != nil {
		return err
	}
	store, err := blob.New(a.cfg.Blob, a.cfg.Env == "production")
	if err != nil {
		return err
	}
	upl, err := uploads.New(a.cfg.Uploads, uploads.Deps{
		DB: a.DB, Store: store, Relay: relay, Redis: a.redis, Queue: a.queue, Log: a.log,
	})
	if err != nil {
		return err
	}
	a.uploads = upl
	camps, err := campaigns.New(campaigns.Deps{DB: a.DB, Store: store, Relay: relay, DownloadTTL: a.cfg.Uploads.FileURLTTL, Log: a.log})
	if err != nil {
		return err
	}
	a.campaigns = camps
	a.fonts, err = fonts.New(a.cfg.Fonts, fonts.Deps{DB: a.DB, Auth: a.Auth, Store: store, Log: a.log})
	if err != nil {
		return err
	}
	if err := a.fonts.SyncPlatform(ctx); err != nil {
		return err
	}
	a.cliparts, err = cliparts.New(a.cfg.Cliparts, cliparts.Deps{DB: a.DB, Auth: a.Auth, Store: store, Relay: relay, Log: a.log})
	if err != nil {
		return err
	}
	sellerArtworks, err := artworks.New(artworks.Deps{DB: a.DB, Auth: a.Auth, Store: store, Log: a.log})
	if err != nil {
		return err
	}
	fileFolders, err := folders.New(folders.Deps{DB: a.DB, Auth: a.Auth})
	if err != nil {
		return err
	}
	bulkRecords, err := bulk.New(bulk.Deps{DB: a.DB, Relay: relay, Log: a.log})
	if err != nil {
		return err
	}
	imgProxy, err := imageproxy.New(a.cfg.ImageProxy, a.cfg.Env == "production", a.redis, a.log)
	if err != nil {
		return err
	}
	email, err := emailmarketing.New(emailmarketing.Deps{DB: a.DB, Auth: a.Auth, Relay: relay, Email: a.cfg.Email, Log: a.log})
	if err != nil {
		return err
	}
	storefronts, err := stores.New(stores.Deps{DB: a.DB, Auth: a.Auth,
		Site: storesite.Address{StoreDomain: a.cfg.Domains.StoreDomain, StorefrontAddr: a.cfg.StorefrontAddr}})
	if err != nil {
		return err
	}
	storeBlog, err := blog.New(blog.Deps{DB: a.DB, Auth: a.Auth, Relay: relay})
	if err != nil {
		return err
	}
	checker, err := customdomain.NewChecker(a.cfg.Domains, a.DB)
	if err != nil {
		return err
	}
	storeDomains, err := domains.New(domains.Deps{DB: a.DB, Auth: a.Auth, Checker: checker,
		Reserved: []string{a.cfg.Domains.StoreDomain, a.cfg.Auth.Public.Host()}})
	if err != nil {
		return err
	}
	box, err := a.cfg.Seal.PaymentBox()
	if err != nil {
		return err
	}
	platformGateways, err := a.gateways()
	if err != nil {
		return err
	}
	resolver, err := gateways.New(gateways.Deps{DB: a.DB, Box: box, Known: platformGateways, APIBase: a.cfg.Stripe.APIBase})
	if err != nil {
		return err
	}
	moneyBack, err := refunds.New(a.DB, resolver)
	if err != nil {
		return err
	}
	payoutAccounts, err := paymentaccounts.New(paymentaccounts.Deps{Config: a.cfg.Accounts, DB: a.DB, Auth: a.Auth, Box: box,
		Mailer: mailer, Public: a.cfg.Auth.Public, Log: a.log})
	if err != nil {
		return err
	}
	sellerGateways, err := paymentgateways.New(paymentgateways.Deps{Config: a.cfg.Gateways, DB: a.DB, Auth: a.Auth, Box: box,
		Gateways: resolver, Log: a.log})
	if err != nil {
		return err
	}
	sellerOrders, err := orders.New(orders.Deps{DB: a.DB, Auth: a.Auth, Refunds: moneyBack, Blob: store})
	if err != nil {
		return err
	}
	sellerCustomers, err := customers.New(customers.Deps{DB: a.DB, Auth: a.Auth})
	if err != nil {
		return err
	}
	abandonedCheckouts, err := abandoned.New(abandoned.Deps{DB: a.DB, Auth: a.Auth})
	if err != nil {
		return err
	}
	hooks, err := webhooks.New(webhooks.Deps{DB: a.DB, Auth: a.Auth, Hooks: a.cfg.Hooks})
	if err != nil {
		return err
	}
	crossSelling, err := crossselling.New(crossselling.Deps{DB: a.DB, Auth: a.Auth})
	if err != nil {
		return err
	}
	sellerPromotions, err := promotions.New(promotions.Deps{DB: a.DB, Auth: a.Auth})
	if err != nil {
		return err
	}
	stockStatus, err := stock.New(stock.Deps{DB: a.DB, Auth: a.Auth})
	if err != nil {
		return err
	}
	sellerCollections, err := collections.New(collections.Deps{DB: a.DB, Auth: a.Auth})
	if err != nil {
		return err
	}
	sellerPricing, err := pricing.New(pricing.Deps{DB: a.DB, Auth: a.Auth})
	if err != nil {
		return err
	}
	productReviews, err := reviews.New(reviews.Deps{DB: a.DB, Auth: a.Auth, Store: store})
	if err != nil {
		return err
	}
	keywords, err := searchkeywords.New(searchkeywords.Deps{DB: a.DB, Auth: a.Auth})
	if err != nil {
		return err
	}
	overview, err := reports.New(reports.Deps{DB: a.DB, Auth: a.Auth})
	if err != nil {
		return err
	}
	feeds, err := socialfeeds.New(socialfeeds.Deps{DB: a.DB, Auth: a.Auth, Store: store, Relay: relay, Links: a.cfg.Storefront, Log: a.log})
	if err != nil {
		return err
	}
	money, err := billing.New(billing.Deps{DB: a.DB, Auth: a.Auth})
	if err != nil {
		return err
	}
	designReview, err := review.New(review.Deps{DB: a.DB, Store: store, Relay: relay, FileURLTTL: a.cfg.Uploads.FileURLTTL, Log: a.log})
	if err != nil {
		return err
	}
	apiKeys, err := apikeys.New(apikeys.Deps{DB: a.DB, Auth: a.Auth, Log: a.log})
	if err != nil {
		return err
	}
	a.apiKeys = apiKeys
	a.keys, err = idempotency.New(a.cfg.Idempotency, a.DB, a.log)
	if err != nil {
		return err
	}
	public, err := publicapi.New(publicapi.Deps{Config: a.cfg.API, DB: a.DB, Redis: a.redis, Keys: apiKeys, Idempotency: a.keys})
	if err != nil {
		return err
	}
	once := a.keys.Once
	serverCfg := a.cfg.Server
	serverCfg.BodyLimitExempt = append(slices.Clone(serverCfg.BodyLimitExempt), uploads.BodyLimitExempt...)
	serverCfg.BodyLimitExempt = append(serverCfg.BodyLimitExempt, fonts.BodyLimitExempt...)
	serverCfg.BodyLimitExempt = append(serverCfg.BodyLimitExempt, cliparts.BodyLimitExempt...)
	serverCfg.ContentOrigins = a.cfg.Blob.BrowserOrigins()
	serverCfg.InlineScriptPaths = []string{system.QueueMonitorPath} // asynqmon's page sets its settings inline
	local, isLocal := store.(*blob.Local)
	blobRoute := ""
	if isLocal {
		// The local store's signed URLs point here; they carry their own permission and size cap.
		u, err := url.Parse(a.cfg.Blob.PublicURL)
		if err != nil {
			return err
		}
		blobRoute = u.Path + "/*"
		serverCfg.BodyLimitExempt = append(serverCfg.BodyLimitExempt, blobRoute)
	}
	a.Echo, err = server.New(serverCfg, a.log, func(e *echo.Echo) {
		if isLocal {
			e.Any(blobRoute, echo.WrapHandler(local.Handler(a.log)))
		}
		api := e.Group("/api")
		uploads.Routes(api, a.Auth, upl, once)
		campaigns.Routes(api, a.Auth, camps, once)
		fonts.Routes(api, a.fonts, once)
		cliparts.Routes(api, a.cliparts, once)
		artworks.Routes(api, sellerArtworks)
		folders.Routes(api, fileFolders, once)
		bulk.Routes(api, a.Auth, bulkRecords, once)
		imageproxy.Routes(api, a.Auth, imgProxy)
		auth.Routes(api, a.Auth)
		orders.Routes(api, sellerOrders)
		customers.Routes(api, sellerCustomers)
		abandoned.Routes(api, abandonedCheckouts)
		webhooks.Routes(api, hooks, once)
		crossselling.Routes(api, crossSelling, once)
		promotions.Routes(api, sellerPromotions, once)
		stock.Routes(api, stockStatus)
		collections.Routes(api, sellerCollections, once)
		pricing.Routes(api, sellerPricing)
		reviews.Routes(api, productReviews)
		searchkeywords.Routes(api, keywords)
		reports.Routes(api, overview)
		socialfeeds.Routes(api, feeds, once)
		billing.Routes(api, money, once)
		paymentgateways.Routes(api, sellerGateways, once)
		paymentaccounts.Routes(api, payoutAccounts, once)
		review.Routes(api, a.Auth, designReview)
		stores.Routes(api, storefronts)
		blog.Routes(api, storeBlog, once)
		domains.Routes(api, storeDomains, once)
		emailmarketing.Routes(api, email, once)
		version.Routes(api, a.Auth, a.cfg.Version)
		team.Routes(api, team.Deps{DB: a.DB, Auth: a.Auth, Mailer: mailer, PublicURL: a.cfg.Auth.Public.URL}, once)
		notifications.Routes(api, notifications.Deps{DB: a.DB, Auth: a.Auth}, once)
		survey.Routes(api, survey.Deps{DB: a.DB, Auth: a.Auth})
		featured.Routes(api, featured.Deps{DB: a.DB, Auth: a.Auth})
		tracking.Routes(api, tracking.Deps{DB: a.DB, Auth: a.Auth, Redis: a.redis})
		systemconfig.Routes(api, systemconfig.Deps{DB: a.DB, Auth: a.Auth})
		apikeys.Routes(api, apiKeys)
		publicapi.Routes(e, public)
		trademarks.Routes(api, trademarks.Deps{DB: a.DB, Auth: a.Auth})
		system.Routes(e, system.Deps{
			DB: a.DB, Redis: a.redis, RedisOpt: a.cfg.Queue.RedisOpt(), Relay: relay, Auth: a.Auth, Store: store, Log: a.log,
			OutboxShowLinks: a.cfg.Mail.OutboxShowLinks,
		})
	})
	return err
}

// gateways are the platform's that refunds go back through (beside sellers' own): Stripe when its
// keys are set, and outside production the test gateway, which took the payments of development and
// test stacks.
func (a *App) gateways() ([]payments.Gateway, error) {
	var out []payments.Gateway
	if a.cfg.Stripe.Enabled() {
		st, err := payments.NewStripe(a.cfg.Stripe)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	if a.cfg.Env != "production" {
		test, err := payments.NewTest(a.cfg.Env)
		if err != nil {
			return nil, err
		}
		out = append(out, test)
	}
	return out, nil
}

// Run serves HTTP until ctx ends, sweeping expired idempotency keys and abandoned uploads, following
// the changes the process caches and writing API key uses beside it.
func (a *App) Run(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return a.keys.Run(ctx) })
	g.Go(func() error { return a.uploads.Run(ctx) })
	g.Go(func() error { return a.fonts.Run(ctx) })
	g.Go(func() error { return a.cliparts.Run(ctx) })
	g.Go(func() error { return a.Auth.FollowChanges(ctx, a.cfg.Database, a.apiKeys.Changes()) })
	g.Go(func() error { return a.campaigns.FollowChanges(ctx, a.cfg.Database) })
	g.Go(func() error { return a.apiKeys.RecordUses(ctx) })
	g.Go(func() error { return server.Run(ctx, a.cfg.Server, a.Echo, a.log) })
	return g.Wait()
}

// Close releases connections.
func (a *App) Close() error {
	return errors.Join(a.queue.Close(), a.redis.Close(), a.DB.Close())
}
