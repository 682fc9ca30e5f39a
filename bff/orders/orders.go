package orders

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
)

// Order is one row of the orders list.
type Order struct {
	ID int64 `json:"id"`
}

// Routes lists the orders endpoints under g (mounted at /api).
func Routes(g *echo.Group, a *auth.Service) {
	a.Handle(g, http.MethodGet, "/orders", access.Permitted(access.GetOrders), handleList)
}

// handleList answers the caller's orders; no orders exist until the orders issue lands.
func handleList(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage([]Order{}, 0, q))
}
