package blog

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/bff/stores"
	"github.com/pressroom/pressroom/platform/outbox"
)

// Deps are what the blog routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
	// Relay sends the renderer the cover sizes queued with a post.
	Relay *outbox.Relay
}

// Service answers the blog screens.
type Service struct {
	d     Deps
	store store
}

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil || d.Relay == nil {
		return nil, errors.New("blog: database, auth and relay are required")
	}
	return &Service{d: d, store: store{db: d.DB}}, nil
}

// The blog is part of the stores: seeing it needs get_campaigns, changing it update_campaign.
var (
	needRead  = access.Permitted(access.GetCampaigns)
	needWrite = access.Permitted(access.UpdateCampaign)
)

// Routes lists the blog endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service, once echo.MiddlewareFunc) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/seller/blog/categories", needRead, s.handleCategories)
	a.Handle(g, http.MethodPost, "/seller/blog/categories", needWrite, s.handleCreateCategory, once)
	a.Handle(g, http.MethodGet, "/seller/blog/categories/slug-availability", needRead, s.handleCategorySlug)
	a.Handle(g, http.MethodGet, "/seller/blog/categories/:id", needRead, s.handleCategory)
	a.Handle(g, http.MethodPut, "/seller/blog/categories/:id", needWrite, s.handleUpdateCategory)
	a.Handle(g, http.MethodDelete, "/seller/blog/categories/:id", needWrite, s.handleDeleteCategory)
	a.Handle(g, http.MethodGet, "/seller/blog/posts", needRead, s.handlePosts)
	a.Handle(g, http.MethodPost, "/seller/blog/posts", needWrite, s.handleCreatePost, once)
	a.Handle(g, http.MethodGet, "/seller/blog/posts/slug-availability", needRead, s.handlePostSlug)
	a.Handle(g, http.MethodGet, "/seller/blog/posts/:id", needRead, s.handlePost)
	a.Handle(g, http.MethodPut, "/seller/blog/posts/:id", needWrite, s.handleUpdatePost)
	a.Handle(g, http.MethodDelete, "/seller/blog/posts/:id", needWrite, s.handleDeletePost)
}

func seller(c echo.Context) int64 { return auth.Caller(c).User.ID }

func created(c echo.Context, msg string, data any) error {
	return c.JSON(http.StatusCreated, envelope.Response{Success: true, Message: msg, Data: data, Errors: []envelope.FieldError{}})
}

func (s *Service) handleCategories(c echo.Context) error {
	q, err := envelope.ParseListQuery(c)
	if err != nil {
		return err
	}
	items, total, err := s.store.categories(c.Request().Context(), seller(c), q.Q, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

func (s *Service) handleCategory(c echo.Context) error {
	cat, err := s.store.category(c.Request().Context(), seller(c), envelope.PathID(c))
	if errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgCategoryNotFound)
	} else if err != nil {
		return err
	}
	return envelope.OK(c, cat)
}

func (s *Service) handleCategorySlug(c echo.Context) error {
	slug := strings.ToLower(strings.TrimSpace(c.QueryParam("slug")))
	except, _ := strconv.ParseInt(c.QueryParam("except"), 10, 64)
	problem := ""
	if !stores.PathSlugOK(slug) {
		problem = MsgSlug
	}
	return stores.AnswerSlug(c, slug, problem, func() (bool, error) {
		return s.store.categorySlugUsed(c.Request().Context(), seller(c), slug, except)
	}, MsgCategorySlugTaken)
}

func (s *Service) saveCategory(c echo.Context, id int64) error {
	var in CategoryInput
	if err := envelope.Bind(c, &in); err != nil {
		return err
	}
	if errs := in.check(); len(errs) > 0 {
		return invalid(errs...)
	}
	ctx := c.Request().Context()
	id, err := s.store.saveCategory(ctx, seller(c), id, in)
	switch {
	case errors.Is(err, ErrSlugTaken):
		return invalid(envelope.FieldError{Field: "slug", Message: MsgCategorySlugTaken})
	case errors.Is(err, ErrNotFound):
		return envelope.Fail(http.StatusNotFound, MsgCategoryNotFound)
	case err != nil:
		return err
	}
	cat, err := s.store.category(ctx, seller(c), id)
	if err != nil {
		return err
	}
	if c.Request().Method == http.MethodPost {
		return created(c, MsgCategoryCreated, cat)
	}
	return envelope.OKMessage(c, MsgCategorySaved, cat)
}

func (s *Service) handleCreateCategory(c echo.Context) error { return s.saveCategory(c, 0) }

func (s *Service) handleUpdateCategory(c echo.Context) error {
	id := envelope.PathID(c)
	// Another seller's id answers 404 whatever the body says.
	if _, err := s.store.category(c.Request().Context(), seller(c), id); errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgCategoryNotFound)
	} else if err != nil {
		return err
	}
	return s.saveCategory(c, id)
}

func (s *Service) handleDeleteCategory(c echo.Context) error {
	if err := s.store.removeCategory(c.Request().Context(), seller(c), envelope.PathID(c)); errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgCategoryNotFound)
	} else if err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgCategoryDeleted, nil)
}

// States a posts list may be narrowed to.
var states = []string{StatusDraft, StateScheduled, StatusPublished}

