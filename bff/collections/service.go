package collections

import (
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
	"github.com/pressroom/pressroom/bff/stores"
)

// Deps are what the collection routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Service answers the collection screens.
type Service struct {
	d     Deps
	store store
}

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil {
		return nil, errors.New("collections: database and auth are required")
	}
	return &Service{d: d, store: store{db: d.DB}}, nil
}

// Collections sit in the Campaigns menu: seeing them needs get_campaigns, changing them, like
// changing what a store shows, update_campaign.
var (
	needRead  = access.Permitted(access.GetCampaigns)
	needWrite = access.Permitted(access.UpdateCampaign)
)

// Routes lists the collection endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service, once echo.MiddlewareFunc) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/seller/collections", needRead, s.handleList)
	a.Handle(g, http.MethodPost, "/seller/collections", needWrite, s.handleCreate, once)
	a.Handle(g, http.MethodGet, "/seller/collections/slug-availability", needRead, s.handleSlug)
	a.Handle(g, http.MethodGet, "/seller/collections/:id", needRead, s.handleGet)
	a.Handle(g, http.MethodPut, "/seller/collections/:id", needWrite, s.handleUpdate)
	a.Handle(g, http.MethodDelete, "/seller/collections/:id", needWrite, s.handleDelete)
	a.Handle(g, http.MethodPut, "/seller/collections/:id/featured-campaigns", needWrite, s.handleFeatured)
}

func seller(c echo.Context) int64 { return auth.Caller(c).User.ID }

func notFound() error { return envelope.Fail(http.StatusNotFound, MsgNotFound) }

func (s *Service) handleList(c echo.Context) error {
	q, err := envelope.ParseListQuery(c)
	if err != nil {
		return err
	}
	items, total, err := s.store.list(c.Request().Context(), seller(c), q.Q, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

func (s *Service) answer(c echo.Context, status int, msg string, id int64) error {
	col, err := s.store.get(c.Request().Context(), seller(c), id)
	if errors.Is(err, ErrNotFound) {
		return notFound()
	} else if err != nil {
		return err
	}
	return c.JSON(status, envelope.Response{Success: true, Message: msg, Data: col, Errors: []envelope.FieldError{}})
}

func (s *Service) handleGet(c echo.Context) error {
	return s.answer(c, http.StatusOK, "", envelope.PathID(c))
}

// handleSlug says whether the caller may give a collection (other than except) an address.
func (s *Service) handleSlug(c echo.Context) error {
	slug := strings.ToLower(strings.TrimSpace(c.QueryParam("slug")))
	except, _ := strconv.ParseInt(c.QueryParam("except"), 10, 64)
	problem := ""
	if !stores.PathSlugOK(slug) {
		problem = MsgSlug
	}
	return stores.AnswerSlug(c, slug, problem, func() (bool, error) {
		return s.store.slugUsed(c.Request().Context(), seller(c), slug, except)
	}, MsgSlugTaken)
}

// input binds and checks a collection of the caller: every problem at once, by field. Stores must
// be the account's and visible to the caller (the store filter); campaigns the account's.
func (s *Service) input(c echo.Context) (Input, error) {
	var in Input
	if err := envelope.Bind(c, &in); err != nil {
		return Input{}, err
	}
	errs := in.check()
	ctx := c.Request().Context()
	if !*in.AllStores && len(in.StoreIDs) > 0 {
		ids, err := s.store.storeIDs(ctx, seller(c))
		if err != nil {
			return Input{}, err
		}
		visible := access.StoreFilter(auth.Caller(c).User.Access(), ids)
		for _, id := range in.StoreIDs {
			if !slices.Contains(visible, id) {
				errs = append(errs, envelope.FieldError{Field: "store_ids", Message: MsgStores})
				break
			}
		}
	}
	if len(in.CampaignIDs) > 0 && len(in.CampaignIDs) <= MaxCampaigns {
		owned, err := s.store.ownedCampaigns(ctx, seller(c), in.CampaignIDs)
		if err != nil {
			return Input{}, err
		}
		if len(owned) != len(in.CampaignIDs) {
			errs = append(errs, envelope.FieldError{Field: "campaign_ids", Message: MsgCampaigns})
		}
	}
	if len(errs) > 0 {
		return Input{}, invalid(errs...)
	}
	return in, nil
}

func (s *Service) save(c echo.Context, id int64) error {
	in, err := s.input(c)
	if err != nil {
		return err
	}
	saved, err := s.store.save(c.Request().Context(), seller(c), id, in)
	switch {
	case errors.Is(err, ErrSlugTaken):
		return invalid(envelope.FieldError{Field: "slug", Message: MsgSlugTaken})
	case errors.Is(err, ErrNotFound):
		return notFound()
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
	if _, err := s.store.get(c.Request().Context(), seller(c), id); errors.Is(err, ErrNotFound) {
		return notFound()
	} else if err != nil {
		return err
	}
	return s.save(c, id)
}

func (s *Service) handleDelete(c echo.Context) error {
	if err := s.store.remove(c.Request().Context(), seller(c), envelope.PathID(c)); errors.Is(err, ErrNotFound) {
		return notFound()
	} else if err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgDeleted, nil)
}

func (s *Service) handleFeatured(c echo.Context) error {
	id := envelope.PathID(c)
	if _, err := s.store.get(c.Request().Context(), seller(c), id); errors.Is(err, ErrNotFound) {
		return notFound()
	} else if err != nil {
		return err
	}
	var in FeaturedInput
	if err := envelope.Bind(c, &in); err != nil {
		return err
	}
	if errs := in.check(); len(errs) > 0 {
		return invalid(errs...)
	}
	err := s.store.feature(c.Request().Context(), seller(c), id, in.CampaignIDs)
	switch {
	case errors.Is(err, ErrNotInCollection):
		return invalid(envelope.FieldError{Field: "campaign_ids", Message: MsgFeatured})
	case errors.Is(err, ErrNotFound):
		return notFound()
	case err != nil:
		return err
	}
	return s.answer(c, http.StatusOK, MsgFeaturedSaved, id)
}
