package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/mail"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	pmail "github.com/pressroom/pressroom/platform/mail"
)

// Messages of registration, password reset and e-mail verification.
const (
	MsgEmailTaken    = "The email has already been taken."
	MsgResetSent     = "If an account uses that address, we have e-mailed a link to reset its password."
	MsgPasswordReset = "Your password has been reset. Please sign in."
	MsgBadResetLink  = "This password reset link is invalid or has expired."
	MsgVerifySent    = "We have e-mailed you a verification link."
	MsgVerified      = "Your email has been verified."
	MsgBadVerifyLink = "This verification link is invalid or has expired."
	MsgWrongPassword = "The current password is incorrect."
	MsgPasswordSaved = "Your password has been changed."
	MsgSameEmail     = "The new email must be different from the current one."
	MsgEmailChanged  = "Your email address has been changed."
	msgChangeSent    = "We have e-mailed a confirmation link to %s. Your address changes when you open it."
	// msgCallsThrottledPattern answers a throttled account call, with the seconds to wait.
	msgCallsThrottledPattern = "Too many requests. Please try again in %d seconds."
	minPasswordLen           = 8
)

func checkEmail(email string) *envelope.FieldError {
	switch {
	case email == "":
		return &envelope.FieldError{Field: "email", Message: "The email field is required."}
	case len(email) > 254:
		return &envelope.FieldError{Field: "email", Message: "The email must not be longer than 254 characters."}
	}
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
		return &envelope.FieldError{Field: "email", Message: "The email must be a valid email address."}
	}
	return nil
}

// checkNewPassword validates a password being set, and its confirmation when confirm is not nil.
func checkNewPassword(password string, confirm *string) *envelope.FieldError {
	switch {
	case password == "":
		return &envelope.FieldError{Field: "password", Message: "The password field is required."}
	case len(password) < minPasswordLen:
		return &envelope.FieldError{Field: "password", Message: "The password must be at least 8 characters."}
	case len(password) > 72:
		return &envelope.FieldError{Field: "password", Message: "The password must not be longer than 72 characters."}
	case confirm != nil && *confirm != password:
		return &envelope.FieldError{Field: "password_confirmation", Message: "The password confirmation does not match."}
	}
	return nil
}

// checkCurrentGiven requires the current password of a change of password or address.
func checkCurrentGiven(password string) *envelope.FieldError {
	if password == "" {
		return &envelope.FieldError{Field: "current_password", Message: "The current password field is required."}
	}
	return nil
}

