package survey

import (
	"context"
	"fmt"
	"net/http"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
)

// Deps are what the survey route uses.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Routes adds POST /seller/survey under g (mounted at /api). A team member switched into a seller's
// account may not answer for the seller (the UI never offers it there).
func Routes(g *echo.Group, d Deps) {
	h := handler{db: d.DB}
	d.Auth.Handle(g, http.MethodPost, "/seller/survey", access.Need{OwnAccount: true}, h.submit)
}

type handler struct{ db *sqlx.DB }

// Result is the answer of a saved survey: the account's tier and whether this survey raised it.
type Result struct {
	Tier     int  `json:"tier" db:"tier"`
	Upgraded bool `json:"upgraded" db:"upgraded"`
}

func (h handler) submit(c echo.Context) error {
	u := auth.Caller(c).User
	if a := u.Access(); access.IsDesigner(a) || access.IsAuthorizedAccount(a) {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgNotForAccount)
	}
	var a Answers
	if err := envelope.Bind(c, &a); err != nil {
		return err
	}
	if errs := Check(&a, u.Phone == ""); len(errs) > 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgCannotSave, errs...)
	}
	r, err := save(c.Request().Context(), h.db, u.ID, a)
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgSaved, r)
}

// save stores a for account id: the sale volume always, Facebook and phone only where the account
// had none; the first completion raises the tier to TierSurveyed.
func save(ctx context.Context, db *sqlx.DB, id int64, a Answers) (Result, error) {
	const q = `
UPDATE users u SET
    sale_volume         = $2,
    facebook            = CASE WHEN u.facebook = '' THEN $3 ELSE u.facebook END,
    phone               = CASE WHEN u.phone = '' THEN $4 ELSE u.phone END,
    tier                = CASE WHEN u.survey_completed_at IS NULL THEN GREATEST(u.tier, $5) ELSE u.tier END,
    survey_completed_at = COALESCE(u.survey_completed_at, now()),
    updated_at          = now()
FROM (SELECT survey_completed_at IS NULL AS first, tier AS before FROM users WHERE id = $1 FOR UPDATE) old
WHERE u.id = $1
RETURNING u.tier, old.first AND u.tier > old.before AS upgraded`
	var r Result
	if err := db.GetContext(ctx, &r, q, id, a.SaleVolume, a.Facebook, a.Phone, TierSurveyed); err != nil {
		return r, fmt.Errorf("save survey of user %d: %w", id, err)
	}
	return r, nil
}
