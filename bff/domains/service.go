package domains

import (
	"errors"
	"net/http"
	"slices"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/customdomain"
)

// Deps are what the domain routes use.
type Deps struct {
	DB      *sqlx.DB
	Auth    *auth.Service
	Checker *customdomain.Checker
	// Reserved are the platform's own hosts (the store domain, the dashboard's host): no seller may
	// add them or a name under them.
	Reserved []string
}

// Service answers the domains screen.
type Service struct {
	d     Deps
	store store
}

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil || d.Checker == nil {
		return nil, errors.New("domains: database, auth and checker are required")
	}
	return &Service{d: d, store: store{db: d.DB}}, nil
}

// Who may do what, as on the stores the domains belong to: seeing them is part of working with
// campaigns; changing them needs update_campaign.
var (
	needRead  = access.Permitted(access.GetCampaigns)
	needWrite = access.Permitted(access.UpdateCampaign)
)

// Routes lists the domain endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service, once echo.MiddlewareFunc) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/domains", needRead, s.handleList)
	a.Handle(g, http.MethodPost, "/domains", needWrite, s.handleAdd, once)
	a.Handle(g, http.MethodGet, "/domains/:id", needRead, s.handleGet)
	a.Handle(g, http.MethodPost, "/domains/:id/check", needWrite, s.handleCheck)
	a.Handle(g, http.MethodDelete, "/domains/:id", needWrite, s.handleRemove)
}

// Messages the screen shows.
const (
	MsgNotFound = "Domain not found."
	MsgStore    = "Choose one of your stores."
	MsgTaken    = "This domain is already added to a store on Pressroom."
	MsgAdded    = "The domain was added. Create the DNS record shown, then check it."
	MsgVerified = "The domain is verified: your store answers on it."
	MsgRemoved  = "The domain was removed."
)

// visible are the ids of the caller's account's stores the caller may see (the store filter).
func (s *Service) visible(c echo.Context) ([]int64, error) {
	u := auth.Caller(c).User
	ids, err := s.store.storeIDs(c.Request().Context(), u.ID)
	if err != nil {
		return nil, err
	}
	return access.StoreFilter(u.Access(), ids), nil
}

func (s *Service) handleList(c echo.Context) error {
	vis, err := s.visible(c)
	if err != nil {
		return err
	}
	out, err := s.store.list(c.Request().Context(), vis)
	if err != nil {
		return err
	}
	return envelope.OK(c, out)
}

// domain is the caller's visible domain named by :id, or a 404.
func (s *Service) domain(c echo.Context) (Domain, []int64, error) {
	id := envelope.PathID(c)
	vis, err := s.visible(c)
	if err != nil {
		return Domain{}, nil, err
	}
	d, err := s.store.get(c.Request().Context(), id, vis)
	if errors.Is(err, ErrNotFound) {
		return Domain{}, nil, envelope.Fail(http.StatusNotFound, MsgNotFound)
	}
	return d, vis, err
}

func (s *Service) handleGet(c echo.Context) error {
	d, _, err := s.domain(c)
	if err != nil {
		return err
	}
	return envelope.OK(c, d)
}

// AddInput is a domain as the screen sends it.
type AddInput struct {
	StoreID int64  `json:"store_id"`
	Domain  string `json:"domain"`
}

func (s *Service) handleAdd(c echo.Context) error {
	var in AddInput
	if err := envelope.Bind(c, &in); err != nil {
		return err
	}
	vis, err := s.visible(c)
	if err != nil {
		return err
	}
	var errs []envelope.FieldError
	if !slices.Contains(vis, in.StoreID) {
		errs = append(errs, envelope.FieldError{Field: "store_id", Message: MsgStore})
	}
	name, err := customdomain.Normalize(in.Domain, s.d.Reserved...)
	if err != nil {
		errs = append(errs, envelope.FieldError{Field: "domain", Message: err.Error()})
	}
	if len(errs) > 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	ctx := c.Request().Context()
	id, err := s.store.add(ctx, in.StoreID, name)
	if errors.Is(err, ErrTaken) {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgTaken, envelope.FieldError{Field: "domain", Message: MsgTaken})
	} else if err != nil {
		return err
	}
	d, err := s.store.get(ctx, id, vis)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, envelope.Response{Success: true, Message: MsgAdded, Data: d})
}

// handleCheck looks the domain's record up now and answers the domain as recorded; the message
// says what the check found.
func (s *Service) handleCheck(c echo.Context) error {
	d, vis, err := s.domain(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if _, err := s.d.Checker.Check(ctx, d.ID); errors.Is(err, customdomain.ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	} else if err != nil {
		return err
	}
	if d, err = s.store.get(ctx, d.ID, vis); errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	} else if err != nil {
		return err
	}
	msg := MsgVerified
	if d.CheckError != "" {
		msg = d.CheckError
	}
	return envelope.OKMessage(c, msg, d)
}

func (s *Service) handleRemove(c echo.Context) error {
	vis, err := s.visible(c)
	if err != nil {
		return err
	}
	if err := s.store.remove(c.Request().Context(), envelope.PathID(c), vis); errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	} else if err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgRemoved, nil)
}