func (s *Service) handlePosts(c echo.Context) error {
	q, err := envelope.ParseListQuery(c)
	if err != nil {
		return err
	}
	sc, err := listing.ScopeOf(c, s.d.DB)
	if err != nil {
		return err
	}
	f := PostFilter{State: c.QueryParam("state"), Q: q.Q}
	if f.State != "" && !slices.Contains(states, f.State) {
		msg := "The state must be draft, scheduled or published."
		return invalid(envelope.FieldError{Field: "state", Message: msg})
	}
	if v := c.QueryParam("store_id"); v != "" {
		f.StoreID, _ = strconv.ParseInt(v, 10, 64)
		if ok, err := s.visibleStore(c, sc, f.StoreID); err != nil {
			return err
		} else if !ok {
			return envelope.Fail(http.StatusNotFound, stores.MsgStoreNotFound)
		}
	}
	items, total, err := s.store.posts(c.Request().Context(), sc, f, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

// visibleStore reports whether storeID is a store of the account the caller may see.
func (s *Service) visibleStore(c echo.Context, sc listing.Scope, storeID int64) (bool, error) {
	if storeID <= 0 || (sc.Limited && !slices.Contains(sc.Stores, storeID)) {
		return false, nil
	}
	return s.store.ownStore(c.Request().Context(), sc.SellerID, storeID)
}

// visiblePost is the post named by :id in a store the caller sees, with the caller's scope, or a 404.
func (s *Service) visiblePost(c echo.Context) (Post, listing.Scope, error) {
	sc, err := listing.ScopeOf(c, s.d.DB)
	if err != nil {
		return Post{}, sc, err
	}
	p, err := s.store.post(c.Request().Context(), sc, envelope.PathID(c))
	if errors.Is(err, ErrNotFound) {
		return p, sc, envelope.Fail(http.StatusNotFound, MsgPostNotFound)
	}
	return p, sc, err
}

func (s *Service) handlePost(c echo.Context) error {
	p, _, err := s.visiblePost(c)
	if err != nil {
		return err
	}
	return envelope.OK(c, p)
}

func (s *Service) handlePostSlug(c echo.Context) error {
	sc, err := listing.ScopeOf(c, s.d.DB)
	if err != nil {
		return err
	}
	slug := strings.ToLower(strings.TrimSpace(c.QueryParam("slug")))
	storeID, _ := strconv.ParseInt(c.QueryParam("store_id"), 10, 64)
	except, _ := strconv.ParseInt(c.QueryParam("except"), 10, 64)
	ok, err := s.visibleStore(c, sc, storeID)
	if err != nil {
		return err
	}
	problem := ""
	switch {
	case !ok:
		problem = MsgStore
	case !stores.PathSlugOK(slug):
		problem = MsgSlug
	}
	return stores.AnswerSlug(c, slug, problem, func() (bool, error) {
		return s.store.postSlugUsed(c.Request().Context(), storeID, slug, except)
	}, MsgPostSlugTaken)
}

// savePost checks a post of the caller and stores it as post id (0: a new one): every problem at
// once, by field.
func (s *Service) savePost(c echo.Context, sc listing.Scope, id int64) error {
	var in PostInput
	if err := envelope.Bind(c, &in); err != nil {
		return err
	}
	ctx := c.Request().Context()
	errs := in.check(time.Now())
	if in.StoreID > 0 {
		if ok, err := s.visibleStore(c, sc, in.StoreID); err != nil {
			return err
		} else if !ok {
			errs = append(errs, envelope.FieldError{Field: "store_id", Message: MsgStore})
		}
	}
	if in.CoverKey != "" {
		if ok, err := s.store.ownImage(ctx, sc.SellerID, in.CoverKey); err != nil {
			return err
		} else if !ok {
			errs = append(errs, envelope.FieldError{Field: "cover_key", Message: MsgCover})
		}
	}
	if len(in.CategoryIDs) > 0 && len(in.CategoryIDs) <= MaxCategories {
		if ok, err := s.store.ownCategories(ctx, sc.SellerID, in.CategoryIDs); err != nil {
			return err
		} else if !ok {
			errs = append(errs, envelope.FieldError{Field: "category_ids", Message: MsgCategories})
		}
	}
	if len(errs) > 0 {
		return invalid(errs...)
	}
	id, job, err := s.store.savePost(ctx, id, in)
	switch {
	case errors.Is(err, ErrSlugTaken):
		return invalid(envelope.FieldError{Field: "slug", Message: MsgPostSlugTaken})
	case errors.Is(err, ErrNotFound):
		return envelope.Fail(http.StatusNotFound, MsgPostNotFound)
	case err != nil:
		return err
	}
	if job != 0 {
		// The worker's relay sends the row later if this fails.
		s.d.Relay.Dispatch(ctx, job)
	}
	p, err := s.store.post(ctx, sc, id)
	if err != nil {
		return err
	}
	if c.Request().Method == http.MethodPost {
		return created(c, MsgPostCreated, p)
	}
	return envelope.OKMessage(c, MsgPostSaved, p)
}

func (s *Service) handleCreatePost(c echo.Context) error {
	sc, err := listing.ScopeOf(c, s.d.DB)
	if err != nil {
		return err
	}
	return s.savePost(c, sc, 0)
}

func (s *Service) handleUpdatePost(c echo.Context) error {
	p, sc, err := s.visiblePost(c)
	if err != nil {
		return err
	}
	return s.savePost(c, sc, p.ID)
}

func (s *Service) handleDeletePost(c echo.Context) error {
	p, _, err := s.visiblePost(c)
	if err != nil {
		return err
	}
	if err := s.store.removePost(c.Request().Context(), p.ID); err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgPostDeleted, nil)
}
