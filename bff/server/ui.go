package server

import (
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
)

// uiHandler serves the built single-page UI: files under dir as they are (hashed assets cached
// for a year), every other path index.html so the UI's router decides, and unknown /api or /admin
// paths an envelope 404, never the page.
func uiHandler(dir string) echo.HandlerFunc {
	return func(c echo.Context) error {
		p := path.Clean("/" + c.Request().URL.Path)
		if p == "/api" || strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/admin/") {
			return envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
		}
		if dir == "" {
			return envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
		}
		file := filepath.Join(dir, filepath.FromSlash(p))
		if st, err := os.Stat(file); err == nil && !st.IsDir() && p != "/index.html" {
			if strings.HasPrefix(p, "/assets/") {
				c.Response().Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			}
			return c.File(file)
		}
		index := filepath.Join(dir, "index.html")
		if _, err := os.Stat(index); err != nil {
			return c.String(http.StatusServiceUnavailable,
				"The UI is not built yet: run `npm run build` in ui/ (scripts/dev does it for you).\n")
		}
		c.Response().Header().Set("Cache-Control", "no-cache")
		return c.File(index)
	}
}
