package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/envelope"
)

// Team switching and admin impersonation: both open a session that acts as a seller
// for someone else (the origin user), and the session says which.

// Messages of switching and impersonation.
const (
	MsgSwitched         = "You have switched to a new account!"
	MsgCannotSwitch     = "Cannot switch to new account."
	MsgCannotSwitchTFA  = "The account you switch to requires two-factor authentication. Turn it on for your account first."
	MsgCannotGoBack     = "Cannot switch to main account. Please try again!"
	MsgNotASeller       = "Only seller accounts can be signed in to."
	MsgBackToAdmin      = "You are back in your admin account."
	MsgNotImpersonating = "You are not signed in as a seller."
)

// AuthorizedAccount is a seller account the caller may switch into.
type AuthorizedAccount struct {
	SellerID int64   `db:"seller_id" json:"seller_id"`
	Name     string  `db:"name" json:"name"`
	Avatar   *string `db:"avatar" json:"avatar"`
	Role     string  `db:"role" json:"role"`
}

func (s *Store) authorizedAccounts(ctx context.Context, memberID int64) ([]AuthorizedAccount, error) {
	const q = `
SELECT t.seller_id, u.name, u.avatar, t.role FROM team_members t JOIN users u ON u.id = t.seller_id
WHERE t.member_id = $1 ORDER BY u.name, t.seller_id`
	out := []AuthorizedAccount{}
	if err := s.db.SelectContext(ctx, &out, q, memberID); err != nil {
		return nil, fmt.Errorf("list authorized accounts: %w", err)
	}
	return out, nil
}

func (s *Service) handleAuthorizedAccounts(c echo.Context) error {
	accounts, err := s.store.authorizedAccounts(c.Request().Context(), Caller(c).Person())
	if err != nil {
		return err
	}
	return envelope.OK(c, accounts)
}

type switchBody struct {
	SellerID int64 `json:"seller_id"`
}

// switchReply is the switch answer: the new token, and customPayload.fta_diff when the target
// account has two-factor on and the member does not.
type switchReply struct {
	envelope.Response
	CustomPayload map[string]any `json:"customPayload,omitempty"`
}

// handleSwitch opens a session in a seller's account the caller (or the member behind a switched
// session) belongs to, and revokes the current one.
func (s *Service) handleSwitch(c echo.Context) error {
	var b switchBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if b.SellerID <= 0 {
		msg := "The seller id field is required."
		return envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: "seller_id", Message: msg})
	}
	id := Caller(c)
	ctx := c.Request().Context()
	person := id.Person()
	if _, err := s.store.membership(ctx, b.SellerID, person); errors.Is(err, errNoUser) {
		uid := person
		s.audit(ctx, &uid, "switch.denied", c.RealIP(), map[string]any{"seller_id": b.SellerID})
		return envelope.Fail(http.StatusForbidden, MsgCannotSwitch)
	} else if err != nil {
		return err
	}
	seller, err := s.store.UserByID(ctx, b.SellerID)
	if err != nil {
		return err
	}
	me, err := s.store.UserByID(ctx, person)
	if err != nil {
		return err
	}
	if seller.TFAEnable && !me.TFAEnable {
		return c.JSON(http.StatusForbidden, switchReply{
			Response:      envelope.Response{Message: MsgCannotSwitchTFA, Errors: []envelope.FieldError{{Message: MsgCannotSwitchTFA}}},
			CustomPayload: map[string]any{"fta_diff": true},
		})
	}
	token, err := s.replaceSession(ctx, id, newSession{
		UserID: b.SellerID, Kind: KindSwitched, OriginUserID: &person, TFAPassed: true,
		IP: c.RealIP(), UserAgent: c.Request().UserAgent(),
	})
	if err != nil {
		return err
	}
	s.audit(ctx, &person, "switch.account", c.RealIP(), map[string]any{"seller_id": b.SellerID})
	return c.JSON(http.StatusOK, switchReply{Response: envelope.Response{
		Success: true, Message: MsgSwitched, Errors: []envelope.FieldError{},
		Data: s.tokenData(token, KindSwitched),
	}})
}

