package stock

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/stock"
)

// Deps are what the stock routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Service answers the stock status screen.
type Service struct{ d Deps }

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil {
		return nil, errors.New("stock: database and auth are required")
	}
	return &Service{d: d}, nil
}

// historyLength is how many changes the admin's history shows.
const historyLength = 100

// Routes lists the stock endpoints under g (mounted at /api). Sellers read what their campaigns use
// (the Products menu sits with the campaigns: get_campaigns); only admins change it.
func Routes(g *echo.Group, s *Service) {
	a, seller := s.d.Auth, access.Permitted(access.GetCampaigns)
	a.Handle(g, http.MethodGet, "/seller/stock-status", seller, s.handleGrid)
	a.Handle(g, http.MethodGet, "/seller/stock-status/campaigns", seller, s.handleTouched)
	a.Handle(g, http.MethodGet, "/admin/stock-status", access.AdminOnly, s.handleGrid)
	a.Handle(g, http.MethodPut, "/admin/stock-status", access.AdminOnly, s.handleSet)
	a.Handle(g, http.MethodGet, "/admin/stock-status/history", access.AdminOnly, s.handleHistory)
}

// Messages the screen shows.
const (
	MsgTemplateID = "Choose a product of the catalogue."
	MsgSaved      = "The stock status was saved."
	MsgUnchanged  = "Nothing changed: every colour and size was already so."
)

func (s *Service) handleGrid(c echo.Context) error {
	f := stock.Filter{OutOnly: c.QueryParam("out_of_stock") == "1" || c.QueryParam("out_of_stock") == "true"}
	if v := c.QueryParam("template_id"); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			return envelope.Fail(http.StatusUnprocessableEntity, MsgTemplateID, envelope.FieldError{Field: "template_id", Message: MsgTemplateID})
		}
		f.TemplateID = id
	}
	rows, err := stock.Grid(c.Request().Context(), s.d.DB, f)
	if err != nil {
		return err
	}
	return envelope.OK(c, rows)
}

func (s *Service) handleSet(c echo.Context) error {
	var in struct {
		Changes []stock.Change `json:"changes"`
	}
	if err := envelope.Bind(c, &in); err != nil {
		return err
	}
	n, err := stock.Set(c.Request().Context(), s.d.DB, auth.Caller(c).User.ID, in.Changes)
	var ce *stock.ChangeError
	if errors.As(err, &ce) {
		field := ce.Field
		if field != "changes" {
			field = fmt.Sprintf("changes[%d].%s", ce.Index, ce.Field)
		}
		return envelope.Fail(http.StatusUnprocessableEntity, ce.Message, envelope.FieldError{Field: field, Message: ce.Message})
	} else if err != nil {
		return err
	}
	msg := MsgSaved
	if n == 0 {
		msg = MsgUnchanged
	}
	return envelope.OKMessage(c, msg, map[string]int{"changed": n})
}

func (s *Service) handleHistory(c echo.Context) error {
	h, err := stock.History(c.Request().Context(), s.d.DB, historyLength)
	if err != nil {
		return err
	}
	return envelope.OK(c, h)
}

// Touched is a product of the seller's campaign sold in a colour and size out of stock.
type Touched struct {
	CampaignID   int64         `db:"campaign_id" json:"campaign_id"`
	CampaignName string        `db:"campaign_name" json:"campaign_name"`
	ProductID    int64         `db:"product_id" json:"product_id"`
	ProductName  string        `db:"product_name" json:"product_name"`
	OutOfStock   stock.Options `db:"-" json:"out_of_stock"`
}

const qProducts = `
SELECT c.id AS campaign_id, c.name AS campaign_name, p.id AS product_id, p.name AS product_name
FROM campaign_products p
JOIN campaigns c ON c.id = p.campaign_id
WHERE c.user_id = $1 AND p.template_id IN (SELECT template_id FROM out_of_stock_variants)
ORDER BY c.id DESC, p.position, p.id`

// handleTouched answers the caller's campaign products that cannot be sold in some colour and size.
func (s *Service) handleTouched(c echo.Context) error {
	ctx := c.Request().Context()
	var products []Touched
	if err := s.d.DB.SelectContext(ctx, &products, qProducts, auth.Caller(c).User.ID); err != nil {
		return err
	}
	ids := make([]int64, len(products))
	for i, p := range products {
		ids[i] = p.ProductID
	}
	sold, err := stock.Unavailable(ctx, s.d.DB, ids)
	if err != nil {
		return err
	}
	out := []Touched{}
	for _, p := range products {
		if p.OutOfStock = sold[p.ProductID]; len(p.OutOfStock) > 0 {
			out = append(out, p)
		}
	}
	return envelope.OK(c, out)
}
