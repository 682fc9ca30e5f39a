package chromepool

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/pressroom/pressroom/platform/env"
)

// Config is the pool's configuration.
type Config struct {
	// ExecPath is the Chromium binary (PRESSROOM_CHROMIUM_PATH, default /usr/bin/chromium).
	ExecPath string
	// Browsers is how many browsers run, each one render at a time (PRESSROOM_CHROME_BROWSERS, default 2:
	// SwiftShader renders on the CPU, so about one per core).
	Browsers int
	// QueueSize is how many renders may wait for a browser; one more gets ErrBusy (PRESSROOM_CHROME_QUEUE,
	// default 32; zero means none waits).
	QueueSize int
	// RecycleAfter is how many renders a browser serves before it is replaced (PRESSROOM_CHROME_RECYCLE_AFTER,
	// default 200).
	RecycleAfter int
	// RendersPerTab is how many renders one tab serves before it is closed (PRESSROOM_CHROME_RENDERS_PER_TAB,
	// default 20). A kept tab has the loaded page and its compiled shaders for the next render, which is
	// most of a render's cost with SwiftShader (BenchmarkMockup3D on 2 busy cores: 0.33 s a render in a
	// kept tab, 1.6 s in a fresh one, 3.3 s with a browser started for it); 1 gives every render a fresh
	// page and WebGL context. The tab is closed anyway after a failed render and with its browser.
	RendersPerTab int
	// RenderTimeout is the deadline of one render attempt, from the tab's opening to the drawn PNG
	// (PRESSROOM_CHROME_RENDER_TIMEOUT, default 30s).
	RenderTimeout time.Duration
	// ProfileDir is the folder of the browsers' temporary profiles (PRESSROOM_CHROME_PROFILE_DIR, default
	// empty: the system's temporary folder, $TMPDIR or /tmp). It is made if missing. At start the pool
	// removes the profiles in it that a killed pool left behind (tens of MB each).
	ProfileDir string
	// Width and Height are the mockup's size in pixels (default 1500 x 1875: 1500 wide by 1.25 tall).
	Width, Height int
	// OnBlocked, when set, is told every URL a page asked for and did not get. It runs on the tab's event
	// goroutine: it must return quickly.
	OnBlocked func(url string)
}

// DefaultConfig is the configuration without any environment variable.
func DefaultConfig() Config {
	return Config{
		ExecPath: "/usr/bin/chromium", Browsers: 2, QueueSize: 32, RecycleAfter: 200,
		RendersPerTab: 20, RenderTimeout: 30 * time.Second, Width: 1500, Height: 1875,
	}
}

// LoadConfig reads the PRESSROOM_CHROM* variables over DefaultConfig.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.String(&cfg.ExecPath, "PRESSROOM_CHROMIUM_PATH")
	r.Int(&cfg.Browsers, "PRESSROOM_CHROME_BROWSERS")
	r.Int(&cfg.QueueSize, "PRESSROOM_CHROME_QUEUE")
	r.Int(&cfg.RecycleAfter, "PRESSROOM_CHROME_RECYCLE_AFTER")
	r.Int(&cfg.RendersPerTab, "PRESSROOM_CHROME_RENDERS_PER_TAB")
	r.Duration(&cfg.RenderTimeout, "PRESSROOM_CHROME_RENDER_TIMEOUT")
	r.String(&cfg.ProfileDir, "PRESSROOM_CHROME_PROFILE_DIR")
	return cfg, r.Err()
}

// Validate names the variable to fix.
func (c Config) Validate() error {
	switch {
	case c.ExecPath == "":
		return errors.New("PRESSROOM_CHROMIUM_PATH: want the path of the Chromium binary")
	case c.Browsers < 1:
		return fmt.Errorf("PRESSROOM_CHROME_BROWSERS=%d: want at least 1", c.Browsers)
	case c.QueueSize < 0:
		return fmt.Errorf("PRESSROOM_CHROME_QUEUE=%d: want 0 or more", c.QueueSize)
	case c.RecycleAfter < 1:
		return fmt.Errorf("PRESSROOM_CHROME_RECYCLE_AFTER=%d: want at least 1", c.RecycleAfter)
	case c.RendersPerTab < 1:
		return fmt.Errorf("PRESSROOM_CHROME_RENDERS_PER_TAB=%d: want at least 1", c.RendersPerTab)
	case c.RenderTimeout <= 0:
		return fmt.Errorf("PRESSROOM_CHROME_RENDER_TIMEOUT=%s: want a positive duration", c.RenderTimeout)
	case c.Width < 1 || c.Height < 1 || c.Width > 4096 || c.Height > 4096:
		return fmt.Errorf("chromepool: mockup size %dx%d: want 1..4096 on each side", c.Width, c.Height)
	}
	return nil
}

// profileDir is the folder of the profiles: ProfileDir, else the system's temporary folder.
func (c Config) profileDir() string {
	if c.ProfileDir == "" {
		return os.TempDir()
	}
	return c.ProfileDir
}
