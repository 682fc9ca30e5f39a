package service

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"golang.org/x/sync/errgroup"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/logging"
	"github.com/pressroom/pressroom/platform/periodic"
	"github.com/pressroom/pressroom/platform/ping"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/chromepool"
	"github.com/pressroom/pressroom/renderer/export"
	"github.com/pressroom/pressroom/renderer/imageapi"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/invoicetask"
	"github.com/pressroom/pressroom/renderer/membudget"
	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/mockuptask"
	"github.com/pressroom/pressroom/renderer/orderprint"
	"github.com/pressroom/pressroom/renderer/proxyimage"
	"github.com/pressroom/pressroom/renderer/sanitize"
	"github.com/pressroom/pressroom/renderer/tasks"
	"github.com/pressroom/pressroom/renderer/tiles"
	"github.com/pressroom/pressroom/renderer/variant"
	"github.com/pressroom/pressroom/renderer/webpenc"
)

// Config is the renderer service's whole configuration.
type Config struct {
	// HTTPAddr is the renderer's own HTTP server (PRESSROOM_RENDERER_HTTP_ADDR, default 127.0.0.1:8081).
	HTTPAddr string
	// Concurrency is how many render tasks run at once (PRESSROOM_RENDERER_CONCURRENCY, default 2:
	// rendering is CPU-bound, so about one per core).
	Concurrency int
	Log         logging.Config
	Database    database.Config
	Queue       queue.Config
	// Blob is the blob store shared with the bff and the worker (PRESSROOM_BLOB_*, PRESSROOM_S3_*).
	Blob blob.Config
	// Images bounds every image the renderer reads (PRESSROOM_IMAGE_MAX_PIXELS, PRESSROOM_IMAGE_MAX_BYTES).
	Images imagelimit.Config
	// UIDir is the built UI (PRESSROOM_UI_DIR, default ui/dist): its mockup3d.html and assets, with the
	// models and designs being rendered, are served on a loopback port of the renderer's own to its Chrome
	// pool. Without a built 3D page there is no pool (3D mockup tasks are retried, then fail) and a warning.
	UIDir string
	// Chrome is the pool drawing 3D mockups (PRESSROOM_CHROMIUM_PATH, PRESSROOM_CHROME_*).
	Chrome chromepool.Config
	// Mockup is the flat mockup renderer's template cache (PRESSROOM_MOCKUP_CACHE_BYTES) and limits.
	Mockup mockup.Config
	// MemoryBudget is the memory the renderer keeps to, in bytes (PRESSROOM_RENDERER_MEMORY_BUDGET,
	// default 1.5 GiB). Less what the Go runtime does not count (outsideGo), it is the runtime's soft
	// memory limit (GOMEMLIMIT, unless that is set); what is left of it after the flat mockup cache
	// and a reserve for everything else (pixelReserve) bounds the decoded pixels the running tasks hold
	// at once (package membudget).
	MemoryBudget int64
	// ImageProxy is the internal endpoint doing the bff image proxy's pixel work
	// (PRESSROOM_RENDERER_KEY, PRESSROOM_IMAGE_PROXY_MAX_BYTES, _MAX_PIXELS, _CONCURRENCY): its
	// decoded pixels come out of the same budget as the tasks'.
	ImageProxy proxyimage.Config
	// Production is PRESSROOM_ENV == "production" (default development): it demands a real blob
	// signing key, as a non-loopback HTTPAddr does.
	Production bool
}

// pixelReserve is the part of the memory budget kept for what is not decoded pixels: the runtime,
// buffers, encoders' state, database and Redis clients.
const pixelReserve = 256 << 20

// freeAfter is the bytes of pixels the tasks must have acquired, since the renderer last returned
// memory to the system, for it to do so again when its budget goes idle (a print file at 3x
// all-over-print size holds about 875 MB; a 2000 px mockup source 16 MB).
const freeAfter = 256 << 20

// outsideGo is the part of the memory budget left out of the Go runtime's memory limit: what the
// process holds that the runtime does not count (the binary's pages, cgo's WebP encoder, thread
// stacks) and the runtime's overshoot of a soft limit. The runtime lets garbage grow up to its limit
// before it works harder, so with the limit at the whole budget a renderer busy with 3x all-over-print
// jobs peaked at 1,567 MiB of its 1,536 (docs/performance.md#renderer-memory).
const outsideGo = 128 << 20

// goLimit is the Go runtime's memory limit.
func (c Config) goLimit() int64 { return c.MemoryBudget - outsideGo }

// pixelBudget is the bytes of decoded pixels the tasks may hold at once.
func (c Config) pixelBudget() int64 { return c.MemoryBudget - c.Mockup.CacheBytes - pixelReserve }

