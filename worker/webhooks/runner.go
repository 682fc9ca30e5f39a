package webhooks

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/webhooks"
	"github.com/pressroom/pressroom/platform/periodic"
)

// excerpt is how much of an answer's body an attempt keeps, and all that is read of it.
const excerpt = 1024

// maxRounds caps the claim rounds of one pass, so a pass ends even while deliveries keep coming due.
const maxRounds = 50

// Runner fans events out and sends deliveries.
type Runner struct {
	cfg    Config
	db     *sqlx.DB
	client *http.Client
	log    *slog.Logger
}

// New validates cfg and builds the runner and its guarded HTTP client.
func New(cfg Config, db *sqlx.DB, log *slog.Logger) (*Runner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if db == nil {
		return nil, errors.New("webhooks: db is required")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	dialer := &net.Dialer{Timeout: cfg.Timeout, KeepAlive: 30 * time.Second, Control: cfg.Hooks.Policy().Control}
	client := &http.Client{
		Transport: &http.Transport{
			Proxy:                  nil, // an environment proxy would dial for us, unchecked
			DialContext:            dialer.DialContext,
			ForceAttemptHTTP2:      true,
			TLSHandshakeTimeout:    cfg.Timeout,
			ResponseHeaderTimeout:  cfg.Timeout,
			MaxResponseHeaderBytes: 64 << 10,
			MaxIdleConns:           128,
			MaxIdleConnsPerHost:    cfg.Concurrency,
			IdleConnTimeout:        90 * time.Second,
		},
		// A redirect is an answer like any other non-2xx: not followed, so it never leads a
		// delivery somewhere the seller did not save.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       cfg.Timeout,
	}
	return &Runner{cfg: cfg, db: db, client: client, log: log}, nil
}

// Run makes a pass every interval until ctx ends.
func (r *Runner) Run(ctx context.Context) error {
	return periodic.Run(ctx, r.cfg.Interval, r.log, r.Pass, "webhook deliveries", "webhook deliveries sent")
}

// Pass fans every new event out into deliveries, then sends the due deliveries, a claimed batch
// at a time, until none is due (or maxRounds batches), and answers how many tries it made.
func (r *Runner) Pass(ctx context.Context) (int, error) {
	for {
		n, err := webhooks.FanOut(ctx, r.db, r.cfg.Hooks.RetryFor, r.cfg.Batch)
		if err != nil {
			return 0, err
		}
		if n < r.cfg.Batch {
			break
		}
	}
	tries := 0
	limit := r.cfg.Concurrency * 4
	for range maxRounds {
		due, err := webhooks.Claim(ctx, r.db, time.Now(), r.cfg.Timeout+30*time.Second, limit)
		if err != nil {
			return tries, err
		}
		if err := r.sendAll(ctx, due); err != nil {
			return tries + len(due), err
		}
		tries += len(due)
		if len(due) < limit {
			break
		}
	}
	return tries, nil
}

// sendAll sends every claimed delivery, Concurrency at a time, and records the outcomes together.
func (r *Runner) sendAll(ctx context.Context, due []webhooks.Due) error {
	sem := make(chan struct{}, r.cfg.Concurrency)
	var wg sync.WaitGroup
	outcomes := make([]webhooks.Outcome, len(due))
	for i, d := range due {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			a := r.try(ctx, d)
			if !a.Succeeded() {
				attrs := []any{"delivery_id", d.ID, "endpoint_id", d.Endpoint.ID, "err", a.Error}
				if a.StatusCode != nil { // none when no answer came
					attrs = append(attrs, "status", *a.StatusCode)
				}
				r.log.Warn("webhook delivery failed", attrs...)
			}
			outcomes[i] = webhooks.Outcome{Due: d, Attempt: a, Wait: webhooks.Backoff(d.Attempts+1, r.cfg.RetryBase, r.cfg.RetryMax)}
		})
	}
	wg.Wait()
	// Outcomes are recorded even when ctx ends: a try that was made stays logged.
	off, err := webhooks.Record(context.WithoutCancel(ctx), r.db, outcomes, r.cfg.Hooks.RetryFor)
	for _, id := range off {
		r.log.Warn("webhook endpoint turned off", "endpoint_id", id)
	}
	return err
}

// try sends one delivery once and describes what happened.
func (r *Runner) try(ctx context.Context, d webhooks.Due) webhooks.Attempt {
	start := time.Now()
	a := webhooks.Attempt{DeliveryID: d.ID, AttemptedAt: start}
	done := func() webhooks.Attempt {
		a.LatencyMS = int(time.Since(start).Milliseconds())
		return a
	}
	req, err := r.cfg.Hooks.Build(d.Endpoint, d.Delivery, start)
	if err != nil {
		a.Error = err.Error()
		return done()
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		a.Error = "bad address: " + err.Error()
		return done()
	}
	hr.Header = req.Header
	resp, err := r.client.Do(hr)
	if err != nil {
		a.Error = describe(err, d.Endpoint)
		return done()
	}
	defer resp.Body.Close()
	code := resp.StatusCode
	a.StatusCode = &code
	// Only the excerpt is read: a receiver answering megabytes costs a kilobyte and the connection.
	b, err := io.ReadAll(io.LimitReader(resp.Body, excerpt))
	a.Response = strings.ToValidUTF8(string(b), string(utf8.RuneError))
	if err != nil && !a.Succeeded() {
		a.Error = describe(err, d.Endpoint)
	}
	return done()
}

// describe is an error of a try as the log shows it, without the bot token of a Telegram address.
func describe(err error, e webhooks.Endpoint) string {
	s := err.Error()
	if e.Kind == webhooks.KindTelegram && e.URL != "" {
		s = strings.ReplaceAll(s, e.URL, "<token>")
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timed out: " + s
	}
	return s
}
