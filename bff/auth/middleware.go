package auth

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
)

// TokenCookie is the cookie the UI keeps the token in (prefix "auth.", path /, 7 days).
const TokenCookie = "auth._token.local"

const identityKey = "pressroom.identity"

// Caller returns the authenticated caller; only valid behind Require.
func Caller(c echo.Context) *Identity {
	id, _ := c.Get(identityKey).(*Identity)
	return id
}

func bearer(c echo.Context) string {
	scheme, token, ok := strings.Cut(c.Request().Header.Get(echo.HeaderAuthorization), " ")
	if ok && strings.EqualFold(scheme, "Bearer") {
		return strings.TrimSpace(token)
	}
	return ""
}

func cookieToken(c echo.Context) string {
	ck, err := c.Cookie(TokenCookie)
	if err != nil {
		return ""
	}
	v, err := url.QueryUnescape(ck.Value)
	if err != nil {
		return ""
	}
	if scheme, token, ok := strings.Cut(v, " "); ok && strings.EqualFold(scheme, "Bearer") {
		return token
	}
	return v
}

// Require admits callers with a live bearer token and answers 401 otherwise.
func (s *Service) Require(next echo.HandlerFunc) echo.HandlerFunc {
	return s.require(bearer, next)
}

// RequireWithCookie is Require that also reads the token cookie, for pages the browser opens
// directly (the queue monitor), where no script can add an Authorization header. The cookie is
// SameSite=Lax, so other sites cannot make the browser send it with their requests' unsafe methods.
func (s *Service) RequireWithCookie(next echo.HandlerFunc) echo.HandlerFunc {
	return s.require(func(c echo.Context) string {
		if t := bearer(c); t != "" {
			return t
		}
		return cookieToken(c)
	}, next)
}

func (s *Service) require(token func(echo.Context) string, next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := s.Authenticate(c.Request().Context(), token(c))
		if errors.Is(err, errNoSession) {
			e := envelope.Fail(http.StatusUnauthorized, envelope.MsgUnauthenticated)
			e.Header = http.Header{"WWW-Authenticate": []string{`Bearer realm="pressroom"`}}
			return e
		}
		if errors.Is(err, errSuspended) {
			return envelope.Fail(http.StatusForbidden, MsgSuspended)
		}
		if err != nil {
			return err
		}
		c.Set(identityKey, id)
		return next(c)
	}
}

// RequireRole admits callers holding one of roles; others get 403 and the refusal is audited.
func (s *Service) RequireRole(roles ...string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			id := Caller(c)
			if id != nil && slices.ContainsFunc(roles, id.User.HasRole) {
				return next(c)
			}
			var uid *int64
			if id != nil {
				uid = &id.User.ID
			}
			s.audit(c.Request().Context(), uid, "permission.denied", c.RealIP(),
				map[string]any{"method": c.Request().Method, "path": c.Request().URL.Path, "need_roles": roles})
			return envelope.Fail(http.StatusForbidden, envelope.MsgForbidden)
		}
	}
}
