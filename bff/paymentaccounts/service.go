package paymentaccounts

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	pmail "github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/publicurl"
	"github.com/pressroom/pressroom/platform/seal"
)

// Deps are what the payment account routes use.
type Deps struct {
	Config Config
	DB     *sqlx.DB
	Auth   *auth.Service
	// Box seals the sensitive fields (PRESSROOM_PAYMENT_SECRET_KEY).
	Box    *seal.Box
	Mailer *pmail.Mailer
	// Public is the dashboard's address, the base of the confirmation links.
	Public publicurl.Config
	Log    *slog.Logger
}

// Service answers the payment account screens.
type Service struct {
	d     Deps
	store store
}

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil || d.Box == nil || d.Mailer == nil || d.Log == nil {
		return nil, errors.New("paymentaccounts: database, auth, sealing box, mailer and logger are required")
	}
	if err := d.Config.Validate(); err != nil {
		return nil, err
	}
	return &Service{d: d, store: store{db: d.DB}}, nil
}

// Payment accounts need update_payments, whose holders may see and change them (docs/payments.md).
var need = access.Permitted(access.UpdatePayments)

// Routes lists the payment account endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service, once echo.MiddlewareFunc) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/seller/payment-accounts/methods", need, s.handleMethods)
	a.Handle(g, http.MethodGet, "/seller/payment-accounts", need, s.handleList)
	a.Handle(g, http.MethodPost, "/seller/payment-accounts", need, s.handleAdd, once)
	a.Handle(g, http.MethodPost, "/seller/payment-accounts/confirm", need, s.handleConfirm)
	a.Handle(g, http.MethodGet, "/seller/payment-accounts/:id", need, s.handleGet)
	a.Handle(g, http.MethodPut, "/seller/payment-accounts/:id", need, s.handleChange)
	a.Handle(g, http.MethodDelete, "/seller/payment-accounts/:id", need, s.handleDelete)
	a.Handle(g, http.MethodPost, "/seller/payment-accounts/:id/default", need, s.handleDefault)
	a.Handle(g, http.MethodPost, "/seller/payment-accounts/:id/resend", need, s.handleResend)
	a.Handle(g, http.MethodGet, "/admin/payment-accounts/:id", access.AdminOnly, s.handleReveal)
	a.Handle(g, http.MethodPost, "/admin/payment-accounts/:id/invalidate", access.AdminOnly, s.handleInvalidate)
}

func seller(c echo.Context) int64 { return auth.Caller(c).User.ID }

func notFound() error { return envelope.Fail(http.StatusNotFound, MsgNotFound) }

func (s *Service) handleMethods(c echo.Context) error { return envelope.OK(c, Methods) }

func (s *Service) handleList(c echo.Context) error {
	out, err := s.store.list(c.Request().Context(), seller(c))
	if err != nil {
		return err
	}
	return envelope.OK(c, out)
}

func (s *Service) account(c echo.Context, id int64) (Account, error) {
	a, err := s.store.get(c.Request().Context(), s.d.DB, seller(c), id, false)
	if errors.Is(err, ErrNotFound) {
		return Account{}, notFound()
	}
	return a, err
}

func (s *Service) handleGet(c echo.Context) error {
	a, err := s.account(c, envelope.PathID(c))
	if err != nil {
		return err
	}
	return envelope.OK(c, a)
}

// input binds and checks the form; countries are checked against the platform's list.
func (s *Service) input(c echo.Context, old *Account) (checked, error) {
	var in Input
	if err := envelope.Bind(c, &in); err != nil {
		return checked{}, err
	}
	out, errs := in.check(old)
	if country, ok := out.details["country"]; ok {
		var known bool
		if err := s.d.DB.GetContext(c.Request().Context(), &known, `SELECT EXISTS (SELECT 1 FROM countries WHERE code = $1)`,
			strings.ToUpper(country)); err != nil {
			return checked{}, err
		}
		out.details["country"] = strings.ToUpper(country)
		if !known {
			errs = append(errs, envelope.FieldError{Field: "fields.country", Message: MsgCountry})
		}
	}
	if len(errs) > 0 {
		return checked{}, invalid(errs...)
	}
	return out, nil
}

