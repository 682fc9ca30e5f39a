package crossselling

import (
	"errors"
	"net/http"
	"slices"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
)

// Deps are what the cross-selling routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Service answers the cross-selling screen.
type Service struct {
	d     Deps
	store store
}

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil {
		return nil, errors.New("crossselling: database and auth are required")
	}
	return &Service{d: d, store: store{db: d.DB}}, nil
}

// Cross-selling sits in the Orders menu and shows what orders followed: it needs get_orders.
var need = access.Permitted(access.GetOrders)

// Routes lists the cross-selling endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service, once echo.MiddlewareFunc) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/seller/cross-selling", need, s.handleList)
	a.Handle(g, http.MethodPost, "/seller/cross-selling", need, s.handleCreate, once)
	a.Handle(g, http.MethodGet, "/seller/cross-selling/:id", need, s.handleGet)
	a.Handle(g, http.MethodPut, "/seller/cross-selling/:id", need, s.handleUpdate)
	a.Handle(g, http.MethodDelete, "/seller/cross-selling/:id", need, s.handleDelete)
}

// MaxTargets is how many campaigns one rule suggests at most.
const MaxTargets = 8

// Messages the screen shows.
const (
	MsgNotFound      = "Cross-selling rule not found."
	MsgCampaign      = "Choose one of your campaigns."
	MsgTaken         = "This campaign already has a rule; change that one."
	MsgTargets       = "Choose from 1 to 8 of your campaigns to suggest."
	MsgTargetIsSelf  = "A campaign cannot suggest itself."
	MsgTargetsRepeat = "Each campaign can be suggested once."
)

// Input is a rule as the screen sends it.
type Input struct {
	CampaignID int64   `json:"campaign_id"`
	TargetIDs  []int64 `json:"target_ids"`
}

func (s *Service) input(c echo.Context) (Input, error) {
	var in Input
	if err := envelope.Bind(c, &in); err != nil {
		return Input{}, err
	}
	seller := auth.Caller(c).User.ID
	all := append([]int64{in.CampaignID}, in.TargetIDs...)
	owned, err := s.store.owned(c.Request().Context(), seller, all)
	if err != nil {
		return Input{}, err
	}
	var errs []envelope.FieldError
	bad := func(field, msg string) { errs = append(errs, envelope.FieldError{Field: field, Message: msg}) }
	if !slices.Contains(owned, in.CampaignID) {
		bad("campaign_id", MsgCampaign)
	}
	seen := map[int64]bool{}
	switch {
	case len(in.TargetIDs) == 0 || len(in.TargetIDs) > MaxTargets:
		bad("target_ids", MsgTargets)
	case slices.Contains(in.TargetIDs, in.CampaignID):
		bad("target_ids", MsgTargetIsSelf)
	default:
		for _, id := range in.TargetIDs {
			if seen[id] {
				bad("target_ids", MsgTargetsRepeat)
				break
			}
			seen[id] = true
			if !slices.Contains(owned, id) {
				bad("target_ids", MsgTargets)
				break
			}
		}
	}
	if len(errs) > 0 {
		return Input{}, envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	return in, nil
}

func (s *Service) handleList(c echo.Context) error {
	q, err := envelope.ParseListQuery(c)
	if err != nil {
		return err
	}
	items, total, err := s.store.list(c.Request().Context(), auth.Caller(c).User.ID, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

func (s *Service) answer(c echo.Context, status int, id int64) error {
	r, err := s.store.get(c.Request().Context(), auth.Caller(c).User.ID, id)
	if errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	} else if err != nil {
		return err
	}
	if status == http.StatusCreated {
		return c.JSON(status, envelope.Response{Success: true, Message: "The rule was created.", Data: r})
	}
	return envelope.OK(c, r)
}

func (s *Service) handleGet(c echo.Context) error {
	return s.answer(c, http.StatusOK, envelope.PathID(c))
}

func (s *Service) save(c echo.Context, id int64) error {
	in, err := s.input(c)
	if err != nil {
		return err
	}
	saved, err := s.store.save(c.Request().Context(), auth.Caller(c).User.ID, id, in)
	switch {
	case errors.Is(err, ErrTaken):
		return envelope.Fail(http.StatusUnprocessableEntity, MsgTaken, envelope.FieldError{Field: "campaign_id", Message: MsgTaken})
	case errors.Is(err, ErrNotFound):
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	case err != nil:
		return err
	}
	status := http.StatusOK
	if id == 0 {
		status = http.StatusCreated
	}
	return s.answer(c, status, saved)
}

func (s *Service) handleCreate(c echo.Context) error { return s.save(c, 0) }

func (s *Service) handleUpdate(c echo.Context) error {
	id := envelope.PathID(c)
	if id == 0 {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	}
	return s.save(c, id)
}

func (s *Service) handleDelete(c echo.Context) error {
	id := envelope.PathID(c)
	if id == 0 {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	}
	if err := s.store.remove(c.Request().Context(), auth.Caller(c).User.ID, id); errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	} else if err != nil {
		return err
	}
	return envelope.OKMessage(c, "The rule was removed.", nil)
}