func invalid(errs ...*envelope.FieldError) error {
	var out []envelope.FieldError
	for _, e := range errs {
		if e != nil {
			out = append(out, *e)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return envelope.Fail(http.StatusUnprocessableEntity, out[0].Message, out...)
}

// link is the dashboard address of page with the token, for an e-mail.
func (s *Service) link(page, token string) string {
	return s.cfg.Public.Link(page + "?" + url.Values{"token": {token}}.Encode())
}

// sendLink creates a single-use link of purpose for user and e-mails it to the address to: the
// user's own, or for purposeChangeEmail the new address the link makes the user's.
func (s *Service) sendLink(ctx context.Context, u *User, purpose, to string) error {
	token, hash := newToken()
	msg := pmail.Message{To: to}
	switch purpose {
	case purposeReset:
		if err := s.store.createLink(ctx, u.ID, purpose, u.Email, hash, s.cfg.ResetTTL); err != nil {
			return err
		}
		msg.Subject = "Reset your Pressroom password"
		msg.Body = "Hello " + u.Name + ",\n\nSomeone asked to reset the password of your Pressroom account. " +
			"Open this link to choose a new one (it works once, for " + s.cfg.ResetTTL.String() + "):\n\n" +
			s.link("/auth/reset-password", token) + "\n\nIf it was not you, ignore this message.\n"
	case purposeVerify:
		if err := s.store.createLink(ctx, u.ID, purpose, u.Email, hash, s.cfg.VerifyTTL); err != nil {
			return err
		}
		msg.Subject = "Verify your email address"
		msg.Body = "Hello " + u.Name + ",\n\nPlease confirm that this is your e-mail address by opening this link " +
			"(it works once, for " + s.cfg.VerifyTTL.String() + "):\n\n" + s.link("/auth/verify-email", token) + "\n"
	case purposeChangeEmail:
		if err := s.store.createChangeLink(ctx, u.ID, to, hash, s.cfg.VerifyTTL); err != nil {
			return err
		}
		msg.Subject = "Confirm your new email address"
		msg.Body = "Hello " + u.Name + ",\n\nOpen this link to make " + to + " the address of your Pressroom account " +
			"(it works once, for " + s.cfg.VerifyTTL.String() + "):\n\n" + s.link("/auth/verify-email", token) +
			"\n\nIf you did not ask for this, ignore this message.\n"
	}
	return s.mailer.Send(ctx, msg)
}

type registerBody struct {
	Name                 string `json:"name"`
	Email                string `json:"email"`
	Password             string `json:"password"`
	PasswordConfirmation string `json:"password_confirmation"`
}

// handleRegister creates a seller account, signs it in and e-mails the verification link.
func (s *Service) handleRegister(c echo.Context) error {
	var b registerBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	b.Name, b.Email = strings.TrimSpace(b.Name), strings.TrimSpace(b.Email)
	var nameErr *envelope.FieldError
	switch {
	case b.Name == "":
		nameErr = &envelope.FieldError{Field: "name", Message: "The name field is required."}
	case len(b.Name) > 120:
		nameErr = &envelope.FieldError{Field: "name", Message: "The name must not be longer than 120 characters."}
	}
	if err := invalid(nameErr, checkEmail(b.Email), checkNewPassword(b.Password, &b.PasswordConfirmation)); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := s.countCall(ctx, "register", c.RealIP()); err != nil {
		return err
	}
	hash, err := s.hasher.hash(ctx, b.Password)
	if err != nil {
		return err
	}
	id, err := s.store.createUser(ctx, b.Name, b.Email, hash)
	if errors.Is(err, errEmailTaken) {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgEmailTaken, envelope.FieldError{Field: "email", Message: MsgEmailTaken})
	}
	if err != nil {
		return err
	}
	u, err := s.store.UserByID(ctx, id)
	if err != nil {
		return err
	}
	s.audit(ctx, &id, "account.registered", c.RealIP(), map[string]any{"email": b.Email})
	if err := s.sendLink(ctx, u, purposeVerify, u.Email); err != nil {
		// The account exists; the user can ask for the link again from the verification page.
		s.log.Error("send verification link", "user_id", id, "err", err)
	}
	token, err := s.openSession(ctx, newSession{UserID: id, IP: c.RealIP(), UserAgent: c.Request().UserAgent()})
	if err != nil {
		return err
	}
	return envelope.OK(c, s.tokenData(token, KindOwn))
}

type emailBody struct {
	Email string `json:"email"`
}

// handleForgotPassword e-mails a reset link; the answer is the same whether or not the address has
// an account. Each call is counted before any work, per address (so the call cannot flood an
// inbox), per client and in all.
func (s *Service) handleForgotPassword(c echo.Context) error {
	var b emailBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	b.Email = strings.TrimSpace(b.Email)
	if err := invalid(checkEmail(b.Email)); err != nil {
		return err
	}
	ctx := c.Request().Context()
	address := limit{key: accountKey("reset:" + b.Email), max: int64(s.cfg.MaxFailuresPerAccount), window: s.cfg.ThrottleWindow}
	if err := s.countCall(ctx, "forgot", c.RealIP(), address); err != nil {
		return err
	}
	u, _, err := s.store.userByEmail(ctx, b.Email)
	switch {
	case errors.Is(err, errNoUser):
	case err != nil:
		return err
	default:
		if err := s.sendLink(ctx, u, purposeReset, u.Email); err != nil {
			return err
		}
		s.audit(ctx, &u.ID, "password.reset_requested", c.RealIP(), nil)
	}
	return envelope.OKMessage(c, MsgResetSent, nil)
}

type resetBody struct {
	Token                string `json:"token"`
	Password             string `json:"password"`
	PasswordConfirmation string `json:"password_confirmation"`
}

// handleResetPassword spends a reset link: new password, every session of the account revoked. The
// call is counted and the link looked up before the new password is hashed, so bogus links cost
// no hashing.
func (s *Service) handleResetPassword(c echo.Context) error {
	var b resetBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	var tokenErr *envelope.FieldError
	if b.Token == "" {
		tokenErr = &envelope.FieldError{Field: "token", Message: MsgBadResetLink}
	}
	if err := invalid(tokenErr, checkNewPassword(b.Password, &b.PasswordConfirmation)); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := s.countCall(ctx, "reset", c.RealIP()); err != nil {
		return err
	}
	badLink := envelope.Fail(http.StatusUnprocessableEntity, MsgBadResetLink, envelope.FieldError{Field: "token", Message: MsgBadResetLink})
	if live, err := s.store.liveLink(ctx, hashToken(b.Token), purposeReset); err != nil {
		return err
	} else if !live {
		return badLink
	}
	hash, err := s.hasher.hash(ctx, b.Password)
	if err != nil {
		return err
	}
	uid, err := s.store.resetPassword(ctx, hashToken(b.Token), hash)
	if errors.Is(err, errBadLink) {
		return badLink
	}
	if err != nil {
		return err
	}
	s.callers.dropUser(uid)
	s.audit(ctx, &uid, "password.reset", c.RealIP(), nil)
	return envelope.OKMessage(c, MsgPasswordReset, nil)
}

type tokenBody struct {
	Token string `json:"token"`
}

// handleVerifyEmail spends a verification or change-of-address link; the link itself proves the
// address, so no session is needed (it may be opened in another browser).
func (s *Service) handleVerifyEmail(c echo.Context) error {
	var b tokenBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	ctx := c.Request().Context()
	link, err := s.store.confirmEmail(ctx, hashToken(b.Token))
	switch {
	case errors.Is(err, errBadLink) || b.Token == "":
		return envelope.Fail(http.StatusUnprocessableEntity, MsgBadVerifyLink, envelope.FieldError{Field: "token", Message: MsgBadVerifyLink})
	case errors.Is(err, errEmailTaken):
		return envelope.Fail(http.StatusUnprocessableEntity, MsgEmailTaken, envelope.FieldError{Field: "token", Message: MsgEmailTaken})
	case err != nil:
		return err
	case link.Purpose == purposeChangeEmail:
		s.audit(ctx, &link.UserID, "email.changed", c.RealIP(), map[string]any{"email": link.Email})
		return envelope.OKMessage(c, MsgEmailChanged, nil)
	}
	s.audit(ctx, &link.UserID, "email.verified", c.RealIP(), nil)
	return envelope.OKMessage(c, MsgVerified, nil)
}

// handleResendVerification e-mails a new verification link to the caller.
func (s *Service) handleResendVerification(c echo.Context) error {
	id := Caller(c)
	if id.User.EmailVerifiedAt != nil {
		return envelope.OKMessage(c, MsgVerified, nil)
	}
	ctx := c.Request().Context()
	wait, err := s.throttle.attempt(ctx, limit{
		key: accountKey("verify:" + id.User.Email), max: int64(s.cfg.MaxFailuresPerAccount), window: s.cfg.ThrottleWindow,
	})
	if err != nil {
		return err
	}
	if wait > 0 {
		return tooMany(msgCallsThrottledPattern, wait)
	}
	if err := s.sendLink(ctx, id.User, purposeVerify, id.User.Email); err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgVerifySent, nil)
}

