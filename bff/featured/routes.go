package featured

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
)

// Deps are what the featured-info routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Routes lists the featured-info endpoints under g (mounted at /api): the public list and the
// admins' list, create and edit.
func Routes(g *echo.Group, d Deps) {
	h := handlers{db: d.DB}
	d.Auth.Handle(g, http.MethodGet, "/public/featured-info", access.Anyone, h.list(true))
	d.Auth.Handle(g, http.MethodGet, "/admin/featured-info", access.AdminOnly, h.list(false))
	d.Auth.Handle(g, http.MethodPost, "/admin/featured-info", access.AdminOnly, h.save)
	d.Auth.Handle(g, http.MethodPut, "/admin/featured-info/:id", access.AdminOnly, h.save)
}

type handlers struct{ db *sqlx.DB }

// list answers the articles in carousel order, only the active ones when activeOnly.
func (h handlers) list(activeOnly bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		list, err := List(c.Request().Context(), h.db, activeOnly)
		if err != nil {
			return err
		}
		return envelope.OK(c, list)
	}
}

// articleBody is what an admin sends; without active a new article is active and an edited one
// keeps its flag.
type articleBody struct {
	Subject  string `json:"subject"`
	Banner   string `json:"banner"`
	Content  string `json:"content"`
	Link     string `json:"link"`
	Position int    `json:"position"`
	Active   *bool  `json:"active"`
}

func (h handlers) save(c echo.Context) error {
	var id int64
	if p := c.Param("id"); p != "" {
		var err error
		if id, err = strconv.ParseInt(p, 10, 64); err != nil {
			return envelope.Fail(http.StatusNotFound, MsgNotFound)
		}
	}
	var b articleBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	a := Article{ID: id, Subject: b.Subject, Banner: b.Banner, Content: b.Content, Link: b.Link, Position: b.Position, Active: b.Active == nil || *b.Active}
	if errs := Check(&a); len(errs) > 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	saved, err := Save(c.Request().Context(), h.db, a, id != 0 && b.Active == nil)
	if errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	}
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgSaved, saved)
}
