package auth

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/mail"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/envelope"
)

// Routes lists the sign-in and account endpoints under g (mounted at /api), each with what it needs.
func Routes(g *echo.Group, s *Service) {
	own := access.Need{NotImpersonating: true, OwnAccount: true}
	s.Handle(g, http.MethodPost, "/auth/seller/login", access.Anyone, s.handleLogin(false))
	s.Handle(g, http.MethodPost, "/auth/admin/login", access.Anyone, s.handleLogin(true))
	s.Handle(g, http.MethodPost, "/auth/register", access.Anyone, s.handleRegister)
	s.Handle(g, http.MethodPost, "/auth/forgot-password", access.Anyone, s.handleForgotPassword)
	s.Handle(g, http.MethodPost, "/auth/reset-password", access.Anyone, s.handleResetPassword)
	s.Handle(g, http.MethodPost, "/auth/verify-email", access.Anyone, s.handleVerifyEmail)
	s.Handle(g, http.MethodPost, "/auth/verify-email/resend", access.SignedInPending, s.handleResendVerification)
	s.Handle(g, http.MethodPost, "/auth/logout", access.SignedInPending, s.handleLogout)
	s.Handle(g, http.MethodGet, "/me", access.SignedInPending, s.handleMe)
	s.Handle(g, http.MethodPut, "/settings/general", access.Need{OwnAccount: true}, s.handleGeneralSettings)
	s.Handle(g, http.MethodPost, "/auth/change-password", own, s.handleChangePassword)
	s.Handle(g, http.MethodPost, "/auth/change-email", own, s.handleChangeEmail)
	s.Handle(g, http.MethodPost, "/auth/tfa/setup", own, s.handleTFASetup)
	s.Handle(g, http.MethodPost, "/auth/tfa/enable", own, s.handleTFAEnable)
	s.Handle(g, http.MethodPost, "/auth/tfa/disable", own, s.handleTFADisable)
	s.Handle(g, http.MethodPost, "/auth/tfa/verify", access.Need{Pending: true, NotImpersonating: true}, s.handleTFAVerify)
	s.Handle(g, http.MethodGet, "/seller/authorized-accounts", access.Need{NotImpersonating: true}, s.handleAuthorizedAccounts)
	s.Handle(g, http.MethodPost, "/seller/switch-account", access.Need{NotImpersonating: true}, s.handleSwitch)
	s.Handle(g, http.MethodPost, "/seller/switch-back-account", access.Need{NotImpersonating: true}, s.handleSwitchBack)
	s.Handle(g, http.MethodPost, "/admin/login-as-seller", access.AdminOnly, s.handleLoginAsSeller)
	// The way back from an impersonation: the caller acts as the seller, so it cannot need the admin role.
	s.Handle(g, http.MethodPost, "/admin/back-to-admin", access.SignedIn, s.handleBackToAdmin)
	s.Handle(g, http.MethodPost, "/auth/handoff", own, s.handleHandoff)
	s.Handle(g, http.MethodPost, "/auth/handoff/exchange", access.Anyone, s.handleHandoffExchange)
}

// Messages of the login calls.
const (
	MsgBadCredentials   = "These credentials do not match our records."
	MsgUseAdminLogin    = "Designers and admins sign in through the designer login."
	MsgUseSellerLogin   = "This login is for designers and admins. Sellers sign in through the seller login."
	MsgSuspended        = "This account is suspended. Please contact support."
	msgThrottledPattern = "Too many login attempts. Please try again in %d seconds."
)

type loginBody struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

func (b loginBody) validate() error {
	var errs []envelope.FieldError
	email := strings.TrimSpace(b.Email)
	switch {
	case email == "":
		errs = append(errs, envelope.FieldError{Field: "email", Message: "The email field is required."})
	case len(email) > 254:
		errs = append(errs, envelope.FieldError{Field: "email", Message: "The email must not be longer than 254 characters."})
	default:
		if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
			errs = append(errs, envelope.FieldError{Field: "email", Message: "The email must be a valid email address."})
		}
	}
	switch {
	case b.Password == "":
		errs = append(errs, envelope.FieldError{Field: "password", Message: "The password field is required."})
	case len(b.Password) > 72:
		errs = append(errs, envelope.FieldError{Field: "password", Message: "The password must not be longer than 72 characters."})
	}
	if len(errs) > 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	return nil
}

// throttledError is the 429 answer telling the caller when to try again.
func throttledError(wait time.Duration) *envelope.Error { return tooMany(msgThrottledPattern, wait) }

// tooMany is a 429 answer of pattern (with the seconds to wait) and Retry-After.
func tooMany(pattern string, wait time.Duration) *envelope.Error {
	secs := int(math.Ceil(wait.Seconds()))
	e := envelope.Fail(http.StatusTooManyRequests, fmt.Sprintf(pattern, secs))
	e.Header = http.Header{"Retry-After": []string{strconv.Itoa(secs)}}
	return e
}

type tokenData struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int64  `json:"expires_in"`
}

func (s *Service) handleLogin(staff bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		var body loginBody
		if err := envelope.Bind(c, &body); err != nil {
			return err
		}
		if err := body.validate(); err != nil {
			return err
		}
		token, err := s.login(c.Request().Context(), loginRequest{
			Email: body.Email, Password: body.Password, ClientIP: c.RealIP(),
			Agent: c.Request().UserAgent(), StaffLogin: staff,
		})
		var throttled *ThrottledError
		switch {
		case errors.As(err, &throttled):
			return throttledError(throttled.RetryAfter)
		case errors.Is(err, ErrBadCredentials):
			return envelope.Fail(http.StatusUnauthorized, MsgBadCredentials,
				envelope.FieldError{Field: "email", Message: MsgBadCredentials})
		case errors.Is(err, ErrSuspended):
			return envelope.Fail(http.StatusForbidden, MsgSuspended)
		case errors.Is(err, ErrWrongLogin) && staff:
			return envelope.Fail(http.StatusForbidden, MsgUseSellerLogin)
		case errors.Is(err, ErrWrongLogin):
			return envelope.Fail(http.StatusForbidden, MsgUseAdminLogin)
		case err != nil:
			return err
		}
		return envelope.OK(c, s.tokenData(token, KindOwn))
	}
}

// tokenData is the answer carrying a new session's token.
func (s *Service) tokenData(token, kind string) tokenData {
	return tokenData{AccessToken: token, TokenType: "Bearer", ExpiresIn: int64(s.sessionTTL(kind).Seconds())}
}

func (s *Service) handleLogout(c echo.Context) error {
	if err := s.Logout(c.Request().Context(), Caller(c), c.RealIP()); err != nil {
		return err
	}
	return envelope.OK(c, nil)
}
