package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
)

// Handing a session to another dashboard host (the seller centre a custom-payment seller is sent
// to): the signed-in host asks for a one-time code and sends the browser to the other host's
// /auth/callback?code=, whose page exchanges the code by POST for a session of its own. A token never
// travels in an address, and a code works once, for HandoffTTL.

// MsgBadHandoff answers a code that is unknown, used or expired.
const MsgBadHandoff = "This sign-in link is invalid or has expired. Please sign in."

type handoffData struct {
	Code      string `json:"code"`
	ExpiresIn int64  `json:"expires_in"`
}

// handleHandoff makes a one-time code for the caller's account.
func (s *Service) handleHandoff(c echo.Context) error {
	id := Caller(c)
	code, hash := newToken()
	ctx := c.Request().Context()
	if err := s.store.createHandoff(ctx, id.User.ID, hash, id.User.TFAConfirm, s.cfg.HandoffTTL); err != nil {
		return err
	}
	s.audit(ctx, &id.User.ID, "handoff.created", c.RealIP(), nil)
	return envelope.OK(c, handoffData{Code: code, ExpiresIn: int64(s.cfg.HandoffTTL.Seconds())})
}

type handoffBody struct {
	Code string `json:"code"`
}

// handleHandoffExchange spends a one-time code for a new session of its account.
func (s *Service) handleHandoffExchange(c echo.Context) error {
	var b handoffBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	bad := envelope.Fail(http.StatusUnprocessableEntity, MsgBadHandoff, envelope.FieldError{Field: "code", Message: MsgBadHandoff})
	if b.Code == "" {
		return bad
	}
	ctx := c.Request().Context()
	if err := s.countCall(ctx, "handoff", c.RealIP()); err != nil {
		return err
	}
	userID, tfaPassed, err := s.store.spendHandoff(ctx, hashToken(b.Code))
	if errors.Is(err, errBadLink) {
		return bad
	}
	if err != nil {
		return err
	}
	token, err := s.openSession(ctx, newSession{UserID: userID, TFAPassed: tfaPassed, IP: c.RealIP(), UserAgent: c.Request().UserAgent()})
	if err != nil {
		return err
	}
	s.audit(ctx, &userID, "handoff.exchanged", c.RealIP(), nil)
	return envelope.OK(c, s.tokenData(token, KindOwn))
}

func (s *Store) createHandoff(ctx context.Context, userID int64, hash []byte, tfaPassed bool, ttl time.Duration) error {
	const q = `
INSERT INTO session_handoffs (user_id, code_hash, tfa_passed, expires_at)
VALUES ($1, $2, $3, now() + make_interval(secs => $4))`
	if _, err := s.db.ExecContext(ctx, q, userID, hash, tfaPassed, ttl.Seconds()); err != nil {
		return fmt.Errorf("create handoff code: %w", err)
	}
	return nil
}

// spendHandoff marks the live code of hash used and returns its account; errBadLink when there is none.
func (s *Store) spendHandoff(ctx context.Context, hash []byte) (userID int64, tfaPassed bool, err error) {
	const q = `
UPDATE session_handoffs SET used_at = now()
WHERE code_hash = $1 AND used_at IS NULL AND expires_at > now()
RETURNING user_id, tfa_passed`
	err = s.db.QueryRowContext(ctx, q, hash).Scan(&userID, &tfaPassed)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, errBadLink
	}
	if err != nil {
		return 0, false, fmt.Errorf("spend handoff code: %w", err)
	}
	return userID, tfaPassed, nil
}
