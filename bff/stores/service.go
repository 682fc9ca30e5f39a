package stores

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/pricing"
	"github.com/pressroom/pressroom/commerce/storesite"
)

// Deps are what the store routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
	// Site says at which addresses buyers reach a store (the sitemap screens show them).
	Site storesite.Address
}

// Service answers the store screens.
type Service struct {
	d     Deps
	store store
}

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil || d.Site.StoreDomain == "" {
		return nil, errors.New("stores: database, auth and the store domain are required")
	}
	return &Service{d: d, store: store{db: d.DB}}, nil
}

// Who may do what: seeing stores is part of working with campaigns; changing them, like pricing,
// needs update_campaign.
var (
	needRead  = access.Permitted(access.GetCampaigns)
	needWrite = access.Permitted(access.UpdateCampaign)
)

// Routes lists the store endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/seller/stores", needRead, s.handleList)
	a.Handle(g, http.MethodPost, "/seller/stores", needWrite, s.handleCreate)
	a.Handle(g, http.MethodGet, "/seller/stores/slug-availability", needRead, s.handleSlug)
	a.Handle(g, http.MethodGet, "/seller/stores/:id", needRead, s.handleGet)
	a.Handle(g, http.MethodPut, "/seller/stores/:id", needWrite, s.handleUpdate)
	a.Handle(g, http.MethodDelete, "/seller/stores/:id", needWrite, s.handleDelete)
	a.Handle(g, http.MethodGet, "/seller/stores/:id/sitemap", needRead, s.handleSitemap)
	a.Handle(g, http.MethodGet, "/seller/stores/:id/sitemap/:file/urls", needRead, s.handleSitemapURLs)
	a.Handle(g, http.MethodGet, "/seller/store-pages", needRead, s.handlePages)
	a.Handle(g, http.MethodPost, "/seller/store-pages", needWrite, s.handleCreatePage)
	a.Handle(g, http.MethodGet, "/seller/store-pages/slug-availability", needRead, s.handlePageSlug)
	a.Handle(g, http.MethodGet, "/seller/store-pages/:id", needRead, s.handlePage)
	a.Handle(g, http.MethodPut, "/seller/store-pages/:id", needWrite, s.handleUpdatePage)
	a.Handle(g, http.MethodDelete, "/seller/store-pages/:id", needWrite, s.handleDeletePage)
	a.Handle(g, http.MethodGet, "/seller/stores/:id/products", needRead, s.handleProducts)
	a.Handle(g, http.MethodPost, "/seller/stores/:id/campaigns", needWrite, s.handlePublish)
	a.Handle(g, http.MethodDelete, "/seller/stores/:id/campaigns/:campaign_id", needWrite, s.handleUnpublish)
}

// Messages the screens show.
const (
	MsgStoreNotFound = "Store not found."
	MsgSlugTaken     = "This address is taken; choose another."
	MsgArchived      = "This campaign is archived: unarchive it on the campaigns page to sell it."
)

func owner(c echo.Context) int64 { return auth.Caller(c).User.ID }

// visible are the caller's account's stores the caller may see (the store filter).
func (s *Service) visible(c echo.Context) ([]int64, error) {
	ids, err := s.store.ids(c.Request().Context(), owner(c))
	if err != nil {
		return nil, err
	}
	u := auth.Caller(c).User
	return access.StoreFilter(u.Access(), ids), nil
}

// storeOf is the caller's visible store named by :id, or a 404.
func (s *Service) storeOf(c echo.Context) (Store, error) {
	id := envelope.PathID(c)
	vis, err := s.visible(c)
	if err != nil {
		return Store{}, err
	}
	if id == 0 || !slices.Contains(vis, id) {
		return Store{}, envelope.Fail(http.StatusNotFound, MsgStoreNotFound)
	}
	st, err := s.store.get(c.Request().Context(), owner(c), id)
	if errors.Is(err, ErrNotFound) {
		return Store{}, envelope.Fail(http.StatusNotFound, MsgStoreNotFound)
	}
	return st, err
}

