package tracking

import (
	"net/http"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
)

// Deps are what the track routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Routes adds the two track calls under g (mounted at /api).
func Routes(g *echo.Group, d Deps) {
	h := handlers{db: d.DB}
	d.Auth.Handle(g, http.MethodPost, "/utm-campaign/track", access.Anyone, h.click)
	d.Auth.Handle(g, http.MethodPost, "/seller/utm-campaign/track", access.SignedIn, h.submit)
}

type handlers struct{ db *sqlx.DB }

// Result is the answer of both calls: Success as the seller variant reports it, and
// whether this call recorded a new event.
type Result struct {
	Success  bool `json:"success"`
	Recorded bool `json:"recorded"`
}

func (h handlers) record(c echo.Context, kind string, userID int64) error {
	var p Payload
	if err := envelope.Bind(c, &p); err != nil {
		return err
	}
	if p.ClientInfo.UserAgent == "" {
		p.ClientInfo.UserAgent = c.Request().UserAgent()
	}
	if errs := Check(&p); len(errs) > 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	added, err := Record(c.Request().Context(), h.db, Event{Kind: kind, Payload: p, UserID: userID, IP: c.RealIP()})
	if err != nil {
		return err
	}
	return envelope.OK(c, Result{Success: true, Recorded: added})
}

func (h handlers) click(c echo.Context) error { return h.record(c, KindClick, 0) }

// submit credits the campaign to the account the session acts as.
func (h handlers) submit(c echo.Context) error {
	return h.record(c, KindSubmit, auth.Caller(c).User.ID)
}
