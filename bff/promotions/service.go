package promotions

import (
	"errors"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/promotions"
)

// Deps are what the promotions routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Service answers the promotions screens.
type Service struct {
	d     Deps
	store store
}

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil {
		return nil, errors.New("promotions: database and auth are required")
	}
	return &Service{d: d, store: store{db: d.DB}}, nil
}

// Promotions sit in the Campaigns menu: they need get_campaigns.
var need = access.Permitted(access.GetCampaigns)

// Routes lists the promotion endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service, once echo.MiddlewareFunc) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/promotions", need, s.handleList)
	a.Handle(g, http.MethodPost, "/promotions", need, s.handleCreate, once)
	a.Handle(g, http.MethodGet, "/promotions/:id", need, s.handleGet)
	a.Handle(g, http.MethodPut, "/promotions/:id", need, s.handleUpdate)
	a.Handle(g, http.MethodPost, "/promotions/:id/disable", need, s.handleDisable)
	a.Handle(g, http.MethodPost, "/promotions/:id/enable", need, s.handleEnable)
	a.Handle(g, http.MethodDelete, "/promotions/:id", need, s.handleDelete)
	a.Handle(g, http.MethodGet, "/on-promotion", need, s.handleOnPromotion)
}

// Messages the screens show.
const (
	MsgNotFound     = "Promotion not found."
	MsgCode         = "Use 3 to 32 letters, digits, dashes or underscores."
	MsgCodeTaken    = "You already have a code with this name."
	MsgKind         = "Choose free shipping or a percent off."
	MsgPercent      = "Enter a percent from 1 to 100."
	MsgDates        = "The end must be after the start."
	MsgLimit        = "Enter 1 or more, or leave it empty for no limit."
	MsgMinOrder     = "Enter an amount like 30.00, or 0 for no minimum."
	MsgCurrency     = "Choose the currency of the minimum order."
	MsgAppliesTo    = "Choose where the code applies: all stores, chosen stores or chosen campaigns."
	MsgStores       = "Choose one or more of your stores."
	MsgCampaigns    = "Choose one or more of your campaigns."
	MsgUsed         = "This code has been used, so it stays for its history: disable it instead."
	MsgCreated      = "The promotion was created."
	MsgSaved        = "The promotion was saved."
	MsgDisabled     = "The promotion was disabled."
	MsgEnabled      = "The promotion was enabled."
	MsgDeleted      = "The promotion was deleted."
	maxTargets      = 200
	maxLimitPerCode = 1_000_000
)

var codePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{3,32}$`)

// Input is a promotion as the screen sends it. Amounts are decimals ("30.00"); empty limits and
// dates mean none.
type Input struct {
	Code          string     `json:"code"`
	Kind          string     `json:"kind"`
	Percent       int        `json:"percent"`
	StartsAt      *time.Time `json:"starts_at"`
	EndsAt        *time.Time `json:"ends_at"`
	UsageLimit    *int       `json:"usage_limit"`
	PerBuyerLimit *int       `json:"per_buyer_limit"`
	MinOrder      string     `json:"min_order"`
	MinCurrency   string     `json:"min_order_currency"`
	AppliesTo     string     `json:"applies_to"`
	StoreIDs      []int64    `json:"store_ids"`
	CampaignIDs   []int64    `json:"campaign_ids"`
}

// input binds and checks a promotion of the caller: every problem at once, by field.
func (s *Service) input(c echo.Context) (promotions.Promotion, error) {
	var in Input
	if err := envelope.Bind(c, &in); err != nil {
		return promotions.Promotion{}, err
	}
	seller := auth.Caller(c).User.ID
	ctx := c.Request().Context()
	p := promotions.Promotion{SellerID: seller, Code: strings.TrimSpace(in.Code), Kind: in.Kind, Percent: in.Percent,
		StartsAt: in.StartsAt, EndsAt: in.EndsAt, UsageLimit: in.UsageLimit, PerBuyerLimit: in.PerBuyerLimit,
		AppliesTo: in.AppliesTo, StoreIDs: []int64{}, CampaignIDs: []int64{}}
	var errs []envelope.FieldError
	bad := func(field, msg string) { errs = append(errs, envelope.FieldError{Field: field, Message: msg}) }
	if !codePattern.MatchString(p.Code) {
		bad("code", MsgCode)
	}
	switch p.Kind {
	case promotions.KindFreeShipping:
		p.Percent = 0
	case promotions.KindPercent:
		if p.Percent < 1 || p.Percent > 100 {
			bad("percent", MsgPercent)
		}
	default:
		bad("kind", MsgKind)
	}
	if p.StartsAt != nil && p.EndsAt != nil && !p.EndsAt.After(*p.StartsAt) {
		bad("ends_at", MsgDates)
	}
	for _, l := range []struct {
		field string
		n     *int
	}{{"usage_limit", p.UsageLimit}, {"per_buyer_limit", p.PerBuyerLimit}} {
		if l.n != nil && (*l.n < 1 || *l.n > maxLimitPerCode) {
			bad(l.field, MsgLimit)
		}
	}
	cur, err := money.ParseCurrency(in.MinCurrency)
	if in.MinCurrency == "" {
		cur, err = money.USD, nil
	}
	if err != nil {
		bad("min_order_currency", MsgCurrency)
	}
	p.MinOrder = money.Zero(cur)
	if m := strings.TrimSpace(in.MinOrder); m != "" && err == nil {
		if p.MinOrder, err = money.Parse(m, cur); err != nil {
			bad("min_order", MsgMinOrder)
		}
	}
	switch p.AppliesTo {
	case promotions.AppliesToAll:
	case promotions.AppliesToStores:
		owned, err := s.store.ownedStores(ctx, seller, in.StoreIDs)
		if err != nil {
			return promotions.Promotion{}, err
		}
		if len(in.StoreIDs) == 0 || len(in.StoreIDs) > maxTargets || len(owned) != len(unique(in.StoreIDs)) {
			bad("store_ids", MsgStores)
		}
		p.StoreIDs = owned
	case promotions.AppliesToCampaigns:
		owned, err := s.store.ownedCampaigns(ctx, seller, in.CampaignIDs)
		if err != nil {
			return promotions.Promotion{}, err
		}
		if len(in.CampaignIDs) == 0 || len(in.CampaignIDs) > maxTargets || len(owned) != len(unique(in.CampaignIDs)) {
			bad("campaign_ids", MsgCampaigns)
		}
		p.CampaignIDs = owned
	default:
		bad("applies_to", MsgAppliesTo)
	}
	if len(errs) > 0 {
		return promotions.Promotion{}, envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	return p, nil
}

func unique(ids []int64) map[int64]bool {
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}

func (s *Service) handleList(c echo.Context) error {
	q, err := envelope.ParseListQuery(c)
	if err != nil {
		return err
	}
	items, total, err := s.store.list(c.Request().Context(), auth.Caller(c).User.ID, q.Q, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

func (s *Service) answer(c echo.Context, status int, msg string, id int64) error {
	p, err := s.store.get(c.Request().Context(), auth.Caller(c).User.ID, id)
	if errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	} else if err != nil {
		return err
	}
	return c.JSON(status, envelope.Response{Success: true, Message: msg, Data: p})
}

func (s *Service) handleGet(c echo.Context) error {
	return s.answer(c, http.StatusOK, "", envelope.PathID(c))
}

func (s *Service) save(c echo.Context, id int64) error {
	p, err := s.input(c)
	if err != nil {
		return err
	}
	saved, err := s.store.save(c.Request().Context(), id, p)
	switch {
	case errors.Is(err, ErrTaken):
		return envelope.Fail(http.StatusUnprocessableEntity, MsgCodeTaken, envelope.FieldError{Field: "code", Message: MsgCodeTaken})
	case errors.Is(err, ErrNotFound):
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	case err != nil:
		return err
	}
	if id == 0 {
		return s.answer(c, http.StatusCreated, MsgCreated, saved)
	}
	return s.answer(c, http.StatusOK, MsgSaved, saved)
}

func (s *Service) handleCreate(c echo.Context) error { return s.save(c, 0) }

func (s *Service) handleUpdate(c echo.Context) error {
	id := envelope.PathID(c)
	// Another seller's id answers 404 whatever the body says.
	if _, err := s.store.get(c.Request().Context(), auth.Caller(c).User.ID, id); errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	} else if err != nil {
		return err
	}
	return s.save(c, id)
}

func (s *Service) setDisabled(c echo.Context, disabled bool, msg string) error {
	id := envelope.PathID(c)
	if err := s.store.setDisabled(c.Request().Context(), auth.Caller(c).User.ID, id, disabled); errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	} else if err != nil {
		return err
	}
	return s.answer(c, http.StatusOK, msg, id)
}

func (s *Service) handleDisable(c echo.Context) error { return s.setDisabled(c, true, MsgDisabled) }
func (s *Service) handleEnable(c echo.Context) error  { return s.setDisabled(c, false, MsgEnabled) }

func (s *Service) handleDelete(c echo.Context) error {
	err := s.store.remove(c.Request().Context(), auth.Caller(c).User.ID, envelope.PathID(c))
	switch {
	case errors.Is(err, ErrNotFound):
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	case errors.Is(err, ErrUsed):
		return envelope.Fail(http.StatusUnprocessableEntity, MsgUsed)
	case err != nil:
		return err
	}
	return envelope.OKMessage(c, MsgDeleted, nil)
}

func (s *Service) handleOnPromotion(c echo.Context) error {
	q, err := envelope.ParseListQuery(c)
	if err != nil {
		return err
	}
	items, total, err := s.store.onPromotion(c.Request().Context(), auth.Caller(c).User.ID, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}