// newLink makes a confirmation link's token, and the hash and expiry stored for it.
func (s *Service) newLink() (string, link) {
	b := make([]byte, 32)
	rand.Read(b) // never fails: crypto/rand panics instead of returning weak bytes
	token := base64.RawURLEncoding.EncodeToString(b)
	return token, link{Hash: hashToken(token), Expires: time.Now().Add(s.d.Config.ConfirmTTL)}
}

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// mail sends the seller the confirmation link of account label: to the account owner's address,
// whoever added the account, so no one else can point the seller's payouts elsewhere.
func (s *Service) mail(ctx context.Context, sellerID int64, lbl, token string) error {
	o, err := s.store.owner(ctx, sellerID)
	if err != nil {
		return err
	}
	link := s.d.Public.Link("/settings/payment-account?" + url.Values{"token": {token}}.Encode())
	return s.d.Mailer.Send(ctx, pmail.Message{To: o.Email, Subject: "Confirm your payment account",
		Body: "Hello " + o.Name + ",\n\nThis payment account was added to your Pressroom account, or changed:\n\n    " + lbl +
			"\n\nPayouts are sent to it only once you confirm it. Open this link to confirm (it works once, for " +
			s.d.Config.ConfirmTTL.String() + "):\n\n" + link +
			"\n\nIf you did not ask for this, do not open the link; change your password and check your team's permissions.\n"})
}

func (s *Service) handleAdd(c echo.Context) error {
	in, err := s.input(c, nil)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	token, l := s.newLink()
	caller := auth.Caller(c)
	id, err := s.store.add(ctx, s.d.Box, caller.User.ID, caller.Person(), in, l)
	if err != nil {
		return err
	}
	a, err := s.account(c, id)
	if err != nil {
		return err
	}
	if err := s.mail(ctx, caller.User.ID, a.Label, token); err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, envelope.Response{Success: true, Message: MsgAdded, Data: a, Errors: []envelope.FieldError{}})
}

func (s *Service) handleChange(c echo.Context) error {
	old, err := s.account(c, envelope.PathID(c))
	if err != nil {
		return err
	}
	in, err := s.input(c, &old)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	token, l := s.newLink()
	changed, err := s.store.change(ctx, s.d.Box, seller(c), old.ID, in, l)
	switch {
	case errors.Is(err, ErrNotFound):
		return notFound()
	case errors.Is(err, seal.ErrUnsealable):
		return envelope.Fail(http.StatusConflict, MsgUnsealable)
	case err != nil:
		return err
	}
	a, err := s.account(c, old.ID)
	if err != nil || !changed {
		return answer(c, MsgSaved, a, err)
	}
	if err := s.mail(ctx, seller(c), a.Label, token); err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgChanged, a)
}

func answer(c echo.Context, msg string, a Account, err error) error {
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, msg, a)
}

type confirmBody struct {
	Token string `json:"token"`
}

// handleConfirm spends the e-mailed link. Opening it again answers the account as confirmed,
// changing nothing.
func (s *Service) handleConfirm(c echo.Context) error {
	var b confirmBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	badLink := invalid(envelope.FieldError{Field: "token", Message: MsgBadLink})
	if strings.TrimSpace(b.Token) == "" {
		return badLink
	}
	ctx := c.Request().Context()
	a, changed, err := s.store.confirm(ctx, seller(c), hashToken(b.Token))
	switch {
	case errors.Is(err, ErrBadLink):
		return badLink
	case errors.Is(err, ErrExpired):
		return invalid(envelope.FieldError{Field: "token", Message: MsgExpired})
	case err != nil:
		return err
	}
	if !changed {
		return envelope.OKMessage(c, MsgWasConfirmed, a)
	}
	person := auth.Caller(c).Person()
	if err := s.d.Auth.Store().Audit(ctx, &person, "payment_account.confirmed", c.RealIP(), map[string]any{"account_id": a.ID}); err != nil {
		s.d.Log.Error("audit", "err", err)
	}
	return envelope.OKMessage(c, MsgConfirmed, a)
}

