package auth

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/envelope"
)

// Route declarations: every /api route is added through Handle with the access.Need it demands.
// The same value builds the route's guard and is kept here, so the route-table test can check each
// route's answers against what it declares and fail for a route nobody declared.

// Handle adds method path to g behind the guard of need and records the declaration.
func (s *Service) Handle(g *echo.Group, method, path string, need access.Need, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route {
	r := g.Add(method, path, h, append([]echo.MiddlewareFunc{s.Guard(need)}, m...)...)
	s.declared.Store(r.Method+" "+r.Path, need)
	return r
}

// Declared is the need route method path was declared with, if it was.
func (s *Service) Declared(method, path string) (access.Need, bool) {
	n, ok := s.declared.Load(method + " " + path)
	if !ok {
		return access.Need{}, false
	}
	return n.(access.Need), true
}

// Messages of the guard's refusals.
const (
	MsgTFARequired    = "Two-factor authentication is required. Enter the code from your authenticator app."
	MsgVerifyRequired = "You need to verify your email, click to verify!"
	MsgImpersonating  = "This cannot be changed while you are signed in as the seller: the seller must do it from their own account."
)

// Guard admits the callers need allows: anonymous refusals answer 401, signed-in ones 403 (audited).
// Every request of an impersonating admin is audited.
func (s *Service) Guard(need access.Need) echo.MiddlewareFunc { return s.guard(bearer, need) }

// GuardWithCookie is Guard that also reads the token cookie, for pages the browser opens directly
// (the queue monitor); see RequireWithCookie.
func (s *Service) GuardWithCookie(need access.Need) echo.MiddlewareFunc {
	return s.guard(func(c echo.Context) string {
		if t := bearer(c); t != "" {
			return t
		}
		return cookieToken(c)
	}, need)
}

func (s *Service) guard(token func(echo.Context) string, need access.Need) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		if need.Public {
			return next
		}
		return s.require(token, func(c echo.Context) error {
			id := Caller(c)
			if id.Impersonating() {
				s.audit(c.Request().Context(), &id.OriginUserID, "impersonation.request", c.RealIP(), map[string]any{
					"admin_id": id.OriginUserID, "seller_id": id.User.ID, "method": c.Request().Method,
					"path": c.Request().URL.Path, "request_id": c.Response().Header().Get(echo.HeaderXRequestID),
					"at": time.Now().UTC(),
				})
			}
			caller := id.Access(time.Now())
			if need.Allows(caller) {
				return next(c)
			}
			uid := id.Person()
			action := "permission.denied"
			if need.NotImpersonating && caller.Impersonating {
				action = "impersonation.refused"
			}
			s.audit(c.Request().Context(), &uid, action, c.RealIP(), map[string]any{
				"method": c.Request().Method, "path": c.Request().URL.Path, "need": need.String(), "acting_as": id.User.ID,
			})
			switch {
			case !need.Pending && caller.NeedsTFA:
				return envelope.Fail(http.StatusForbidden, MsgTFARequired)
			case !need.Pending && caller.MustVerifyEmail:
				return envelope.Fail(http.StatusForbidden, MsgVerifyRequired)
			case need.NotImpersonating && caller.Impersonating:
				return envelope.Fail(http.StatusForbidden, MsgImpersonating)
			}
			return envelope.Fail(http.StatusForbidden, envelope.MsgForbidden)
		})
	}
}
