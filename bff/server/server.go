package server

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/labstack/gommon/bytes"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/publicurl"
)

// Config is the HTTP side of the bff.
type Config struct {
	// Addr is where the bff listens (PRESSROOM_HTTP_ADDR, default 127.0.0.1:8080).
	Addr string
	// UIDir holds the built UI (PRESSROOM_UI_DIR, default ui/dist); empty serves no UI.
	UIDir string
	// BodyLimit caps request bodies (PRESSROOM_HTTP_BODY_LIMIT, default 1M; uploads go to blob
	// storage directly, never through JSON bodies).
	BodyLimit string
	// TrustProxy takes the client address from X-Forwarded-For, for a bff behind a reverse proxy
	// (PRESSROOM_TRUST_PROXY, default false: the address of the connection, which cannot be forged).
	TrustProxy bool
	// ShutdownTimeout is how long in-flight requests get on stop (PRESSROOM_HTTP_SHUTDOWN_TIMEOUT, default 15s).
	ShutdownTimeout time.Duration
	// ContentOrigins are the origins besides the bff's own that the UI loads blobs from and uploads
	// them to (the blob store's browser-facing origins), named in the Content-Security-Policy. Set
	// by the app, not the environment.
	ContentOrigins []string
	// InlineScriptPaths are path prefixes whose pages come from a third-party tool that writes inline
	// scripts (the queue monitor): their Content-Security-Policy allows them. Set by the app.
	InlineScriptPaths []string
	// ReadHeaderTimeout bounds reading a request's headers (PRESSROOM_HTTP_READ_HEADER_TIMEOUT,
	// default 10s), so a client that sends them slowly cannot hold a connection.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request, body included (PRESSROOM_HTTP_READ_TIMEOUT,
	// default 30s); the routes of BodyLimitExempt get TransferTimeout instead.
	ReadTimeout time.Duration
	// WriteTimeout bounds a request from the end of its headers to the end of its answer
	// (PRESSROOM_HTTP_WRITE_TIMEOUT, default 2m: above the longest wait a handler makes, the 30s of a
	// first variant); the routes of BodyLimitExempt get TransferTimeout instead.
	WriteTimeout time.Duration
	// IdleTimeout closes a kept-alive connection with no request (PRESSROOM_HTTP_IDLE_TIMEOUT, default 2m).
	IdleTimeout time.Duration
	// TransferTimeout bounds reading and answering a request on the routes that stream files
	// through the bff, BodyLimitExempt (PRESSROOM_HTTP_TRANSFER_TIMEOUT, default 30m: a 200 MiB
	// upload at about 1 Mbit/s).
	TransferTimeout time.Duration
	// BodyLimitExempt are route paths, as registered (e.g. "/blobs/*"), whose handlers cap their
	// own bodies and stream files: the blob store's PUT and GET and the multipart upload. They get
	// TransferTimeout rather than the read and write timeouts. Set by the app, not the environment.
	BodyLimitExempt []string
	// ProfileAddr, when set, serves the Go runtime's profiles (net/http/pprof, /debug/pprof/) on
	// this address, apart from the API (PRESSROOM_PPROF_ADDR, default empty: not served). It must
	// be a loopback address: profiles tell a lot about a process and cost CPU while taken.
	ProfileAddr string
}

// DefaultConfig listens on loopback port 8080 (publicurl.DefaultHTTPAddr, which the default public
// address is derived from) and serves ui/dist.
func DefaultConfig() Config {
	return Config{
		Addr: publicurl.DefaultHTTPAddr, UIDir: "ui/dist", BodyLimit: "1M", ShutdownTimeout: 15 * time.Second,
		ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 2 * time.Minute,
		IdleTimeout: 2 * time.Minute, TransferTimeout: 30 * time.Minute,
	}
}

// LoadConfig reads the PRESSROOM_HTTP_* variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.String(&cfg.Addr, "PRESSROOM_HTTP_ADDR")
	r.String(&cfg.UIDir, "PRESSROOM_UI_DIR")
	r.String(&cfg.BodyLimit, "PRESSROOM_HTTP_BODY_LIMIT")
	r.Bool(&cfg.TrustProxy, "PRESSROOM_TRUST_PROXY")
	r.Duration(&cfg.ShutdownTimeout, "PRESSROOM_HTTP_SHUTDOWN_TIMEOUT")
	r.Duration(&cfg.ReadHeaderTimeout, "PRESSROOM_HTTP_READ_HEADER_TIMEOUT")
	r.Duration(&cfg.ReadTimeout, "PRESSROOM_HTTP_READ_TIMEOUT")
	r.Duration(&cfg.WriteTimeout, "PRESSROOM_HTTP_WRITE_TIMEOUT")
	r.Duration(&cfg.IdleTimeout, "PRESSROOM_HTTP_IDLE_TIMEOUT")
	r.Duration(&cfg.TransferTimeout, "PRESSROOM_HTTP_TRANSFER_TIMEOUT")
	r.String(&cfg.ProfileAddr, "PRESSROOM_PPROF_ADDR")
	return cfg, r.Err()
}

