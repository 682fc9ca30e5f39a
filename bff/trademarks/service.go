package trademarks

import (
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/platform/trademark"
)

// Deps are what the trademark routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Routes lists the trademark endpoints under g (mounted at /api); only admins reach them.
func Routes(g *echo.Group, d Deps) {
	s := &service{d: d}
	a := d.Auth
	a.Handle(g, http.MethodGet, "/admin/trademarks", access.AdminOnly, s.handleList)
	a.Handle(g, http.MethodPost, "/admin/trademarks", access.AdminOnly, s.handleAdd)
	a.Handle(g, http.MethodDelete, "/admin/trademarks/:id", access.AdminOnly, s.handleRemove)
}

// Messages the screen shows.
const (
	MsgTerm     = "Enter a term of letters or digits."
	MsgTooLong  = "The term may be at most 100 characters."
	MsgNote     = "The note may be at most 500 characters."
	MsgTaken    = "This term is already on the list."
	MsgNotFound = "Trademark not found."
	MsgAdded    = "The term was added."
	MsgRemoved  = "The term was removed."
)

// Trademark is a listed term.
type Trademark struct {
	ID        int64     `db:"id" json:"id"`
	Term      string    `db:"term" json:"term"`
	Note      string    `db:"note" json:"note"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
}

type service struct{ d Deps }

const (
	qList   = `SELECT id, term, note, created_at FROM trademarks ORDER BY term`
	qAdd    = `INSERT INTO trademarks (term, note, created_by) VALUES ($1, $2, $3) RETURNING id, term, note, created_at`
	qRemove = `DELETE FROM trademarks WHERE id = $1`
)

func (s *service) handleList(c echo.Context) error {
	out := []Trademark{}
	if err := s.d.DB.SelectContext(c.Request().Context(), &out, qList); err != nil {
		return err
	}
	return envelope.OK(c, out)
}

func (s *service) handleAdd(c echo.Context) error {
	var in struct {
		Term string `json:"term"`
		Note string `json:"note"`
	}
	if err := envelope.Bind(c, &in); err != nil {
		return err
	}
	term := trademark.Normalize(in.Term)
	var errs []envelope.FieldError
	switch {
	case term == "":
		errs = append(errs, envelope.FieldError{Field: "term", Message: MsgTerm})
	case utf8.RuneCountInString(term) > trademark.MaxTerm:
		errs = append(errs, envelope.FieldError{Field: "term", Message: MsgTooLong})
	}
	if utf8.RuneCountInString(in.Note) > 500 {
		errs = append(errs, envelope.FieldError{Field: "note", Message: MsgNote})
	}
	if len(errs) > 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	var t Trademark
	err := s.d.DB.GetContext(c.Request().Context(), &t, qAdd, term, in.Note, auth.Caller(c).User.ID)
	if database.UniqueViolation(err) {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgTaken, envelope.FieldError{Field: "term", Message: MsgTaken})
	} else if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, envelope.Response{Success: true, Message: MsgAdded, Data: t})
}

func (s *service) handleRemove(c echo.Context) error {
	res, err := s.d.DB.ExecContext(c.Request().Context(), qRemove, envelope.PathID(c))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	}
	return envelope.OKMessage(c, MsgRemoved, nil)
}
