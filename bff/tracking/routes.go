package tracking

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/redis/go-redis/v9"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/ratelimit"
)

// Deps are what the track routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
	// Redis counts events per client and per account.
	Redis *redis.Client
}

// Bounds of what one caller can make the track calls store.
const (
	// MaxBodyBytes caps a track call's body: a payload within every field limit fits well inside.
	MaxBodyBytes = "16K"
	// MaxEventsPerHour is how many track calls one client address (a click) or one account (a
	// submit) may make per hour; each can store one row.
	MaxEventsPerHour = 60
)

// MsgTooMany is the refusal of a caller over MaxEventsPerHour.
const MsgTooMany = "Too many tracking events. Please try again later."

// Routes adds the two track calls under g (mounted at /api).
func Routes(g *echo.Group, d Deps) {
	h := handlers{db: d.DB, hourly: ratelimit.New(d.Redis, time.Hour)}
	limit := middleware.BodyLimit(MaxBodyBytes)
	d.Auth.Handle(g, http.MethodPost, "/utm-campaign/track", access.Anyone, h.click, limit)
	d.Auth.Handle(g, http.MethodPost, "/seller/utm-campaign/track", access.SignedIn, h.submit, limit)
}

type handlers struct {
	db     *sqlx.DB
	hourly *ratelimit.Window
}

// quota counts one event of key against MaxEventsPerHour.
func (h handlers) quota(c echo.Context, key string) error {
	wait, err := h.hourly.Take(c.Request().Context(), "pressroom:track:"+key, 1, MaxEventsPerHour)
	if err != nil || wait == 0 {
		return err
	}
	e := envelope.Fail(http.StatusTooManyRequests, MsgTooMany)
	e.Header = http.Header{"Retry-After": []string{strconv.Itoa(int(math.Ceil(wait.Seconds())))}}
	return e
}

// Result is the answer of both calls: Success as the seller variant reports it, and
// whether this call recorded a new event.
type Result struct {
	Success  bool `json:"success"`
	Recorded bool `json:"recorded"`
}

func (h handlers) record(c echo.Context, kind string, userID int64) error {
	var p Payload
	if err := envelope.Bind(c, &p); err != nil {
		return err
	}
	if p.ClientInfo.UserAgent == "" {
		p.ClientInfo.UserAgent = c.Request().UserAgent()
	}
	if errs := Check(&p); len(errs) > 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	added, err := Record(c.Request().Context(), h.db, Event{Kind: kind, Payload: p, UserID: userID, IP: c.RealIP()})
	if err != nil {
		return err
	}
	return envelope.OK(c, Result{Success: true, Recorded: added})
}

func (h handlers) click(c echo.Context) error {
	if err := h.quota(c, "client:"+c.RealIP()); err != nil {
		return err
	}
	return h.record(c, KindClick, 0)
}

// submit credits the campaign to the account the session acts as.
func (h handlers) submit(c echo.Context) error {
	id := auth.Caller(c).User.ID
	if err := h.quota(c, "account:"+strconv.FormatInt(id, 10)); err != nil {
		return err
	}
	return h.record(c, KindSubmit, id)
}
