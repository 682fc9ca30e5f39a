package apikeys

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
)

const callerKey = "pressroom.apikey"

// Messages of the public API's refusals.
const (
	MsgBadKey  = "Send a live API key as Authorization: Bearer <key>. Keys are made on the API keys settings page."
	MsgNoScope = "This API key does not hold the %s scope this call needs."
)

// KeyCaller is the key a request was admitted with; only valid behind Authenticate.
func KeyCaller(c echo.Context) *Caller {
	k, _ := c.Get(callerKey).(*Caller)
	return k
}

// Authenticate admits requests carrying a live key as a bearer token and answers 401 otherwise
// (session tokens and cookies are not keys). Every admitted request is audited with its answer's
// status once the handler is done.
func (s *Service) Authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		scheme, secret, ok := strings.Cut(c.Request().Header.Get(echo.HeaderAuthorization), " ")
		secret = strings.TrimSpace(secret)
		if !ok || !strings.EqualFold(scheme, "Bearer") || secret == "" {
			return unauthorized()
		}
		caller, err := s.live(c.Request().Context(), hashSecret(secret))
		if errors.Is(err, errNoKey) {
			return unauthorized()
		}
		if err != nil {
			return err
		}
		c.Set(callerKey, &caller)
		err = next(c)
		s.used(c, caller, err)
		return err
	}
}

// Require refuses with 403 a key that lacks scope.
func Require(scope string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if !KeyCaller(c).Has(scope) {
				return envelope.Fail(http.StatusForbidden, fmt.Sprintf(MsgNoScope, scope))
			}
			return next(c)
		}
	}
}

func unauthorized() error {
	e := envelope.Fail(http.StatusUnauthorized, MsgBadKey)
	e.Header = http.Header{"WWW-Authenticate": []string{`Bearer realm="pressroom-api"`}}
	return e
}

// used audits one use of the key with the status the request is answered with. It runs after the
// request's context may have ended (a client gone), so a use written at once is not cut short by it.
func (s *Service) used(c echo.Context, caller Caller, err error) {
	status := c.Response().Status
	var e *envelope.Error
	var he *echo.HTTPError
	switch {
	case errors.As(err, &e):
		status = e.Status
	case errors.As(err, &he):
		status = he.Code
	case err != nil:
		status = http.StatusInternalServerError
	}
	detail, _ := json.Marshal(map[string]any{
		"key_id": caller.KeyID, "method": c.Request().Method, "path": c.Request().URL.Path, "status": status,
		"request_id": c.Response().Header().Get(echo.HeaderXRequestID),
	})
	s.record(context.WithoutCancel(c.Request().Context()), use{
		keyID: caller.KeyID, sellerID: caller.SellerID, ip: c.RealIP(), detail: detail, at: time.Now(),
	})
}