// LoadConfig reads every PRESSROOM_* variable the renderer service uses.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := Config{HTTPAddr: "127.0.0.1:8081", Concurrency: 2, MemoryBudget: 1536 << 20}
	r := env.NewReader(lookup)
	r.String(&cfg.HTTPAddr, "PRESSROOM_RENDERER_HTTP_ADDR")
	r.Int64(&cfg.MemoryBudget, "PRESSROOM_RENDERER_MEMORY_BUDGET")
	cfg.UIDir = "ui/dist"
	r.String(&cfg.UIDir, "PRESSROOM_UI_DIR")
	r.Int(&cfg.Concurrency, "PRESSROOM_RENDERER_CONCURRENCY")
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
	if cfg.Blob, err = blob.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	envName, _ := lookup("PRESSROOM_ENV")
	cfg.Production = envName == "production"
	if cfg.Mockup, err = mockup.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.Chrome, err = chromepool.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	if cfg.ImageProxy, err = proxyimage.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	cfg.Images, err = imagelimit.LoadConfig(lookup)
	return cfg, err
}

// Validate checks every part, naming the variable to fix.
func (c Config) Validate() error {
	if _, _, err := net.SplitHostPort(c.HTTPAddr); err != nil {
		return errors.New("PRESSROOM_RENDERER_HTTP_ADDR: want host:port, e.g. 127.0.0.1:8081")
	}
	if c.Concurrency < 1 {
		return fmt.Errorf("PRESSROOM_RENDERER_CONCURRENCY=%d: want at least 1", c.Concurrency)
	}
	if c.pixelBudget() < 128<<20 {
		return fmt.Errorf("PRESSROOM_RENDERER_MEMORY_BUDGET=%d: want at least 384 MiB more than PRESSROOM_MOCKUP_CACHE_BYTES (%d)",
			c.MemoryBudget, c.Mockup.CacheBytes)
	}
	for _, v := range []interface{ Validate() error }{c.Log, c.Database, c.Queue, c.Images, c.Chrome, c.ImageProxy} {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	if err := c.Blob.Validate(c.Production); err != nil {
		return err
	}
	// The public development keys only on a machine nobody else reaches.
	x := env.Exposure{Production: c.Production, AddrVar: "PRESSROOM_RENDERER_HTTP_ADDR", Addr: c.HTTPAddr}
	return errors.Join(c.Blob.ValidateKeys(x), c.ImageProxy.ValidateKeys(x))
}

// tempSweeper is a blob store whose writers leave temporary files behind when killed mid-Put (the
// local folder). The renderer, which writes most, sweeps them for every process sharing the folder.
type tempSweeper interface {
	SweepTemp(ctx context.Context, age time.Duration) (int, error)
}

// The sweep runs at start and hourly, removing temporary files a day old: far older than any upload.
const (
	sweepInterval = time.Hour
	tempMaxAge    = 24 * time.Hour
)

// Service is the assembled renderer.
type Service struct {
	cfg    Config
	log    *slog.Logger
	db     *sqlx.DB
	server *asynq.Server
	mux    *asynq.ServeMux
	store  blob.Store
	// images serves imageapi.Path, the image proxy's pixel work.
	images *proxyimage.Handler
	// closeChrome stops the Chrome pool and the loopback server of its page (a no-op without them).
	closeChrome func() error
}

// New connects, migrates and registers every task handler.
func New(ctx context.Context, cfg Config, log *slog.Logger) (*Service, error) {
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
	budget, err := membudget.New(cfg.pixelBudget())
	if err != nil {
		db.Close()
		return nil, err
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(cfg.goLimit())
	}
	mux := asynq.NewServeMux()
	// An idle renderer does not keep the peak of its last big job, nor of a batch of small ones.
	budget.OnIdle(freeAfter, debug.FreeOSMemory)
	mux.Use(queue.Logging(log), withBudget(budget))
	mux.Handle(ping.TypePing, ping.NewHandler(db, queue.Renderer))
	store, err := blob.New(cfg.Blob, cfg.Production)
	if err != nil {
		db.Close()
		return nil, err
	}
	sanitizer, err := sanitize.NewHandler(db, store, cfg.Images)
	if err != nil {
		db.Close()
		return nil, err
	}
	mux.Handle(tasks.TypeSanitize, sanitizer)
	encode := webpenc.Encode
	if !webpenc.Available {
		log.Warn("built without cgo: no WebP encoder, image variants will fail", "task", tasks.TypeVariant)
		// Retrying cannot help; failing at once lets the bff answer at once.
		encode = func(io.Writer, image.Image, int) error {
			return fmt.Errorf("%w: %w", webpenc.ErrUnavailable, asynq.SkipRetry)
		}
	}
	variants, err := variant.NewHandler(store, cfg.Images, encode)
	if err != nil {
		db.Close()
		return nil, err
	}
	mux.Handle(tasks.TypeVariant, variants)
	exporter, err := export.NewHandler(db, store, cfg.Images, log)
	if err != nil {
		db.Close()
		return nil, err
	}
	mux.Handle(tasks.TypeExport, exporter)
	pool, closeChrome, err := startChrome(cfg, log)
	if err != nil {
		db.Close()
		return nil, err
	}
	// The handlers take interfaces: a renderer without a pool hands them nil, not a nil *Pool.
	var renderer3D mockuptask.Renderer3D
	var printer invoicetask.Printer
	if pool != nil {
		renderer3D, printer = pool, pool
	}
	mockups, err := mockuptask.NewHandler(db, store, cfg.Mockup, renderer3D, log)
	if err != nil {
		closeChrome()
		db.Close()
		return nil, err
	}
	mux.Handle(tasks.TypeMockup, mockups)
	mux.Handle(tasks.TypeMockup3D, mockups)
	orderExporter, err := orderprint.NewExporter(db, store, cfg.Images, log)
	if err != nil {
		closeChrome()
		db.Close()
		return nil, err
	}
	mux.Handle(tasks.TypeOrderExport, orderExporter)
	tiler, err := orderprint.NewTiler(db, store, cfg.Images, tiles.Options{}, log)
	if err != nil {
		closeChrome()
		db.Close()
		return nil, err
	}
	mux.Handle(tasks.TypeTiles, tiler)
	invoicePDFs, err := invoicetask.NewHandler(db, store, printer, log)
	if err != nil {
		closeChrome()
		db.Close()
		return nil, err
	}
	mux.Handle(tasks.TypeInvoicePDF, invoicePDFs)
	images, err := proxyimage.New(cfg.ImageProxy, budget, log)
	if err != nil {
		closeChrome()
		db.Close()
		return nil, err
	}
	return &Service{
		cfg: cfg, log: log, db: db, mux: mux, store: store, closeChrome: closeChrome, images: images,
		server: queue.NewServer(cfg.Queue, queue.Renderer, cfg.Concurrency, log),
	}, nil
}

// withBudget gives every task the renderer's memory budget (see membudget).
func withBudget(b *membudget.Budget) asynq.MiddlewareFunc {
	return func(next asynq.Handler) asynq.Handler {
		return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
			return next.ProcessTask(membudget.WithBudget(ctx, b), t)
		})
	}
}

