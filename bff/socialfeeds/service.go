package socialfeeds

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/storelink"
	"github.com/pressroom/pressroom/worker/tasks"
)

// Deps are what the feed routes use.
type Deps struct {
	DB    *sqlx.DB
	Auth  *auth.Service
	Store blob.Store
	Relay *outbox.Relay
	// Links is where buyers and catalogues reach the storefront: the base of each feed's address.
	Links storelink.Config
	Log   *slog.Logger
}

// Service answers the Social Feed screens.
type Service struct {
	d     Deps
	store store
}

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil || d.Store == nil || d.Relay == nil {
		return nil, errors.New("socialfeeds: database, auth, blob store and relay are required")
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{d: d, store: store{db: d.DB}}, nil
}

// Feeds sit in the Storefronts menu: seeing them needs get_campaigns, changing them, like changing
// what a store shows, update_campaign.
var (
	needRead  = access.Permitted(access.GetCampaigns)
	needWrite = access.Permitted(access.UpdateCampaign)
)

// Routes lists the feed endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service, once echo.MiddlewareFunc) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/seller/social-feeds", needRead, s.handleList)
	a.Handle(g, http.MethodPost, "/seller/social-feeds", needWrite, s.handleCreate, once)
	a.Handle(g, http.MethodGet, "/seller/social-feeds/:id", needRead, s.handleGet)
	a.Handle(g, http.MethodPut, "/seller/social-feeds/:id", needWrite, s.handleUpdate)
	a.Handle(g, http.MethodDelete, "/seller/social-feeds/:id", needWrite, s.handleDelete)
	a.Handle(g, http.MethodPost, "/seller/social-feeds/:id/rebuild", needWrite, s.handleRebuild)
	a.Handle(g, http.MethodGet, "/seller/social-feeds/:id/download", needRead, s.handleDownload)
}

func notFound() error { return envelope.Fail(http.StatusNotFound, MsgNotFound) }

func seller(c echo.Context) int64 { return auth.Caller(c).User.ID }

// withURL fills in the feed's stable address on the storefront.
func (s *Service) withURL(f Feed) Feed {
	f.URL = s.d.Links.Store(f.StoreSlug) + tasks.FeedPath(f.ID, f.Format)
	return f
}