// handleSwitchBack returns a switched session to the member's own account.
func (s *Service) handleSwitchBack(c echo.Context) error {
	id := Caller(c)
	if !id.Switched() {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgCannotGoBack)
	}
	ctx := c.Request().Context()
	token, err := s.replaceSession(ctx, id, newSession{
		UserID: id.OriginUserID, TFAPassed: true, IP: c.RealIP(), UserAgent: c.Request().UserAgent(),
	})
	if err != nil {
		return err
	}
	s.audit(ctx, &id.OriginUserID, "switch.back", c.RealIP(), map[string]any{"seller_id": id.User.ID})
	return envelope.OKMessage(c, MsgSwitched, s.tokenData(token, KindOwn))
}

// replaceSession opens ns and revokes the caller's current session.
func (s *Service) replaceSession(ctx context.Context, id *Identity, ns newSession) (string, error) {
	token, err := s.openSession(ctx, ns)
	if err != nil {
		return "", err
	}
	if err := s.store.revokeSession(ctx, id.SessionID); err != nil {
		return "", err
	}
	s.callers.dropSession(id.SessionID)
	return token, nil
}

type impersonateBody struct {
	Email    string `json:"email"`
	SellerID int64  `json:"seller_id"`
}

// handleLoginAsSeller opens an impersonation session for an admin: it acts as the seller with
// access_user set for ImpersonationTTL, every request it makes is audited, the admin's role is
// checked again on every request (Authenticate), and the sensitive changes whose routes declare
// NotImpersonating are refused. The admin's own session stays.
func (s *Service) handleLoginAsSeller(c echo.Context) error {
	var b impersonateBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	ctx := c.Request().Context()
	var seller *User
	var err error
	switch b.Email = strings.TrimSpace(b.Email); {
	case b.SellerID > 0:
		seller, err = s.store.UserByID(ctx, b.SellerID)
	case b.Email != "":
		seller, _, err = s.store.userByEmail(ctx, b.Email)
	default:
		msg := "The email field is required."
		return envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: "email", Message: msg})
	}
	if errors.Is(err, errNoUser) || errors.Is(err, sql.ErrNoRows) {
		msg := "No seller has that e-mail address."
		return envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: "email", Message: msg})
	}
	if err != nil {
		return err
	}
	if !seller.HasRole(access.RoleSeller) {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgNotASeller, envelope.FieldError{Field: "email", Message: MsgNotASeller})
	}
	admin := Caller(c).User.ID
	token, err := s.openSession(ctx, newSession{
		UserID: seller.ID, Kind: KindImpersonation, OriginUserID: &admin, IP: c.RealIP(), UserAgent: c.Request().UserAgent(),
	})
	if err != nil {
		return err
	}
	s.audit(ctx, &admin, "impersonation.start", c.RealIP(), map[string]any{
		"admin_id": admin, "seller_id": seller.ID, "request_id": c.Response().Header().Get(echo.HeaderXRequestID),
	})
	return envelope.OK(c, s.tokenData(token, KindImpersonation))
}

// handleBackToAdmin ends an admin's impersonation: the impersonation session is revoked and the
// admin gets a session of their own account (they proved who they are at the login that started
// it; Authenticate checked again on this very request that they still hold the admin role).
func (s *Service) handleBackToAdmin(c echo.Context) error {
	id := Caller(c)
	if !id.Impersonating() {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgNotImpersonating)
	}
	ctx := c.Request().Context()
	token, err := s.replaceSession(ctx, id, newSession{
		UserID: id.OriginUserID, TFAPassed: true, IP: c.RealIP(), UserAgent: c.Request().UserAgent(),
	})
	if err != nil {
		return err
	}
	s.audit(ctx, &id.OriginUserID, "impersonation.stop", c.RealIP(), map[string]any{"admin_id": id.OriginUserID, "seller_id": id.User.ID})
	return envelope.OKMessage(c, MsgBackToAdmin, s.tokenData(token, KindOwn))
}