func invalid(errs []envelope.FieldError) error {
	return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
}

func slugTaken() error {
	return envelope.Fail(http.StatusUnprocessableEntity, MsgSlugTaken, envelope.FieldError{Field: "slug", Message: MsgSlugTaken})
}

func (s *Service) handleList(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	vis, err := s.visible(c)
	if err != nil {
		return err
	}
	items, total, err := s.store.list(c.Request().Context(), owner(c), vis, q.Q, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

func (s *Service) handleGet(c echo.Context) error {
	st, err := s.storeOf(c)
	if err != nil {
		return err
	}
	return envelope.OK(c, st)
}

// AnswerSlug is the answer of an address check while the seller types: {slug, available, message}.
// problem is what is wrong with the address itself ("" for nothing); only then is used asked
// whether it is taken, which taken then says.
func AnswerSlug(c echo.Context, slug, problem string, used func() (bool, error), taken string) error {
	out := map[string]any{"slug": slug, "available": false, "message": problem}
	if problem == "" {
		u, err := used()
		if err != nil {
			return err
		}
		out["available"] = !u
		if u {
			out["message"] = taken
		}
	}
	return envelope.OK(c, out)
}

func (s *Service) handleSlug(c echo.Context) error {
	slug := strings.ToLower(strings.TrimSpace(c.QueryParam("slug")))
	except, _ := strconv.ParseInt(c.QueryParam("except"), 10, 64)
	return AnswerSlug(c, slug, slugProblem(slug), func() (bool, error) {
		return s.store.slugUsed(c.Request().Context(), slug, except)
	}, MsgSlugTaken)
}

func (s *Service) handleCreate(c echo.Context) error {
	var in StoreInput
	if err := envelope.Bind(c, &in); err != nil {
		return err
	}
	if errs := in.check(); len(errs) > 0 {
		return invalid(errs)
	}
	id, err := s.store.create(c.Request().Context(), owner(c), in)
	if errors.Is(err, ErrSlugTaken) {
		return slugTaken()
	} else if err != nil {
		return err
	}
	st, err := s.store.get(c.Request().Context(), owner(c), id)
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, "The store was created.", st)
}

func (s *Service) handleUpdate(c echo.Context) error {
	st, err := s.storeOf(c)
	if err != nil {
		return err
	}
	var in StoreInput
	if err := envelope.Bind(c, &in); err != nil {
		return err
	}
	if errs := in.check(); len(errs) > 0 {
		return invalid(errs)
	}
	if err := s.store.update(c.Request().Context(), owner(c), st.ID, in); errors.Is(err, ErrSlugTaken) {
		return slugTaken()
	} else if err != nil {
		return err
	}
	st, err = s.store.get(c.Request().Context(), owner(c), st.ID)
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, "The store was saved.", st)
}

func (s *Service) handleDelete(c echo.Context) error {
	st, err := s.storeOf(c)
	if err != nil {
		return err
	}
	if err := s.store.remove(c.Request().Context(), owner(c), st.ID); err != nil {
		return err
	}
	return envelope.OKMessage(c, "The store was deleted.", nil)
}

func (s *Service) handleProducts(c echo.Context) error {
	st, err := s.storeOf(c)
	if err != nil {
		return err
	}
	ps, err := s.store.products(c.Request().Context(), st.ID)
	if err != nil {
		return err
	}
	return envelope.OK(c, ps)
}

// handlePublish puts a campaign on sale in the store: each product at base cost plus the margin,
// or at its own price, in the store's currency, priced by commerce/pricing.
func (s *Service) handlePublish(c echo.Context) error {
	st, err := s.storeOf(c)
	if err != nil {
		return err
	}
	var in PublishInput
	if err := envelope.Bind(c, &in); err != nil {
		return err
	}
	ctx := c.Request().Context()
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	sets, err := s.priced(ctx, tx, owner(c), st, in)
	if err != nil {
		return err
	}
	if err := pricing.Write(ctx, tx, st.ID, money.Currency(st.Currency), sets); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	ps, err := s.store.products(ctx, st.ID)
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, "The campaign is published to "+st.Name+".", ps)
}