func (s *Service) handleList(c echo.Context) error {
	q, err := envelope.ParseListQuery(c)
	if err != nil {
		return err
	}
	sc, err := listing.ScopeOf(c, s.d.DB)
	if err != nil {
		return err
	}
	items, total, err := s.store.list(c.Request().Context(), sc, q.Q, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	for i := range items {
		items[i] = s.withURL(items[i])
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

// one is the caller's feed of the route's id, 404 when it is not one the caller sees.
func (s *Service) one(c echo.Context, id int64) (Feed, error) {
	sc, err := listing.ScopeOf(c, s.d.DB)
	if err != nil {
		return Feed{}, err
	}
	f, err := s.store.get(c.Request().Context(), sc, id)
	if errors.Is(err, ErrNotFound) {
		return Feed{}, notFound()
	} else if err != nil {
		return Feed{}, err
	}
	return s.withURL(f), nil
}

func (s *Service) handleGet(c echo.Context) error {
	f, err := s.one(c, envelope.PathID(c))
	if err != nil {
		return err
	}
	return envelope.OK(c, f)
}

// input binds and checks a feed: every problem at once, by field. The store must be the account's
// and visible to the caller (the store filter), the campaigns the account's.
func (s *Service) input(c echo.Context) (Input, error) {
	var in Input
	if err := envelope.Bind(c, &in); err != nil {
		return Input{}, err
	}
	errs := in.check()
	ctx := c.Request().Context()
	if in.StoreID > 0 {
		sc, err := listing.ScopeOf(c, s.d.DB)
		if err != nil {
			return Input{}, err
		}
		ok, err := s.store.storeVisible(ctx, sc, in.StoreID)
		if err != nil {
			return Input{}, err
		}
		if !ok {
			errs = append(errs, envelope.FieldError{Field: "store_id", Message: MsgStore})
		}
	}
	if n := len(in.CampaignIDs); n > 0 && n <= MaxCampaigns {
		owned, err := s.store.ownedCampaigns(ctx, seller(c), in.CampaignIDs)
		if err != nil {
			return Input{}, err
		}
		if owned != n {
			errs = append(errs, envelope.FieldError{Field: "campaign_ids", Message: MsgCampaigns})
		}
	}
	if len(errs) > 0 {
		return Input{}, invalid(errs...)
	}
	return in, nil
}

// dispatch sends a queued build now; if Redis is away the relay sends it later.
func (s *Service) dispatch(c echo.Context, feed, outboxID int64) {
	if outboxID == 0 {
		return
	}
	if _, err := s.d.Relay.Dispatch(c.Request().Context(), outboxID); err != nil {
		s.d.Log.Warn("feed build left for the relay", "feed", feed, "err", err)
	}
}

func (s *Service) save(c echo.Context, id int64) error {
	var before Feed
	if id != 0 {
		var err error
		// Another seller's id answers 404 whatever the body says.
		if before, err = s.one(c, id); err != nil {
			return err
		}
	}
	in, err := s.input(c)
	if err != nil {
		return err
	}
	saved, outboxID, err := s.store.save(c.Request().Context(), seller(c), id, in)
	if errors.Is(err, ErrNotFound) {
		return notFound()
	} else if err != nil {
		return err
	}
	s.dispatch(c, saved, outboxID)
	if id != 0 && before.Format != in.Format {
		// The file of the old format is served no more.
		if err := s.d.Store.Delete(c.Request().Context(), tasks.FeedKey(id, before.Format)); err != nil {
			s.d.Log.Warn("old feed file left", "feed", id, "err", err)
		}
	}
	f, err := s.one(c, saved)
	if err != nil {
		return err
	}
	if id == 0 {
		return c.JSON(http.StatusCreated, envelope.Response{Success: true, Message: MsgCreated, Data: f, Errors: []envelope.FieldError{}})
	}
	return envelope.OKMessage(c, MsgSaved, f)
}

func (s *Service) handleCreate(c echo.Context) error { return s.save(c, 0) }

func (s *Service) handleUpdate(c echo.Context) error { return s.save(c, envelope.PathID(c)) }

func (s *Service) handleRebuild(c echo.Context) error {
	f, err := s.one(c, envelope.PathID(c))
	if err != nil {
		return err
	}
	outboxID, err := s.store.rebuild(c.Request().Context(), f.ID)
	if err != nil {
		return err
	}
	s.dispatch(c, f.ID, outboxID)
	if f, err = s.one(c, f.ID); err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgRebuild, f)
}

func (s *Service) handleDelete(c echo.Context) error {
	f, err := s.one(c, envelope.PathID(c))
	if err != nil {
		return err
	}
	if err := s.store.remove(c.Request().Context(), seller(c), f.ID); errors.Is(err, ErrNotFound) {
		return notFound()
	} else if err != nil {
		return err
	}
	if err := s.d.Store.Delete(c.Request().Context(), tasks.FeedKey(f.ID, f.Format)); err != nil {
		s.d.Log.Warn("deleted feed's file left", "feed", f.ID, "err", err)
	}
	return envelope.OKMessage(c, MsgDeleted, nil)
}

// handleDownload streams the feed's last built file as an attachment named after the feed.
func (s *Service) handleDownload(c echo.Context) error {
	f, err := s.one(c, envelope.PathID(c))
	if err != nil {
		return err
	}
	if f.BuiltAt == nil {
		return envelope.Fail(http.StatusConflict, MsgNotBuilt)
	}
	body, info, err := s.d.Store.Get(c.Request().Context(), tasks.FeedKey(f.ID, f.Format))
	if errors.Is(err, blob.ErrNotFound) {
		return envelope.Fail(http.StatusConflict, MsgNotBuilt)
	} else if err != nil {
		return err
	}
	defer body.Close()
	h := c.Response().Header()
	h.Set(echo.HeaderContentLength, strconv.FormatInt(info.Size, 10))
	h.Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s"`, fileName(f)))
	return c.Stream(http.StatusOK, tasks.FeedContentType(f.Format), body)
}

// fileName is the downloaded file's name: the feed's name made safe, and its extension.
func fileName(f Feed) string {
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		}
		return '-'
	}, f.Name)
	if name = strings.Trim(name, "-"); name == "" {
		name = "feed-" + strconv.FormatInt(f.ID, 10)
	}
	return name + "." + tasks.FeedExt(f.Format)
}
