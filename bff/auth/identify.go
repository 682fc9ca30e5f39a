package auth

import (
	"errors"

	"github.com/labstack/echo/v4"
)

// Identify is the caller of a public route when the request carries a live session (the bearer
// token, or the UI's token cookie, which the browser sends with same-origin <img> requests), else
// nil. Public routes that show more to some callers than to others (a draft campaign's mockups to
// its seller) ask it themselves; reading with the cookie is safe because such routes only read.
func (s *Service) Identify(c echo.Context) (*Identity, error) {
	token := bearer(c)
	if token == "" {
		token = cookieToken(c)
	}
	if token == "" {
		return nil, nil
	}
	id, err := s.Authenticate(c.Request().Context(), token)
	if errors.Is(err, errNoSession) {
		return nil, nil
	}
	return id, err
}
