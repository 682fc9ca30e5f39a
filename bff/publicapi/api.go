package publicapi

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"
	"github.com/redis/go-redis/v9"

	"github.com/pressroom/pressroom/bff/apikeys"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/idempotency"
	"github.com/pressroom/pressroom/platform/ratelimit"
)

// Base is where the API is mounted.
const Base = "/api/v1"

// Deps are what the API uses.
type Deps struct {
	Config Config
	DB     *sqlx.DB
	Redis  *redis.Client
	Keys   *apikeys.Service
	// Idempotency keeps the answers of POSTs sent with an Idempotency-Key, per API key.
	Idempotency *idempotency.Keys
}

// Service answers the public API.
type Service struct {
	d      Deps
	store  store
	window *ratelimit.Window
}

// New checks the configuration and the dependencies.
func New(d Deps) (*Service, error) {
	if err := d.Config.Validate(); err != nil {
		return nil, err
	}
	if d.DB == nil || d.Redis == nil || d.Keys == nil || d.Idempotency == nil {
		return nil, errors.New("publicapi: database, redis, keys and idempotency are required")
	}
	return &Service{d: d, store: store{db: d.DB}, window: ratelimit.New(d.Redis, d.Config.RateWindow)}, nil
}

// Routes lists every endpoint of the API. The OpenAPI document is public; every other route needs
// a key (apikeys.Service.Authenticate), spends one request of its budget, and needs its scope;
// every POST runs at most once per Idempotency-Key of its API key.
func Routes(e *echo.Echo, s *Service) {
	e.GET(Base+"/openapi.json", handleOpenAPI)
	g := e.Group(Base, s.d.Keys.Authenticate, s.limit)
	stores, products, orders := apikeys.Require(apikeys.ScopeStore), apikeys.Require(apikeys.ScopeProduct), apikeys.Require(apikeys.ScopeOrders)
	g.GET("/stores", s.handleStores, stores)
	g.GET("/campaigns", s.handleCampaigns, products)
	g.GET("/campaigns/:id", s.handleCampaign, products)
	g.GET("/orders", s.handleOrders, orders)
	g.GET("/orders/:id", s.handleOrder, orders)
	g.GET("/orders/:id/shipments", s.handleShipments, orders)
	once := s.d.Idempotency.OnceFor(keyOwner)
	g.POST("/orders/:id/cancel", s.handleCancel, orders, once)
}

// keyOwner keeps a request's Idempotency-Key among its API key's, apart from its account's sessions'.
func keyOwner(c echo.Context) (idempotency.Owner, bool) {
	k := apikeys.KeyCaller(c)
	return idempotency.Owner{Account: k.SellerID, Person: k.SellerID, Space: "api-key:" + strconv.FormatInt(k.KeyID, 10) + ":"}, true
}

// MsgRateLimited is the answer of a key past its budget.
const MsgRateLimited = "Too many requests with this API key. Try again in %d seconds."

// limit spends one request of the key's budget and publishes what remains of it.
func (s *Service) limit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.d.Config.RateLimit == 0 {
			return next(c)
		}
		key := apikeys.KeyCaller(c)
		u, err := s.window.Use(c.Request().Context(), "api:v1:key:"+strconv.FormatInt(key.KeyID, 10), 1, s.d.Config.RateLimit)
		if err != nil {
			return err
		}
		reset := strconv.Itoa(int(math.Ceil(u.Reset.Seconds())))
		h := c.Response().Header()
		h.Set("RateLimit-Limit", strconv.FormatInt(s.d.Config.RateLimit, 10))
		h.Set("RateLimit-Remaining", strconv.FormatInt(u.Remaining, 10))
		h.Set("RateLimit-Reset", reset)
		if u.Wait > 0 {
			wait := int(math.Ceil(u.Wait.Seconds()))
			e := envelope.Fail(http.StatusTooManyRequests, fmt.Sprintf(MsgRateLimited, wait))
			e.Header = http.Header{"Retry-After": []string{strconv.Itoa(wait)}}
			return e
		}
		return next(c)
	}
}

// seller is the account the request's key belongs to.
func seller(c echo.Context) int64 { return apikeys.KeyCaller(c).SellerID }
