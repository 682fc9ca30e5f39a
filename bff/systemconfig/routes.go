package systemconfig

import (
	"net/http"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
)

// Deps are what the system-config routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Platform is the answer of GET /api/public/platform.
type Platform struct {
	Maintenance bool `json:"maintenance"`
	// Brand is the branding of the host the call was made to, so the login page can brand too.
	Brand Brand `json:"brand"`
}

// Routes lists the calls under g (mounted at /api): the shared configuration for any signed-in
// user, the platform status for anyone (the maintenance page must work signed out), and the
// admins' setting of one config (e.g. the maintenance switch).
func Routes(g *echo.Group, d Deps) {
	h := handlers{db: d.DB}
	d.Auth.Handle(g, http.MethodGet, "/system-configs", access.SignedIn, h.shared)
	d.Auth.Handle(g, http.MethodGet, "/public/platform", access.Anyone, h.platform)
	d.Auth.Handle(g, http.MethodPut, "/admin/system-configs/:key", access.AdminOnly, h.set)
}

type handlers struct{ db *sqlx.DB }

func (h handlers) shared(c echo.Context) error {
	s, err := Load(c.Request().Context(), h.db)
	if err != nil {
		return err
	}
	return envelope.OK(c, s)
}

func (h handlers) platform(c echo.Context) error {
	configs, err := Configs(c.Request().Context(), h.db, "")
	if err != nil {
		return err
	}
	on, err := maintenanceOf(configs)
	if err != nil {
		return err
	}
	return envelope.OK(c, Platform{Maintenance: on, Brand: BrandOf(configs, c.Request().Host)})
}

// setBody is what an admin sends to set a config.
type setBody struct {
	Value string `json:"value"`
}

func (h handlers) set(c echo.Context) error {
	var b setBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if fe := check(c.Param("key"), b.Value); fe != nil {
		return envelope.Fail(http.StatusUnprocessableEntity, fe.Message, *fe)
	}
	if err := Set(c.Request().Context(), h.db, c.Param("key"), b.Value); err != nil {
		return err
	}
	return envelope.OKMessage(c, "The setting has been saved.", map[string]string{"key": c.Param("key"), "value": b.Value})
}