type changePasswordBody struct {
	CurrentPassword      string `json:"current_password"`
	Password             string `json:"password"`
	PasswordConfirmation string `json:"password_confirmation"`
}

// handleChangePassword sets a new password after checking the current one; the caller's other
// sessions are revoked.
func (s *Service) handleChangePassword(c echo.Context) error {
	var b changePasswordBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if err := invalid(checkCurrentGiven(b.CurrentPassword), checkNewPassword(b.Password, &b.PasswordConfirmation)); err != nil {
		return err
	}
	id := Caller(c)
	ctx := c.Request().Context()
	if err := s.checkCurrentPassword(c, id.User, b.CurrentPassword); err != nil {
		return err
	}
	hash, err := s.hasher.hash(ctx, b.Password)
	if err != nil {
		return err
	}
	if err := s.store.setPassword(ctx, id.User.ID, hash, id.SessionID); err != nil {
		return err
	}
	s.callers.dropUser(id.User.ID)
	s.audit(ctx, &id.User.ID, "password.changed", c.RealIP(), nil)
	return envelope.OKMessage(c, MsgPasswordSaved, nil)
}

// checkCurrentPassword is the step before a change of password, address or two-factor: the caller
// proves they know the password. The guess is counted (as a login guess for the account and the
// client) before the password is compared.
func (s *Service) checkCurrentPassword(c echo.Context, u *User, password string) error {
	ctx := c.Request().Context()
	wait, err := s.guess(ctx, u.Email, c.RealIP())
	if err != nil {
		return err
	}
	if wait > 0 {
		return throttledError(wait)
	}
	hash, err := s.store.passwordHash(ctx, u.ID)
	if err != nil {
		return err
	}
	ok, err := s.hasher.check(ctx, hash, password)
	if err != nil {
		return err
	}
	if !ok {
		uid := u.ID
		s.audit(ctx, &uid, "password.check_failed", c.RealIP(), nil)
		return envelope.Fail(http.StatusUnprocessableEntity, MsgWrongPassword, envelope.FieldError{Field: "current_password", Message: MsgWrongPassword})
	}
	return s.guessedRight(ctx, u.Email, c.RealIP())
}

