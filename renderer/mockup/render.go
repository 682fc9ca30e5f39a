package mockup

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"image"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/pressroom/pressroom/renderer/raster"
)

// Renderer places print files on flat mockup templates. It keeps the templates it has prepared (see
// Config.CacheBytes) and is safe for concurrent use.
type Renderer struct {
	loader raster.Loader
	cfg    Config
	cache  *cache
}

// New returns a renderer reading template images through loader (raster.DirLoader on the command line,
// the blob store in the service).
func New(cfg Config, loader raster.Loader) (*Renderer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if loader == nil {
		return nil, errors.New("mockup: nil loader")
	}
	cfg.CacheBytes = cmp.Or(cfg.CacheBytes, DefaultCacheBytes)
	return &Renderer{loader: loader, cfg: cfg, cache: newCache(cfg.CacheBytes)}, nil
}

// Options tune one render. The zero value renders at DefaultSize in the template's colour.
type Options struct {
	// Color is the product colour, #rgb or #rrggbb; empty means the template's colour.
	Color string
	// Size is the output's long side: one of the template's sizes. 0 means DefaultSize (2000);
	// PreviewSize (500) is the preview's long side.
	Size int
	// Concurrency is how many goroutines share the pixel work; 0 means runtime.GOMAXPROCS(0).
	Concurrency int
	// Observe, when set, is called after every step with its name and duration.
	Observe func(step string, elapsed time.Duration)
}

// step is one stage of a render; the context is checked before each.
type step struct {
	Name string
	Run  func(ctx context.Context, s *state) error
}

// state is what the steps of one render share.
type state struct {
	r       *Renderer
	tpl     *Template
	print   image.Image
	size    int
	color   [3]uint8
	workers int
	p       *prepared
	out     *image.RGBA
}

// Render places the print file (the design rendered at its export size, any image type; transparent
// where nothing is printed) on the template: the base photo tinted by the product colour, the print
// warped into the print-area quad, displaced, shaded and masked, composited over. The result is
// premultiplied RGBA at the template's output size for opt.Size.
func (r *Renderer) Render(ctx context.Context, printFile image.Image, tpl *Template, opt Options) (*image.RGBA, error) {
	if tpl == nil {
		return nil, fmt.Errorf("%w: nil template", ErrInvalidTemplate)
	}
	// Parse validated it, but a Template may also be built or edited in code
	if err := tpl.validate(); err != nil {
		return nil, err
	}
	if printFile == nil || printFile.Bounds().Empty() {
		return nil, fmt.Errorf("%w: empty print file", ErrInvalidOptions)
	}
	s := &state{r: r, tpl: tpl, print: printFile, size: cmp.Or(opt.Size, DefaultSize), workers: opt.Concurrency}
	if s.workers <= 0 {
		s.workers = runtime.GOMAXPROCS(0)
	}
	if !sizeListed(tpl.Sizes, s.size) {
		return nil, fmt.Errorf("%w: size %d: template %s has sizes %v", ErrInvalidOptions, s.size, tpl.ID, tpl.Sizes)
	}
	c, err := ParseColor(cmp.Or(opt.Color, tpl.Color))
	if err != nil {
		return nil, fmt.Errorf("%w: color %v", ErrInvalidOptions, err)
	}
	s.color = [3]uint8{c.R, c.G, c.B}
	for _, st := range []step{templateStep(), tintStep(), placeStep()} {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		start := time.Now()
		if err := st.Run(ctx, s); err != nil {
			return nil, err
		}
		if opt.Observe != nil {
			opt.Observe(st.Name, time.Since(start))
		}
	}
	return s.out, nil
}

func sizeListed(sizes []int, size int) bool {
	for _, s := range sizes {
		if s == size {
			return true
		}
	}
	return false
}

// templateStep gets the prepared template from the cache (preparing it the first time) and starts the
// output as a copy of its base photo.
func templateStep() step {
	return step{"template", func(ctx context.Context, s *state) error {
		key := cacheKey{id: s.tpl.ID, fingerprint: s.tpl.Fingerprint(), size: s.size}
		p, err := s.r.cache.get(ctx, key, func() (*prepared, error) { return s.r.prepare(ctx, s.tpl, s.size) })
		if err != nil {
			return err
		}
		s.p = p
		// slices.Clone skips zeroing memory it is about to overwrite: 16 MB at 2000 px
		s.out = &image.RGBA{Pix: slices.Clone(p.base.Pix), Stride: p.base.Stride, Rect: p.base.Rect}
		return nil
	}}
}

// parallelRows runs fn over [y0, y1) cut into bands, one per worker.
func parallelRows(ctx context.Context, workers, y0, y1 int, fn func(y0, y1 int)) error {
	n := y1 - y0
	if workers <= 1 || n < 64 {
		fn(y0, y1)
		return ctx.Err()
	}
	band := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for a := y0; a < y1; a += band {
		b := min(a+band, y1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ctx.Err() == nil {
				fn(a, b)
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}
