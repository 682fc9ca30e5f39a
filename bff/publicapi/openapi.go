package publicapi

import (
	_ "embed"
	"net/http"

	"github.com/labstack/echo/v4"
)

// OpenAPI is the API's OpenAPI 3.1 document; TestOpenAPIMatchesRoutes holds it equal to Routes.
//
//go:embed openapi.json
var OpenAPI []byte

func handleOpenAPI(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-cache")
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, OpenAPI)
}
