// Package chrometest starts a Chrome pool for the tests of the renderer's task handlers, as httptest
// starts servers: one browser over the built UI (testinfra.UI) in the system Chromium, stopped when the
// test ends. Only tests import it.
package chrometest

import (
	"log/slog"
	"testing"

	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/renderer/chromepool"
)

// Pool is a one-browser pool over the built UI, its site served on a loopback port; the browser starts
// with the first render. A test binary that calls it removes the built UI in its TestMain
// (testinfra.RemoveUI).
func Pool(t testing.TB) *chromepool.Pool {
	t.Helper()
	site, err := chromepool.NewSite(testinfra.UI(t))
	if err != nil {
		t.Fatal(err)
	}
	base, stop, err := site.Listen()
	if err != nil {
		t.Fatal(err)
	}
	cfg := chromepool.DefaultConfig()
	cfg.ExecPath, cfg.Browsers = testinfra.Chromium(t), 1
	pool, err := chromepool.New(cfg, site, base, slog.New(slog.DiscardHandler))
	if err != nil {
		stop()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		pool.Close()
		stop()
	})
	return pool
}
