package abandoned

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
)

// Deps are what the abandoned checkouts route uses.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Service answers the abandoned checkouts screen.
type Service struct {
	d     Deps
	store store
}

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil {
		return nil, errors.New("abandoned: database and auth are required")
	}
	return &Service{d: d, store: store{db: d.DB}}, nil
}

// Abandoned checkouts sit in the Orders menu: they need get_orders.
var need = access.Permitted(access.GetOrders)

// Routes lists the abandoned checkouts endpoint under g (mounted at /api).
func Routes(g *echo.Group, s *Service) {
	s.d.Auth.Handle(g, http.MethodGet, "/seller/abandoned-checkouts", need, s.handleList)
}

// MsgBadRecovered is the answer to a recovered filter other than yes or no.
const MsgBadRecovered = "The recovered filter must be yes or no."

func parseFilter(c echo.Context, utcOffset float64, now time.Time) (Filter, error) {
	f := Filter{Recovered: c.QueryParam("recovered"), Q: strings.TrimSpace(c.QueryParam("q"))}
	var errs []envelope.FieldError
	if f.Recovered != "" && f.Recovered != "yes" && f.Recovered != "no" {
		errs = append(errs, envelope.FieldError{Field: "recovered", Message: MsgBadRecovered})
	}
	from, to, rangeErrs := listing.DateRange(c, utcOffset, now)
	f.From, f.To = from, to
	errs = append(errs, rangeErrs...)
	if len(errs) > 0 {
		return Filter{}, envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	return f, nil
}

func (s *Service) handleList(c echo.Context) error {
	q, err := envelope.ParseListQuery(c)
	if err != nil {
		return err
	}
	now := time.Now()
	f, err := parseFilter(c, auth.Caller(c).User.UTCOffset(now), now)
	if err != nil {
		return err
	}
	sc, err := listing.ScopeOf(c, s.d.DB)
	if err != nil {
		return err
	}
	items, total, err := s.store.list(c.Request().Context(), sc, f, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}
