package campaigns

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/renderer/fonts"
)

// Font is a font the editor may use, served from the renderer's own file so that the canvas and
// the print file draw the same outlines.
type Font struct {
	Family string `json:"family"`
	URL    string `json:"url"`
}

// fontsPath is where the font files are served.
const fontsPath = "/api/fonts/"

// handleFonts is GET /api/fonts.
func handleFonts(c echo.Context) error {
	out := []Font{}
	for _, f := range fonts.Files() {
		out = append(out, Font{Family: f.Family, URL: fontsPath + f.Name})
	}
	return envelope.OK(c, out)
}

// handleFontFile is GET /api/fonts/{file}: the TrueType file, cached for a year (a file's content
// never changes under its name).
func handleFontFile(c echo.Context) error {
	name := c.Param("file")
	for _, f := range fonts.Files() {
		if f.Name == name {
			c.Response().Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			c.Response().Header().Set("X-Content-Type-Options", "nosniff")
			return c.Blob(http.StatusOK, "font/ttf", f.Data)
		}
	}
	return envelope.Fail(http.StatusNotFound, "Font not found.")
}
