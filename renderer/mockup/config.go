package mockup

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pressroom/pressroom/renderer/imagelimit"
)

// EnvCacheBytes is the environment variable LoadConfig reads for Config.CacheBytes.
const EnvCacheBytes = "PRESSROOM_MOCKUP_CACHE_BYTES"

// DefaultCacheBytes keeps about ten templates prepared at 2000 px (a 2000x2000 template takes about 22 MB:
// the RGBA base, the tint map, and the mask, shading and displacement of the print area) plus their
// previews.
const DefaultCacheBytes int64 = 256 << 20

// Mockup sizes (docs/mockups.md): a mockup is 2000 px on its long side, a preview 500.
const (
	DefaultSize = 2000
	PreviewSize = 500
)

// Config configures a Renderer.
type Config struct {
	// CacheBytes bounds the memory of the prepared templates the renderer keeps (decoded, cropped and
	// scaled to an output size), least recently used first out. Default DefaultCacheBytes (256 MiB); 0
	// means the default. A template larger than the whole budget is prepared for each render and not
	// kept. Env PRESSROOM_MOCKUP_CACHE_BYTES.
	CacheBytes int64
	// Limits bound every decoded template image (header checked before decoding); zero fields mean
	// imagelimit's defaults. Env PRESSROOM_IMAGE_MAX_PIXELS and PRESSROOM_IMAGE_MAX_BYTES.
	Limits imagelimit.Config
}

// DefaultConfig returns the defaults.
func DefaultConfig() Config {
	return Config{CacheBytes: DefaultCacheBytes, Limits: imagelimit.DefaultConfig()}
}

// LoadConfig returns DefaultConfig overridden by PRESSROOM_MOCKUP_CACHE_BYTES and the imagelimit variables
// when lookup has them, validated. lookup is os.LookupEnv in the binaries, a map in tests.
func LoadConfig(lookup func(name string) (string, bool)) (Config, error) {
	cfg := DefaultConfig()
	limits, err := imagelimit.LoadConfig(lookup)
	if err != nil {
		return Config{}, err
	}
	cfg.Limits = limits
	if s, ok := lookup(EnvCacheBytes); ok && strings.TrimSpace(s) != "" {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 0, 64)
		if err != nil {
			return Config{}, fmt.Errorf("%s=%q: want a whole number of bytes", EnvCacheBytes, s)
		}
		cfg.CacheBytes = n
	}
	return cfg, cfg.Validate()
}

// Validate reports a field out of range, naming its environment variable.
func (c Config) Validate() error {
	if c.CacheBytes < 0 {
		return fmt.Errorf("%s=%d: must be positive (0 for the default %d)", EnvCacheBytes, c.CacheBytes, DefaultCacheBytes)
	}
	return c.Limits.Validate()
}