// priced checks a publication and prices its products: every problem at once, by field.
func (s *Service) priced(ctx context.Context, tx *sqlx.Tx, owner int64, st Store, in PublishInput) ([]pricing.Set, error) {
	cur := money.Currency(st.Currency)
	var errs []envelope.FieldError
	if in.Status == "" {
		in.Status = "active"
	}
	if !slices.Contains(ProductStatuses, in.Status) {
		errs = append(errs, envelope.FieldError{Field: "status", Message: "The status must be one of " + strings.Join(ProductStatuses, ", ") + "."})
	}
	margin := money.Zero(cur)
	if strings.TrimSpace(in.Margin) != "" {
		m, err := money.Parse(in.Margin, cur)
		if err != nil {
			errs = append(errs, envelope.FieldError{Field: "margin", Message: "The margin must be an amount like 11.49: " + err.Error() + "."})
		}
		margin = m
	}
	products, err := s.store.campaignProducts(ctx, tx, owner, in.CampaignID)
	switch {
	case errors.Is(err, ErrNotFound):
		errs = append(errs, envelope.FieldError{Field: "campaign_id", Message: "Choose one of your campaigns that has products."})
	case err != nil:
		return nil, err
	case products[0].CampaignStatus == "archived":
		errs = append(errs, envelope.FieldError{Field: "campaign_id", Message: MsgArchived})
	}
	for id := range in.Prices {
		if !slices.ContainsFunc(products, func(p Product) bool { return strconv.FormatInt(p.ProductID, 10) == id }) {
			errs = append(errs, envelope.FieldError{Field: "prices." + id, Message: "This product is not in the campaign."})
		}
	}
	if len(errs) > 0 {
		return nil, invalid(errs)
	}
	ids := make([]int64, len(products))
	for i, p := range products {
		ids[i] = p.ProductID
	}
	costs, err := pricing.Costs(ctx, tx, cur, ids)
	if err != nil {
		return nil, err
	}
	settings, err := pricing.LoadSettings(ctx, tx, cur)
	if err != nil {
		return nil, err
	}
	sets := make([]pricing.Set, 0, len(products))
	for _, p := range products {
		id := strconv.FormatInt(p.ProductID, 10)
		field, intent := "margin", pricing.Intent{Mode: pricing.Adjust, Margin: margin.Amount}
		if raw, ok := in.Prices[id]; ok {
			price, err := money.Parse(raw, cur)
			if err != nil {
				errs = append(errs, envelope.FieldError{Field: "prices." + id, Message: "The price of " + p.Name + " must be an amount like 19.99."})
				continue
			}
			field, intent = "prices."+id, pricing.Intent{Mode: pricing.Fixed, Price: price.Amount}
		}
		stored, q, err := pricing.Sell(costs[p.ProductID], intent, settings)
		var pe *pricing.PriceError
		switch {
		case errors.As(err, &pe):
			errs = append(errs, envelope.FieldError{Field: field, Message: p.Name + ": " + pe.Error()})
		case err != nil:
			return nil, err
		default:
			sets = append(sets, pricing.Set{ProductID: p.ProductID, CampaignID: p.CampaignID, Stored: stored, CompareAt: q.CompareAt,
				Status: in.Status})
		}
	}
	if len(errs) > 0 {
		return nil, invalid(errs)
	}
	return sets, nil
}

func (s *Service) handleUnpublish(c echo.Context) error {
	st, err := s.storeOf(c)
	if err != nil {
		return err
	}
	if err := s.store.unpublish(c.Request().Context(), st.ID, envelope.PathParamID(c, "campaign_id")); errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, "This campaign is not published to this store.")
	} else if err != nil {
		return err
	}
	return envelope.OKMessage(c, "The campaign is no longer sold in "+st.Name+".", nil)
}