// countCall counts an anonymous account call (register, forgot, reset) per client address and in
// all, together with more limits, before the call does any work; a used-up limit answers 429.
func (s *Service) countCall(ctx context.Context, call, ip string, more ...limit) error {
	client, global := callKeys(call, ip)
	limits := append([]limit{
		{key: client, max: int64(s.cfg.CallsPerClient), window: s.cfg.CallsWindow},
		{key: global, max: int64(s.cfg.CallsGlobal), window: s.cfg.CallsWindow},
	}, more...)
	wait, err := s.throttle.attempt(ctx, limits...)
	if err != nil {
		return err
	}
	if wait > 0 {
		s.audit(ctx, nil, "throttled."+call, ip, nil)
		return tooMany(msgCallsThrottledPattern, wait)
	}
	return nil
}

type changeEmailBody struct {
	Email           string `json:"email"`
	CurrentPassword string `json:"current_password"`
}

// handleChangeEmail starts a change of address: after the password check, a confirmation link goes
// to the new address (the address changes when it is opened, see handleVerifyEmail) and a notice to
// the current one, so a stolen session alone cannot move the account away from its owner.
func (s *Service) handleChangeEmail(c echo.Context) error {
	var b changeEmailBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	b.Email = strings.TrimSpace(b.Email)
	id := Caller(c)
	emailErr := checkEmail(b.Email)
	if emailErr == nil && strings.EqualFold(b.Email, id.User.Email) {
		emailErr = &envelope.FieldError{Field: "email", Message: MsgSameEmail}
	}
	if err := invalid(emailErr, checkCurrentGiven(b.CurrentPassword)); err != nil {
		return err
	}
	if err := s.checkCurrentPassword(c, id.User, b.CurrentPassword); err != nil {
		return err
	}
	ctx := c.Request().Context()
	switch _, _, err := s.store.userByEmail(ctx, b.Email); {
	case err == nil:
		return envelope.Fail(http.StatusUnprocessableEntity, MsgEmailTaken, envelope.FieldError{Field: "email", Message: MsgEmailTaken})
	case !errors.Is(err, errNoUser):
		return err
	}
	if err := s.sendLink(ctx, id.User, purposeChangeEmail, b.Email); err != nil {
		return err
	}
	notice := pmail.Message{
		To:      id.User.Email,
		Subject: "Your Pressroom email address is being changed",
		Body: "Hello " + id.User.Name + ",\n\nSomeone signed in to your Pressroom account asked to change its address to " +
			b.Email + ". It changes only when the link sent there is opened.\n\nIf it was not you, change your password now.\n",
	}
	if err := s.mailer.Send(ctx, notice); err != nil {
		s.log.Error("send email change notice", "user_id", id.User.ID, "err", err)
	}
	s.audit(ctx, &id.User.ID, "email.change_requested", c.RealIP(), map[string]any{"email": b.Email})
	return envelope.OKMessage(c, fmt.Sprintf(msgChangeSent, b.Email), nil)
}
