package webhooks

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/webhooks"
)

// Messages of the notification settings calls.
const (
	MsgNotFound         = "Endpoint not found."
	MsgDeliveryNotFound = "Delivery not found."
	MsgCreated          = "The endpoint has been added."
	MsgSaved            = "The endpoint has been saved."
	MsgDeleted          = "The endpoint has been deleted."
	MsgReplayed         = "The delivery will be sent again in a moment."
	MsgTestQueued       = "A test message will be sent in a moment."
	MsgTooMany          = "A seller may have at most 20 endpoints."
)

// maxEndpoints caps a seller's endpoints.
const maxEndpoints = 20

// Deps are what the routes use.
type Deps struct {
	DB    *sqlx.DB
	Auth  *auth.Service
	Hooks webhooks.Config
}

// Service answers the notification settings.
type Service struct{ d Deps }

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil {
		return nil, errors.New("webhooks: database and auth are required")
	}
	if err := d.Hooks.Validate(); err != nil {
		return nil, err
	}
	return &Service{d: d}, nil
}

// Notification settings belong to the account's owner: team members working in a seller's account
// do not see them.
var need = access.Need{OwnAccount: true}

// Base is where the routes are mounted under /api.
const Base = "/settings/notification/endpoints"

// Routes lists the endpoints under g (mounted at /api). once makes a create safe to repeat.
func Routes(g *echo.Group, s *Service, once echo.MiddlewareFunc) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, Base, need, s.handleList)
	a.Handle(g, http.MethodPost, Base, need, s.handleCreate, once)
	a.Handle(g, http.MethodGet, Base+"/:id", need, s.handleGet)
	a.Handle(g, http.MethodPut, Base+"/:id", need, s.handleUpdate)
	a.Handle(g, http.MethodDelete, Base+"/:id", need, s.handleDelete)
	a.Handle(g, http.MethodPost, Base+"/:id/test", need, s.handleTest)
	a.Handle(g, http.MethodGet, Base+"/:id/deliveries", need, s.handleDeliveries)
	a.Handle(g, http.MethodGet, Base+"/:id/deliveries/:delivery/attempts", need, s.handleAttempts)
	a.Handle(g, http.MethodPost, Base+"/:id/deliveries/:delivery/replay", need, s.handleReplay)
}

// view is an endpoint as the settings show it: a Telegram endpoint's bot token under its own name.
type view struct {
	webhooks.Endpoint
	KindLabel string `json:"kind_label"`
	BotToken  string `json:"bot_token,omitempty"`
}

func viewOf(e webhooks.Endpoint) view {
	v := view{Endpoint: e, KindLabel: webhooks.KindLabels[e.Kind]}
	if e.Kind == webhooks.KindTelegram {
		v.BotToken, v.URL = e.URL, ""
	}
	if e.Kind != webhooks.KindCustom {
		v.Secret = ""
	}
	return v
}

func seller(c echo.Context) int64 { return auth.Caller(c).User.ID }

// endpoint is the caller's endpoint of the route's :id, or 404.
func (s *Service) endpoint(c echo.Context) (webhooks.Endpoint, error) {
	e, err := webhooks.Get(c.Request().Context(), s.d.DB, seller(c), envelope.PathID(c))
	if errors.Is(err, webhooks.ErrNotFound) {
		return e, envelope.Fail(http.StatusNotFound, MsgNotFound)
	}
	return e, err
}

func (s *Service) handleList(c echo.Context) error {
	es, err := webhooks.List(c.Request().Context(), s.d.DB, seller(c))
	if err != nil {
		return err
	}
	out := make([]view, len(es))
	for i, e := range es {
		out[i] = viewOf(e)
	}
	return envelope.OK(c, out)
}

func (s *Service) handleGet(c echo.Context) error {
	e, err := s.endpoint(c)
	if err != nil {
		return err
	}
	return envelope.OK(c, viewOf(e))
}

// input binds and checks the body, answering 422 with every field's problem.
func (s *Service) input(c echo.Context) (webhooks.Input, error) {
	var in webhooks.Input
	if err := envelope.Bind(c, &in); err != nil {
		return in, err
	}
	if err := s.d.Hooks.Check(&in); err != nil {
		var ie *webhooks.InvalidError
		if errors.As(err, &ie) {
			fe := make([]envelope.FieldError, len(ie.Errors))
			for i, e := range ie.Errors {
				fe[i] = envelope.FieldError{Field: e.Field, Message: e.Message}
			}
			return in, envelope.Fail(http.StatusUnprocessableEntity, fe[0].Message, fe...)
		}
		return in, err
	}
	return in, nil
}

func (s *Service) handleCreate(c echo.Context) error {
	in, err := s.input(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	var n int
	if err := s.d.DB.GetContext(ctx, &n, `SELECT count(*) FROM webhook_endpoints WHERE seller_id = $1`, seller(c)); err != nil {
		return err
	}
	if n >= maxEndpoints {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgTooMany)
	}
	e, err := webhooks.Create(ctx, s.d.DB, seller(c), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, envelope.Response{Success: true, Message: MsgCreated, Data: viewOf(e)})
}

func (s *Service) handleUpdate(c echo.Context) error {
	in, err := s.input(c)
	if err != nil {
		return err
	}
	e, err := webhooks.Update(c.Request().Context(), s.d.DB, seller(c), envelope.PathID(c), in)
	if errors.Is(err, webhooks.ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	}
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgSaved, viewOf(e))
}

func (s *Service) handleDelete(c echo.Context) error {
	err := webhooks.Delete(c.Request().Context(), s.d.DB, seller(c), envelope.PathID(c))
	if errors.Is(err, webhooks.ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	}
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgDeleted, nil)
}

func (s *Service) handleTest(c echo.Context) error {
	e, err := s.endpoint(c)
	if err != nil {
		return err
	}
	d, err := webhooks.SendTest(c.Request().Context(), s.d.DB, e.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, envelope.Response{Success: true, Message: MsgTestQueued, Data: d})
}

func (s *Service) handleDeliveries(c echo.Context) error {
	q, err := envelope.ParseListQuery(c)
	if err != nil {
		return err
	}
	e, err := s.endpoint(c)
	if err != nil {
		return err
	}
	items, total, err := webhooks.Deliveries(c.Request().Context(), s.d.DB, e.ID, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

// deliveryID is the route's :delivery, or 0.
func deliveryID(c echo.Context) int64 {
	id, err := strconv.ParseInt(c.Param("delivery"), 10, 64)
	if err != nil || id <= 0 {
		return 0
	}
	return id
}

func (s *Service) handleAttempts(c echo.Context) error {
	e, err := s.endpoint(c)
	if err != nil {
		return err
	}
	as, err := webhooks.Attempts(c.Request().Context(), s.d.DB, e.ID, deliveryID(c))
	if err != nil {
		return err
	}
	return envelope.OK(c, as)
}

func (s *Service) handleReplay(c echo.Context) error {
	e, err := s.endpoint(c)
	if err != nil {
		return err
	}
	err = webhooks.Replay(c.Request().Context(), s.d.DB, e.ID, deliveryID(c))
	if errors.Is(err, webhooks.ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgDeliveryNotFound)
	}
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgReplayed, nil)
}
