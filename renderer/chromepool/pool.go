package chromepool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"net/url"
	"os"
	"regexp"
	"sync"
	"time"

	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/pngdec"
)

// Errors of Render.
var (
	// ErrBusy: every browser is busy and the queue is full. Try again later (a task retries).
	ErrBusy = errors.New("chromepool: busy, the render queue is full")
	// ErrClosed: the pool is closed or closing.
	ErrClosed = errors.New("chromepool: closed")
	// ErrBlank: the page drew nothing but the background twice in a row.
	ErrBlank = errors.New("chromepool: the 3D render came back blank")
	// ErrCrashed: the browser died during the render and again on its retry with a fresh browser.
	ErrCrashed = errors.New("chromepool: the browser died during the render")
)

// Job is one mockup to render.
type Job struct {
	// Model is a demo model's name (models.Names) unless ModelGLB is set.
	Model string
	// ModelGLB is a GLB model of the caller's (a designer's file): it overrides Model.
	ModelGLB []byte
	// Design is the design image (PNG, or any format Chromium decodes), mapped onto the print mesh.
	Design []byte
	// Color is the product colour, #rgb or #rrggbb, of the model's mesh named "body" (the garment, the
	// mug); the print keeps the design's colours. Empty keeps the model's own colour.
	Color string
}

// Stats is a snapshot of the pool's counters.
type Stats struct {
	// Started counts browsers started; Crashed those found dead; Recycled those replaced after
	// RecycleAfter renders.
	Started, Crashed, Recycled int
	// Rendered counts successful renders; Retried the attempts repeated after a crash or a blank frame.
	Rendered, Retried int
	// PIDs are the main processes of the running browsers (each leads its process group).
	PIDs []int
}

// Document is a page to print as a PDF: one of Site's pages (InvoicePagePath), whose function Call
// draws Data and resolves once the page is ready to print.
type Document struct {
	// Page is the page's path on Site.
	Page string
	// Call is the name of the page's function on window, e.g. "renderInvoice".
	Call string
	// Data is the JSON value Call takes.
	Data []byte
}

// callName is what a Document's Call may be: a plain identifier, evaluated as window.<Call>.
var callName = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

type request struct {
	ctx  context.Context
	job  Job
	doc  *Document // a PDF to print instead of job
	done chan result
}

// Shot is a rendered mockup: the page's canvas as PNG, and decoded, as the pool decoded it to check that
// it is not blank.
type Shot struct {
	PNG   []byte
	Image image.Image
}

type result struct {
	shot Shot
	pdf  []byte
	err  error
}

// Pool is the supervisor of the browsers.
type Pool struct {
	cfg    Config
	site   *Site
	origin string
	log    *slog.Logger
	queue  chan *request
	quit   chan struct{}
	wg     sync.WaitGroup

	closeOnce sync.Once
	mu        sync.Mutex
	stats     Stats
	running   map[int]*browser // by worker
}

// New starts cfg.Browsers workers that render pages of site, which must be served at baseURL
// (http://host:port). Browsers start on the first render and after each replacement.
func New(cfg Config, site *Site, baseURL string, log *slog.Logger) (*Pool, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := becomeSubreaper(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.profileDir(), 0o700); err != nil {
		return nil, fmt.Errorf("chromepool: profile folder (PRESSROOM_CHROME_PROFILE_DIR): %w", err)
	}
	removed, err := removeStaleProfiles(cfg.profileDir())
	if err != nil {
		log.Warn("removing stale Chrome profiles", "err", err)
	}
	if removed > 0 {
		log.Info("removed Chrome profiles a killed renderer left", "count", removed, "dir", cfg.profileDir())
	}
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
		return nil, fmt.Errorf("chromepool: base URL %q: want http://host:port of the renderer's own server", baseURL)
	}
	p := &Pool{
		cfg: cfg, site: site, origin: u.Scheme + "://" + u.Host, log: log,
		queue: make(chan *request, cfg.QueueSize), quit: make(chan struct{}), running: map[int]*browser{},
	}
	for w := range cfg.Browsers {
		p.wg.Add(1)
		go p.work(w)
	}
	return p, nil
}