// Validate reports the first setting that cannot work, naming its variable.
func (c Config) Validate() error {
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return errors.New("PRESSROOM_HTTP_ADDR: want host:port, e.g. 127.0.0.1:8080")
	}
	if n, err := bytes.Parse(c.BodyLimit); err != nil || n <= 0 {
		return errors.New("PRESSROOM_HTTP_BODY_LIMIT: want a size such as 512K or 1M")
	}
	if c.ShutdownTimeout < 0 {
		return errors.New("PRESSROOM_HTTP_SHUTDOWN_TIMEOUT must not be negative")
	}
	for _, t := range []struct {
		d    time.Duration
		name string
	}{
		{c.ReadHeaderTimeout, "PRESSROOM_HTTP_READ_HEADER_TIMEOUT"}, {c.ReadTimeout, "PRESSROOM_HTTP_READ_TIMEOUT"},
		{c.WriteTimeout, "PRESSROOM_HTTP_WRITE_TIMEOUT"}, {c.IdleTimeout, "PRESSROOM_HTTP_IDLE_TIMEOUT"},
		{c.TransferTimeout, "PRESSROOM_HTTP_TRANSFER_TIMEOUT"},
	} {
		if t.d <= 0 {
			return errors.New(t.name + " must be positive")
		}
	}
	if c.ProfileAddr != "" && !env.Loopback(c.ProfileAddr) {
		return errors.New("PRESSROOM_PPROF_ADDR: want a loopback address such as 127.0.0.1:6060")
	}
	if c.ReadHeaderTimeout > c.ReadTimeout {
		return errors.New("PRESSROOM_HTTP_READ_HEADER_TIMEOUT must not exceed PRESSROOM_HTTP_READ_TIMEOUT")
	}
	return nil
}

// New builds the echo instance; register adds the feature routes before the UI fallback.
func New(cfg Config, log *slog.Logger, register func(e *echo.Echo)) (*echo.Echo, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = envelope.ErrorHandler(log)
	e.IPExtractor = echo.ExtractIPDirect()
	if cfg.TrustProxy {
		e.IPExtractor = echo.ExtractIPFromXFFHeader()
	}
	e.Use(
		middleware.RequestID(),
		requestLog(log),
		middleware.Recover(),
		securityHeaders(cfg.ContentOrigins, cfg.InlineScriptPaths, cfg.TrustProxy),
		middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{
			Limit:   cfg.BodyLimit,
			Skipper: func(c echo.Context) bool { return slices.Contains(cfg.BodyLimitExempt, c.Path()) },
		}),
		transferDeadlines(cfg),
	)
	register(e)
	e.GET("/*", uiHandler(cfg.UIDir))
	e.HEAD("/*", uiHandler(cfg.UIDir))
	return e, nil
}

func requestLog(log *slog.Logger) echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogURIPath: true, LogMethod: true, LogLatency: true, LogRequestID: true,
		LogRemoteIP: true, HandleError: true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			level := slog.LevelInfo
			if v.Status >= 500 {
				level = slog.LevelError
			}
			log.LogAttrs(c.Request().Context(), level, "request",
				slog.String("method", v.Method), slog.String("path", v.URIPath), slog.Int("status", v.Status),
				slog.Duration("took", v.Latency), slog.String("request_id", v.RequestID), slog.String("ip", v.RemoteIP))
			return nil
		},
	})
}

// transferDeadlines gives the routes that stream files (BodyLimitExempt) TransferTimeout to read
// the request and answer, in place of the server's read and write timeouts.
func transferDeadlines(cfg Config) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if slices.Contains(cfg.BodyLimitExempt, c.Path()) {
				rc := http.NewResponseController(c.Response())
				deadline := time.Now().Add(cfg.TransferTimeout)
				if err := errors.Join(rc.SetReadDeadline(deadline), rc.SetWriteDeadline(deadline)); err != nil {
					return err
				}
			}
			return next(c)
		}
	}
}

// httpServer is the HTTP server of e with cfg's timeouts.
func httpServer(cfg Config, e *echo.Echo) *http.Server {
	return &http.Server{
		Addr: cfg.Addr, Handler: e,
		ReadHeaderTimeout: cfg.ReadHeaderTimeout, ReadTimeout: cfg.ReadTimeout,
		WriteTimeout: cfg.WriteTimeout, IdleTimeout: cfg.IdleTimeout,
	}
}

// Run serves until ctx ends, then lets in-flight requests finish within the shutdown timeout.
func Run(ctx context.Context, cfg Config, e *echo.Echo, log *slog.Logger) error {
	srv := httpServer(cfg, e)
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	log.Info("bff listening", "addr", "http://"+ln.Addr().String())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if cfg.ProfileAddr != "" {
		stop, err := serveProfiles(cfg.ProfileAddr, log)
		if err != nil {
			srv.Close()
			return err
		}
		defer stop()
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("bff stopped")
	return nil
}
