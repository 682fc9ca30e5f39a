package customers

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/commerce/money"
)

// Deps are what the customers routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Service answers the customers screens.
type Service struct {
	d     Deps
	store store
}

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil {
		return nil, errors.New("customers: database and auth are required")
	}
	return &Service{d: d, store: store{db: d.DB}}, nil
}

// Customers are read from orders: every call needs get_orders, as the orders do.
var need = access.Permitted(access.GetOrders)

// Routes lists the customers endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/seller/customers", need, s.handleList)
	a.Handle(g, http.MethodGet, "/seller/customers/export.csv", need, s.handleExport)
	a.Handle(g, http.MethodGet, "/seller/customers/:id", need, s.handleGet)
}

// MsgNotFound is the answer for a customer the caller cannot see.
const MsgNotFound = "Customer not found."

func query(c echo.Context) (envelope.ListQuery, Query, error) {
	lq, err := envelope.ParseListQuery(c, Sorts...)
	if err != nil {
		return envelope.ListQuery{}, Query{}, err
	}
	// Without order_by: the last order first.
	return lq, Query{Q: lq.Q, Sort: lq.OrderBy, Asc: lq.OrderAsc}, nil
}

func (s *Service) handleList(c echo.Context) error {
	lq, q, err := query(c)
	if err != nil {
		return err
	}
	sc, err := listing.ScopeOf(c, s.d.DB)
	if err != nil {
		return err
	}
	items, total, err := s.store.list(c.Request().Context(), sc, q, lq.PerPage, lq.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, lq))
}

// exportHeader is the CSV's first line; total_spent is one "USD 12.50" per currency, joined by "; ".
var exportHeader = []string{"email", "name", "country", "orders", "total_spent", "first_order_at", "last_order_at"}

func spentCell(spent []money.Money) string {
	parts := make([]string, len(spent))
	for i, m := range spent {
		parts[i] = string(m.Currency) + " " + m.Decimal()
	}
	return strings.Join(parts, "; ")
}

func (s *Service) handleExport(c echo.Context) error {
	_, q, err := query(c)
	if err != nil {
		return err
	}
	sc, err := listing.ScopeOf(c, s.d.DB)
	if err != nil {
		return err
	}
	return listing.StreamCSV(c, "customers", exportHeader, func(write func([]string) error) error {
		return s.store.export(c.Request().Context(), sc, q, func(cu Customer) error {
			return write([]string{cu.Email, cu.Name, cu.Country, strconv.Itoa(cu.Orders), spentCell(cu.Spent),
				cu.FirstOrderAt.UTC().Format(time.RFC3339), cu.LastOrderAt.UTC().Format(time.RFC3339)})
		})
	})
}

func (s *Service) handleGet(c echo.Context) error {
	id := envelope.PathID(c)
	if id == 0 {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	}
	sc, err := listing.ScopeOf(c, s.d.DB)
	if err != nil {
		return err
	}
	d, err := s.store.detail(c.Request().Context(), sc, id)
	if errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	} else if err != nil {
		return err
	}
	return envelope.OK(c, d)
}