// startChrome starts the Chrome pool of 3D mockups and printed invoices over the built pages of
// cfg.UIDir, served on a loopback port; browsers start with the first render. Without a built UI it
// logs a warning and returns no pool.
func startChrome(cfg Config, log *slog.Logger) (*chromepool.Pool, func() error, error) {
	site, err := chromepool.NewSite(cfg.UIDir)
	if err != nil {
		log.Warn("no 3D mockups or invoices on this renderer", "err", err)
		return nil, func() error { return nil }, nil
	}
	base, stopSite, err := site.Listen()
	if err != nil {
		return nil, nil, err
	}
	pool, err := chromepool.New(cfg.Chrome, site, base, log)
	if err != nil {
		stopSite()
		return nil, nil, err
	}
	return pool, func() error { return errors.Join(pool.Close(), stopSite()) }, nil
}

// Run processes render tasks and serves HTTP until ctx ends.
func (s *Service) Run(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.cfg.HTTPAddr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"success":true,"message":"","data":{"status":"ok"},"errors":[]}`))
	})
	mux.Handle(imageapi.Path, s.images)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute}
	s.log.Info("renderer started", "addr", "http://"+ln.Addr().String(), "queues", queue.Queues(queue.Renderer),
		"concurrency", s.cfg.Concurrency)
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return queue.Serve(ctx, s.server, s.mux) })
	g.Go(func() error { return queue.Rescue(ctx, s.cfg.Queue, queue.Renderer, s.log) })
	if sweeper, ok := s.store.(tempSweeper); ok {
		sweep := func(ctx context.Context) (int, error) { return sweeper.SweepTemp(ctx, tempMaxAge) }
		g.Go(func() error {
			return periodic.Run(ctx, sweepInterval, s.log, sweep, "blob temp sweep", "blob temporary files removed")
		})
	}
	g.Go(func() error {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	})
	g.Go(func() error {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	})
	if err := g.Wait(); err != nil {
		return err
	}
	s.log.Info("renderer stopped")
	return nil
}

// Close stops the Chrome pool and releases connections.
func (s *Service) Close() error { return errors.Join(s.closeChrome(), s.db.Close()) }