// Render draws job and returns the mockup of cfg.Width x cfg.Height. It waits for a browser while
// the queue has room and answers ErrBusy when it has none. ctx bounds the wait and the render.
func (p *Pool) Render(ctx context.Context, job Job) (Shot, error) {
	if job.ModelGLB == nil && p.site.ModelPath(job.Model) == "" {
		return Shot{}, fmt.Errorf("chromepool: unknown model %q", job.Model)
	}
	if len(job.Design) == 0 {
		return Shot{}, errors.New("chromepool: no design image")
	}
	if job.Color != "" {
		c, err := mockup.ParseColor(job.Color)
		if err != nil {
			return Shot{}, fmt.Errorf("chromepool: product colour %w", err)
		}
		// The page gets one spelling.
		job.Color = fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
	}
	r := p.do(&request{ctx: ctx, job: job, done: make(chan result, 1)})
	return r.shot, r.err
}

// PrintPDF prints doc as an A4 PDF in one of the pool's browsers, queued with the renders under the
// same bound (ErrBusy) and retried once on a fresh browser when the browser dies.
func (p *Pool) PrintPDF(ctx context.Context, doc Document) ([]byte, error) {
	if doc.Page != InvoicePagePath {
		return nil, fmt.Errorf("chromepool: no page %q to print", doc.Page)
	}
	if !callName.MatchString(doc.Call) {
		return nil, fmt.Errorf("chromepool: %q is not a page function's name", doc.Call)
	}
	if !json.Valid(doc.Data) {
		return nil, errors.New("chromepool: the document's data is not JSON")
	}
	r := p.do(&request{ctx: ctx, doc: &doc, done: make(chan result, 1)})
	return r.pdf, r.err
}

// do queues req and waits for its result.
func (p *Pool) do(req *request) result {
	select {
	case <-p.quit:
		return result{err: ErrClosed}
	default:
	}
	select {
	case p.queue <- req:
	default:
		return result{err: ErrBusy}
	}
	select {
	case r := <-req.done:
		return r
	case <-req.ctx.Done():
		return result{err: req.ctx.Err()}
	}
}

// Stats returns the counters and the running browsers' process ids.
func (p *Pool) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.stats
	s.PIDs = nil
	for _, b := range p.running {
		s.PIDs = append(s.PIDs, b.pid)
	}
	return s
}

// Close stops taking renders, fails those still queued with ErrClosed, and stops every browser,
// waiting until their processes are gone and their profiles removed.
func (p *Pool) Close() error {
	p.closeOnce.Do(func() { close(p.quit) })
	p.wg.Wait()
	for {
		select {
		case req := <-p.queue:
			req.done <- result{err: ErrClosed}
		default:
			return nil
		}
	}
}

// work is one browser slot: it takes renders from the queue, starting and replacing its browser.
func (p *Pool) work(w int) {
	defer p.wg.Done()
	var b *browser
	defer func() {
		if b != nil {
			p.retire(w, b, "pool closed")
		}
	}()
	for {
		select {
		case <-p.quit:
			return
		case req := <-p.queue:
			var res result
			b, res = p.serve(w, b, req)
			req.done <- res
		}
	}
}