func (s *Service) handleResend(c echo.Context) error {
	token, l := s.newLink()
	a, err := s.store.resend(c.Request().Context(), seller(c), envelope.PathID(c), l)
	switch {
	case errors.Is(err, ErrNotFound):
		return notFound()
	case errors.Is(err, ErrAlreadyValid):
		return envelope.Fail(http.StatusConflict, MsgAlreadyValid)
	case errors.Is(err, ErrNotValid):
		return envelope.Fail(http.StatusConflict, MsgChangeInvalid)
	case errors.Is(err, ErrTooSoon):
		c.Response().Header().Set("Retry-After", "60")
		return envelope.Fail(http.StatusTooManyRequests, MsgResendSoon)
	case err != nil:
		return err
	}
	if err := s.mail(c.Request().Context(), seller(c), a.Label, token); err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgResent, nil)
}

func (s *Service) handleDefault(c echo.Context) error {
	err := s.store.setDefault(c.Request().Context(), seller(c), envelope.PathID(c))
	switch {
	case errors.Is(err, ErrNotFound):
		return notFound()
	case errors.Is(err, ErrNotValid):
		return envelope.Fail(http.StatusConflict, MsgNotValid)
	case err != nil:
		return err
	}
	a, err := s.account(c, envelope.PathID(c))
	return answer(c, MsgDefault, a, err)
}

func (s *Service) handleDelete(c echo.Context) error {
	err := s.store.remove(c.Request().Context(), seller(c), envelope.PathID(c))
	switch {
	case errors.Is(err, ErrNotFound):
		return notFound()
	case errors.Is(err, ErrOpenPayout):
		return envelope.Fail(http.StatusConflict, MsgOpenPayout)
	case err != nil:
		return err
	}
	return envelope.OKMessage(c, MsgDeleted, nil)
}

// Revealed is an account with its sensitive fields in the clear, for the admin who sends a payout.
type Revealed struct {
	Account
	SellerName  string `json:"seller_name"`
	SellerEmail string `json:"seller_email"`
}

// handleReveal answers an account's details for the admin paying a payout; each look is audited.
func (s *Service) handleReveal(c echo.Context) error {
	ctx := c.Request().Context()
	a, err := s.store.get(ctx, s.d.DB, 0, envelope.PathID(c), false)
	if errors.Is(err, ErrNotFound) {
		return notFound()
	} else if err != nil {
		return err
	}
	secrets, err := openSecrets(s.d.Box, a)
	if errors.Is(err, seal.ErrUnsealable) {
		return envelope.Fail(http.StatusConflict, MsgUnsealable)
	} else if err != nil {
		return err
	}
	o, err := s.store.owner(ctx, a.SellerID)
	if err != nil {
		return err
	}
	person := auth.Caller(c).Person()
	if err := s.d.Auth.Store().Audit(ctx, &person, "payment_account.revealed", c.RealIP(), map[string]any{"account_id": a.ID}); err != nil {
		return err
	}
	maps.Copy(a.Fields, secrets)
	return envelope.OK(c, Revealed{Account: a, SellerName: o.Name, SellerEmail: o.Email})
}

type invalidateBody struct {
	Reason string `json:"reason"`
}

func (s *Service) handleInvalidate(c echo.Context) error {
	var b invalidateBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	reason := strings.TrimSpace(b.Reason)
	if reason == "" || len([]rune(reason)) > 500 {
		return invalid(envelope.FieldError{Field: "reason", Message: MsgReason})
	}
	a, err := s.store.invalidate(c.Request().Context(), envelope.PathID(c), reason)
	if errors.Is(err, ErrNotFound) {
		return notFound()
	}
	return answer(c, MsgInvalidated, a, err)
}
