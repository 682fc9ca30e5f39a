package reviews

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	rules "github.com/pressroom/pressroom/commerce/reviews"
	"github.com/pressroom/pressroom/platform/blob"
)

// Deps are what the review routes use.
type Deps struct {
	DB    *sqlx.DB
	Auth  *auth.Service
	Store blob.Store
}

// Service answers the Product Reviews screen.
type Service struct {
	d     Deps
	store store
}

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil || d.Store == nil {
		return nil, errors.New("reviews: database, auth and blob store are required")
	}
	return &Service{d: d, store: store{db: d.DB}}, nil
}

// Reviews sit in the Storefronts menu: reading them needs get_campaigns and answering them, like
// changing what a store shows, update_campaign.
var (
	needRead  = access.Permitted(access.GetCampaigns)
	needWrite = access.Permitted(access.UpdateCampaign)
)

// Routes lists the review endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/seller/product-reviews", needRead, s.handleList)
	a.Handle(g, http.MethodGet, "/seller/product-reviews/:id/photo", needRead, s.handlePhoto)
	a.Handle(g, http.MethodPost, "/seller/product-reviews/:id/publish", needWrite, s.handleStatus(rules.StatusPublished))
	a.Handle(g, http.MethodPost, "/seller/product-reviews/:id/hide", needWrite, s.handleStatus(rules.StatusHidden))
	a.Handle(g, http.MethodPut, "/seller/product-reviews/:id/reply", needWrite, s.handleReply)
}

// Messages the screen shows.
const (
	MsgNotFound  = "Review not found."
	MsgRating    = "The rating must be a whole number from 1 to 5."
	MsgStatus    = "The status must be pending, published or hidden."
	MsgStore     = "Choose one of your stores."
	MsgPublished = "The review is published: buyers see it on the product's page."
	MsgHidden    = "The review is hidden: buyers no longer see it."
	MsgReplied   = "Your reply was saved."
	MsgUnreplied = "Your reply was removed."
	MsgNoPhoto   = "This review has no photo to show."
)

func notFound() error { return envelope.Fail(http.StatusNotFound, MsgNotFound) }

func invalid(errs ...envelope.FieldError) error {
	return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
}

// parseFilter reads rating, status, store_id and the date range (on when the review was written, in
// the caller's utc_offset); every bad one is named.
func parseFilter(c echo.Context, utcOffset float64, now time.Time) (Filter, error) {
	var f Filter
	var errs []envelope.FieldError
	if v := c.QueryParam("rating"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 5 {
			errs = append(errs, envelope.FieldError{Field: "rating", Message: MsgRating})
		}
		f.Rating = n
	}
	if f.Status = c.QueryParam("status"); f.Status != "" && !slices.Contains(rules.Statuses, f.Status) {
		errs = append(errs, envelope.FieldError{Field: "status", Message: MsgStatus})
	}
	if v := c.QueryParam("store_id"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			errs = append(errs, envelope.FieldError{Field: "store_id", Message: MsgStore})
		}
		f.StoreID = n
	}
	from, to, rangeErrs := listing.DateRange(c, utcOffset, now)
	f.From, f.To = from, to
	if errs = append(errs, rangeErrs...); len(errs) > 0 {
		return Filter{}, invalid(errs...)
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
	f.Q = q.Q
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

// one reads the caller's review of the route's id, 404 when it is not one the caller sees.
func (s *Service) one(c echo.Context) (Review, error) {
	sc, err := listing.ScopeOf(c, s.d.DB)
	if err != nil {
		return Review{}, err
	}
	r, err := s.store.get(c.Request().Context(), sc, envelope.PathID(c))
	if errors.Is(err, ErrNotFound) {
		return Review{}, notFound()
	}
	return r, err
}

// handleStatus publishes or hides a review; doing it again changes nothing.
func (s *Service) handleStatus(status string) echo.HandlerFunc {
	return func(c echo.Context) error {
		r, err := s.one(c)
		if err != nil {
			return err
		}
		if err := s.store.setStatus(c.Request().Context(), r.ID, status); err != nil {
			return err
		}
		msg := MsgPublished
		if status == rules.StatusHidden {
			msg = MsgHidden
		}
		return s.answer(c, msg)
	}
}

// handleReply saves the seller's reply, shown under the review; an empty one removes it.
func (s *Service) handleReply(c echo.Context) error {
	r, err := s.one(c)
	if err != nil {
		return err
	}
	var in struct {
		Reply string `json:"reply"`
	}
	if err := envelope.Bind(c, &in); err != nil {
		return err
	}
	reply, problem := rules.CheckReply(in.Reply)
	if problem != "" {
		return invalid(envelope.FieldError{Field: "reply", Message: problem})
	}
	if err := s.store.setReply(c.Request().Context(), r.ID, reply); err != nil {
		return err
	}
	if reply == "" {
		return s.answer(c, MsgUnreplied)
	}
	return s.answer(c, MsgReplied)
}

// answer is the route's review as it is now, with msg.
func (s *Service) answer(c echo.Context, msg string) error {
	r, err := s.one(c)
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, msg, r)
}

// handlePhoto serves a review's photo to its seller once the renderer has checked it.
func (s *Service) handlePhoto(c echo.Context) error {
	r, err := s.one(c)
	if err != nil {
		return err
	}
	if r.Photo == nil || r.Photo.Status != "ready" {
		return envelope.Fail(http.StatusNotFound, MsgNoPhoto)
	}
	body, info, err := s.d.Store.Get(c.Request().Context(), r.Photo.Key)
	if errors.Is(err, blob.ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgNoPhoto)
	} else if err != nil {
		return err
	}
	defer body.Close()
	c.Response().Header().Set(echo.HeaderContentLength, strconv.FormatInt(info.Size, 10))
	c.Response().Header().Set("Cache-Control", "private, max-age=3600")
	return c.Stream(http.StatusOK, r.Photo.ContentType, body)
}