// serve renders one request, at most twice: once more on a fresh browser after a crash, or after a
// blank frame. It returns the browser to keep (nil when it was retired).
func (p *Pool) serve(w int, b *browser, req *request) (*browser, result) {
	var res result
	for attempt := 1; attempt <= 2; attempt++ {
		if err := req.ctx.Err(); err != nil {
			return b, result{err: err}
		}
		if b == nil {
			var err error
			if b, err = p.launch(w); err != nil {
				return nil, result{err: err}
			}
		}
		res = p.attempt(req, b)
		b.renders++
		if res.err != nil {
			// A dead browser's context ends a moment after its connection drops.
			select {
			case <-b.ctx.Done():
			case <-time.After(time.Second):
			}
		}
		retry := false
		switch {
		case res.err != nil && req.ctx.Err() == nil && errors.Is(res.err, context.DeadlineExceeded) && b.alive():
			// The attempt ran out of time in a live browser: it may be wedged, so it goes.
			p.retire(w, b, "render timed out")
			b = nil
		case !b.alive():
			p.count(func(s *Stats) { s.Crashed++ })
			p.retire(w, b, "crashed")
			b = nil
			if req.ctx.Err() == nil {
				res.err, retry = fmt.Errorf("%w: %w", ErrCrashed, res.err), true
			}
		case b.renders >= p.cfg.RecycleAfter:
			p.count(func(s *Stats) { s.Recycled++ })
			p.retire(w, b, "recycled")
			b = nil
		}
		if errors.Is(res.err, ErrBlank) {
			retry = true
		}
		if res.err == nil || !retry || attempt == 2 {
			break
		}
		p.count(func(s *Stats) { s.Retried++ })
		p.log.Warn("retrying 3D render", "attempt", attempt, "err", res.err)
	}
	if res.err == nil {
		p.count(func(s *Stats) { s.Rendered++ })
	}
	return b, res
}

// attempt serves the request's files, renders once in b and checks the mockup; or prints its document.
func (p *Pool) attempt(req *request, b *browser) result {
	if req.doc != nil {
		return p.print(req, b)
	}
	designPath, releaseDesign := p.site.register(req.job.Design, "image/png")
	defer releaseDesign()
	modelPath := p.site.ModelPath(req.job.Model)
	if req.job.ModelGLB != nil {
		var releaseModel func()
		modelPath, releaseModel = p.site.register(req.job.ModelGLB, "model/gltf-binary")
		defer releaseModel()
	}
	deadline := time.Now().Add(p.cfg.RenderTimeout)
	if b.tab == nil {
		t, err := openTab(req.ctx, b, p.origin, PagePath, p.cfg.Width, p.cfg.Height, deadline, p.cfg.OnBlocked)
		if err != nil {
			return result{err: fmt.Errorf("chromepool: render: %w", err)}
		}
		b.tab = t
	}
	shot, err := b.tab.draw(req.ctx, pageJob{Model: modelPath, Design: designPath, Color: req.job.Color, Width: p.cfg.Width, Height: p.cfg.Height}, deadline)
	if err != nil || b.tab.renders >= p.cfg.RendersPerTab {
		// A page that failed is not trusted with another render.
		b.tab.close()
		b.tab = nil
	}
	if err != nil {
		return result{err: fmt.Errorf("chromepool: render: %w", err)}
	}
	img, err := pngdec.Decode(bytes.NewReader(shot))
	if err != nil {
		return result{err: fmt.Errorf("chromepool: decode the mockup PNG: %w", err)}
	}
	if blank(img) {
		return result{err: ErrBlank}
	}
	return result{shot: Shot{PNG: shot, Image: img}}
}

// print prints the request's document in a tab of its own, closed afterwards: the 3D page's tab stays
// warm for the mockups.
func (p *Pool) print(req *request, b *browser) result {
	deadline := time.Now().Add(p.cfg.RenderTimeout)
	// A4 at 96 CSS pixels per inch.
	t, err := openTab(req.ctx, b, p.origin, req.doc.Page, 794, 1123, deadline, p.cfg.OnBlocked)
	if err != nil {
		return result{err: fmt.Errorf("chromepool: print: %w", err)}
	}
	defer t.close()
	pdf, err := t.print(req.ctx, *req.doc, deadline)
	if err != nil {
		return result{err: fmt.Errorf("chromepool: print: %w", err)}
	}
	return result{pdf: pdf}
}

func (p *Pool) launch(w int) (*browser, error) {
	b, err := startBrowser(p.cfg)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.stats.Started++
	p.running[w] = b
	p.mu.Unlock()
	return b, nil
}

func (p *Pool) retire(w int, b *browser, why string) {
	p.mu.Lock()
	delete(p.running, w)
	p.mu.Unlock()
	if err := b.stop(); err != nil {
		p.log.Error("stopping browser", "pid", b.pid, "why", why, "err", err)
	}
}

func (p *Pool) count(f func(*Stats)) {
	p.mu.Lock()
	f(&p.stats)
	p.mu.Unlock()
}
