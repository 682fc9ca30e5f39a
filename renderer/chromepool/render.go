package chromepool

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"iter"
	"net/url"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// pageJob is what window.renderMockup3d takes (ui/src/mockup3d/api.ts).
type pageJob struct {
	Model  string `json:"model"`
	Design string `json:"design"`
	Color  string `json:"color"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// pngDataURL is how the page's answer starts: a PNG of the canvas, base64-encoded.
const pngDataURL = "data:image/png;base64,"

// tab is one page of a browser with the 3D page loaded and every request it makes checked by guard.
type tab struct {
	ctx     context.Context
	close   context.CancelFunc
	renders int
}

// openTab opens a tab in b, sets its viewport to width x height and loads page (a path of Site) from
// origin, all before deadline or until caller ends.
func openTab(caller context.Context, b *browser, origin, page string, width, height int, deadline time.Time, onBlocked func(string)) (*tab, error) {
	tabCtx, closeTab := chromedp.NewContext(b.ctx)
	ctx, cancel := context.WithDeadline(tabCtx, deadline)
	defer cancel()
	defer context.AfterFunc(caller, cancel)()
	// The first action on a context creates its tab and ties the tab's life to that context, so it runs
	// on tabCtx itself; the deadline is kept by waiting for it here.
	opened := make(chan error, 1)
	go func() { opened <- chromedp.Do(tabCtx) }()
	select {
	case err := <-opened:
		if err != nil {
			closeTab()
			return nil, fmt.Errorf("open tab: %w", err)
		}
	case <-ctx.Done():
		closeTab()
		<-opened
		return nil, fmt.Errorf("open tab: %w", ctx.Err())
	}
	// The guard lives as long as the tab, not just this call.
	go guard(tabCtx, chromedp.FromContext(tabCtx).Target, origin, chromedp.Events(tabCtx, fetch.RequestPaused), onBlocked)
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*"}}}); err != nil {
			return fmt.Errorf("intercept requests: %w", err)
		}
		if _, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: int64(width), Height: int64(height), DeviceScaleFactor: 1,
		}); err != nil {
			return fmt.Errorf("set viewport: %w", err)
		}
		return nil
	}), chromedp.Navigate(origin+page))
	if err != nil {
		closeTab()
		return nil, fmt.Errorf("load %s: %w", page, err)
	}
	return &tab{ctx: tabCtx, close: closeTab}, nil
}

// draw runs window.renderMockup3d in the tab and returns the PNG of its canvas, before deadline or until
// caller ends. The page reads the canvas from its preserved drawing buffer: a screenshot would make the
// compositor draw a fresh 1500 x 1875 frame in software, which took most of a warm render's time.
func (tb *tab) draw(caller context.Context, job pageJob, deadline time.Time) ([]byte, error) {
	ctx, cancel := context.WithDeadline(tb.ctx, deadline)
	defer cancel()
	defer context.AfterFunc(caller, cancel)()
	tb.renders++
	arg, err := json.Marshal(job)
	if err != nil {
		return nil, err
	}
	dataURL, err := chromedp.Run(ctx, chromedp.Evaluate[string]("window.renderMockup3d("+string(arg)+")", chromedp.EvalAwaitPromise))
	if err != nil {
		return nil, fmt.Errorf("draw: %w", err)
	}
	if !strings.HasPrefix(dataURL, pngDataURL) {
		return nil, fmt.Errorf("draw: renderMockup3d answered %.40q, not a PNG data URL", dataURL)
	}
	shot, err := base64.StdEncoding.DecodeString(dataURL[len(pngDataURL):])
	if err != nil {
		return nil, fmt.Errorf("draw: the canvas PNG: %w", err)
	}
	return shot, nil
}

// guard answers every paused request of the tab: the pool's own origin goes on, everything else fails.
func guard(ctx context.Context, t *chromedp.Target, origin string, paused iter.Seq2[fetch.EventRequestPaused, error], onBlocked func(string)) {
	for ev, err := range paused {
		if err != nil {
			return
		}
		if allowed(ev.Request.URL, origin) {
			cdp.Call(ctx, t, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
			continue
		}
		cdp.Call(ctx, t, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
		if onBlocked != nil {
			onBlocked(ev.Request.URL)
		}
	}
}

// allowed reports whether a tab may load raw: the pool's origin (scheme, host and port exactly) and
// data: or blob: URLs of that origin. Everything else, including file:// and any other host or port,
// private or not, is refused.
func allowed(raw, origin string) bool {
	if strings.HasPrefix(raw, "data:") {
		return true
	}
	raw = strings.TrimPrefix(raw, "blob:")
	u, err := url.Parse(raw)
	if err != nil || u.User != nil {
		return false
	}
	return u.Scheme+"://"+u.Host == origin
}

// blank reports whether every pixel of the mockup equals its first: a canvas that shows only the
// clear colour, whatever the page claimed.
func blank(img image.Image) bool {
	var pix []byte
	switch m := img.(type) {
	case *image.NRGBA: // a PNG with alpha, as the page's canvas gives
		pix = m.Pix
	case *image.RGBA:
		pix = m.Pix
	default:
		rgba := image.NewRGBA(img.Bounds())
		draw.Draw(rgba, rgba.Rect, img, img.Bounds().Min, draw.Src)
		pix = rgba.Pix
	}
	if len(pix) < 4 {
		return true
	}
	first := pix[:4]
	for i := 4; i < len(pix); i += 4 {
		if !bytes.Equal(pix[i:i+4], first) {
			return false
		}
	}
	return true
}

// A4 in inches, the paper of printed documents.
const (
	a4Width  = 8.27
	a4Height = 11.69
)

// print runs the page's doc.Call with doc.Data, waits for the promise it returns (the page drawn, its
// fonts loaded), and prints the page to an A4 PDF without the browser's headers and footers.
func (tb *tab) print(caller context.Context, doc Document, deadline time.Time) ([]byte, error) {
	ctx, cancel := context.WithDeadline(tb.ctx, deadline)
	defer cancel()
	defer context.AfterFunc(caller, cancel)()
	tb.renders++
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[any]("window."+doc.Call+"("+string(doc.Data)+")", chromedp.EvalAwaitPromise)); err != nil {
		return nil, fmt.Errorf("draw: %w", err)
	}
	var pdf []byte
	zero, yes := 0.0, true
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		res, err := cdp.Call(ctx, t, page.PrintToPDF, page.PrintToPDFParams{PrintBackground: &yes, PreferCSSPageSize: &yes,
			PaperWidth: a4Width, PaperHeight: a4Height, MarginTop: &zero, MarginBottom: &zero, MarginLeft: &zero, MarginRight: &zero})
		pdf = res.Data
		return err
	}))
	if err != nil {
		return nil, fmt.Errorf("print: %w", err)
	}
	return pdf, nil
}
