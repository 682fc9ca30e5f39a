package version

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/env"
)

// linkedBuildID is the build identity linked into the binary, e.g.
//
//	go build -ldflags "-X github.com/pressroom/pressroom/bff/version.linkedBuildID=$(git rev-parse HEAD)" ./bff/cmd/bff
//
// Empty when the build did not set it.
var linkedBuildID string

// started is when this process started, the build identity of last resort.
var started = time.Now().UTC()

// Config is what the version call reports.
type Config struct {
	// BuildID is reported as last_update (PRESSROOM_BUILD_ID). Default: the value linked into the
	// binary with -ldflags -X (see linkedBuildID), else the time this process started in RFC 3339,
	// so each restart — every deploy — reads as a new version. Several bff processes behind one
	// address must share a value (set PRESSROOM_BUILD_ID or link it), or the banner would flap
	// between them. Never empty.
	BuildID string
}

// DefaultConfig reports the linked build identity, else the process start time.
func DefaultConfig() Config {
	if linkedBuildID != "" {
		return Config{BuildID: linkedBuildID}
	}
	return Config{BuildID: started.Format(time.RFC3339)}
}

// LoadConfig reads PRESSROOM_BUILD_ID over the default.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.String(&cfg.BuildID, "PRESSROOM_BUILD_ID")
	return cfg, r.Err()
}

// maxBuildIDLen bounds what every open tab downloads once a minute.
const maxBuildIDLen = 200

// Validate rejects an empty or oversized build identity.
func (c Config) Validate() error {
	if c.BuildID == "" {
		return errors.New("PRESSROOM_BUILD_ID: want a non-empty build identity (a commit, a tag or a timestamp)")
	}
	if len(c.BuildID) > maxBuildIDLen {
		return errors.New("PRESSROOM_BUILD_ID: want at most 200 characters")
	}
	return nil
}

// Info is the answer of GET /api/api3/version.
type Info struct {
	// LastUpdate identifies the build serving the API; the UI only compares it for a change.
	LastUpdate string `json:"last_update"`
}

// Routes lists the version call under g (mounted at /api): anyone may ask, signed in or not, since
// the login screens are served by the same build.
func Routes(g *echo.Group, a *auth.Service, cfg Config) {
	a.Handle(g, http.MethodGet, "/api3/version", access.Anyone, handleVersion(Info{LastUpdate: cfg.BuildID}))
}

func handleVersion(info Info) echo.HandlerFunc {
	return func(c echo.Context) error {
		// Every poll must reach the bff: a cached answer would hide the new version.
		c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
		return envelope.OK(c, info)
	}
}
