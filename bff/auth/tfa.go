package auth

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"image/png"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/pressroom/pressroom/bff/envelope"
	pmail "github.com/pressroom/pressroom/platform/mail"
)

// Two-factor: TOTP (RFC 6238, SHA-1, 6 digits, 30-second steps) with one step of clock drift either
// way. A code is accepted once: the user's last accepted step is stored, and only later steps pass.
// Recovery codes are ten random codes shown once, stored hashed, each spent once.

const (
	tfaPeriod      = 30
	tfaSkew        = 1
	recoveryCodes  = 10
	recoveryLength = 10
)

// Messages of the two-factor calls.
const (
	MsgTFAInvalidCode    = "The two-factor code is invalid or has already been used."
	MsgTFAAlreadyEnabled = "Two-factor authentication is already enabled."
	MsgTFANotEnabled     = "Two-factor authentication is not enabled."
	MsgTFANoSetup        = "Start the two-factor setup first."
	MsgTFAEnabled        = "Two-factor authentication is enabled. Keep your recovery codes somewhere safe."
	MsgTFADisabled       = "Two-factor authentication is disabled."
	MsgTFAConfirmed      = "Two-factor authentication confirmed."
)

var tfaOpts = totp.ValidateOpts{Period: tfaPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// matchStep returns the time step within the window whose code equals code, or 0.
func matchStep(secret, code string, now time.Time) int64 {
	code = strings.TrimSpace(code)
	if len(code) != 6 {
		return 0
	}
	cur := now.Unix() / tfaPeriod
	for step := cur - tfaSkew; step <= cur+tfaSkew; step++ {
		want, err := totp.GenerateCodeCustom(secret, time.Unix(step*tfaPeriod, 0), tfaOpts)
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return step
		}
	}
	return 0
}

func badCode() error {
	return envelope.Fail(http.StatusUnprocessableEntity, MsgTFAInvalidCode, envelope.FieldError{Field: "code", Message: MsgTFAInvalidCode})
}

type tfaSetup struct {
	Secret     string `json:"secret"`
	OTPAuthURL string `json:"otpauth_url"`
	// QRCode is a data: URL of a PNG the authenticator app scans.
	QRCode string `json:"qr_code"`
}

type passwordBody struct {
	CurrentPassword string `json:"current_password"`
}

// handleTFASetup starts enrolment after the current password is checked: a new secret, kept
// pending until a code from it is confirmed.
func (s *Service) handleTFASetup(c echo.Context) error {
	var b passwordBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	id := Caller(c)
	if id.User.TFAEnable {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgTFAAlreadyEnabled)
	}
	if err := invalid(checkCurrentGiven(b.CurrentPassword)); err != nil {
		return err
	}
	if err := s.checkCurrentPassword(c, id.User, b.CurrentPassword); err != nil {
		return err
	}
	key, err := totp.Generate(totp.GenerateOpts{
		Issuer: s.cfg.TFAIssuer, AccountName: id.User.Email, Period: tfaPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1,
	})
	if err != nil {
		return fmt.Errorf("generate two-factor secret: %w", err)
	}
	img, err := key.Image(240, 240)
	if err != nil {
		return fmt.Errorf("draw two-factor QR code: %w", err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return fmt.Errorf("encode two-factor QR code: %w", err)
	}
	if err := s.store.setPendingSecret(c.Request().Context(), id.User.ID, key.Secret()); err != nil {
		return err
	}
	return envelope.OK(c, tfaSetup{
		Secret: key.Secret(), OTPAuthURL: key.URL(),
		QRCode: "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()),
	})
}

type codeBody struct {
	Code         string `json:"code"`
	RecoveryCode string `json:"recovery_code"`
	// CurrentPassword is required to enable or disable two-factor, not to pass it at sign-in.
	CurrentPassword string `json:"current_password"`
}

// handleTFAEnable confirms enrolment, after the current password, with a code from the pending
// secret and answers the recovery codes, shown this once. The session that enabled it counts as
// confirmed; the account's address is told.
func (s *Service) handleTFAEnable(c echo.Context) error {
	var b codeBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	id := Caller(c)
	ctx := c.Request().Context()
	if id.User.TFAEnable {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgTFAAlreadyEnabled)
	}
	if err := invalid(checkCurrentGiven(b.CurrentPassword)); err != nil {
		return err
	}
	if err := s.checkCurrentPassword(c, id.User, b.CurrentPassword); err != nil {
		return err
	}
	st, err := s.store.tfaState(ctx, id.User.ID)
	if err != nil {
		return err
	}
	if !st.Pending.Valid {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgTFANoSetup)
	}
	if err := s.guessCode(ctx, id, c.RealIP()); err != nil {
		return err
	}
	step := matchStep(st.Pending.String, b.Code, time.Now())
	if step == 0 {
		return s.tfaFailed(ctx, id, c.RealIP())
	}
	if err := s.guessedRight(ctx, tfaKey(id.User.ID), c.RealIP()); err != nil {
		return err
	}
	codes, hashes := newRecoveryCodes()
	if err := s.store.enableTFA(ctx, id.User.ID, st.Pending.String, step, hashes); errors.Is(err, errCodeUsed) {
		return badCode()
	} else if err != nil {
		return err
	}
	if err := s.store.markTFAPassed(ctx, id.SessionID); err != nil {
		return err
	}
	s.callers.dropSession(id.SessionID)
	s.audit(ctx, &id.User.ID, "tfa.enabled", c.RealIP(), nil)
	s.tellTFAChange(ctx, id.User, "turned on")
	return envelope.OKMessage(c, MsgTFAEnabled, map[string]any{"recovery_codes": codes})
}

// handleTFAVerify settles a session that owes a code: a TOTP code (each accepted once) or a
// recovery code (each spent once).
func (s *Service) handleTFAVerify(c echo.Context) error {
	var b codeBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	id, usedRecovery, err := s.secondFactor(c, b)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := s.store.markTFAPassed(ctx, id.SessionID); err != nil {
		return err
	}
	s.callers.dropSession(id.SessionID)
	s.audit(ctx, &id.User.ID, "tfa.passed", c.RealIP(), map[string]any{"recovery_code": usedRecovery})
	return envelope.OKMessage(c, MsgTFAConfirmed, nil)
}

// handleTFADisable turns two-factor off after the current password and a valid code; the account's
// address is told.
func (s *Service) handleTFADisable(c echo.Context) error {
	var b codeBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	id := Caller(c)
	if !id.User.TFAEnable {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgTFANotEnabled)
	}
	if err := invalid(checkCurrentGiven(b.CurrentPassword)); err != nil {
		return err
	}
	if err := s.checkCurrentPassword(c, id.User, b.CurrentPassword); err != nil {
		return err
	}
	if _, _, err := s.secondFactor(c, b); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := s.store.disableTFA(ctx, id.User.ID); err != nil {
		return err
	}
	s.audit(ctx, &id.User.ID, "tfa.disabled", c.RealIP(), nil)
	s.tellTFAChange(ctx, id.User, "turned off")
	return envelope.OKMessage(c, MsgTFADisabled, nil)
}

// tellTFAChange e-mails the account's address that two-factor was turned on or off, so a change
// made with a stolen session and password does not go unnoticed. A failure to send is logged.
func (s *Service) tellTFAChange(ctx context.Context, u *User, change string) {
	msg := pmail.Message{
		To:      u.Email,
		Subject: "Two-factor authentication was " + change,
		Body: "Hello " + u.Name + ",\n\nTwo-factor authentication of your Pressroom account was " + change + " on " +
			time.Now().UTC().Format("2 January 2006 at 15:04 UTC") + ".\n\nIf it was not you, reset your password now " +
			"and contact support.\n",
	}
	if err := s.mailer.Send(ctx, msg); err != nil {
		s.log.Error("send two-factor change notice", "user_id", u.ID, "err", err)
	}
}

// secondFactor spends the code of b for the caller, who must have two-factor on; the guess is
// counted before it is checked. It reports whether a recovery code was used.
func (s *Service) secondFactor(c echo.Context, b codeBody) (*Identity, bool, error) {
	id := Caller(c)
	ctx := c.Request().Context()
	if !id.User.TFAEnable {
		return nil, false, envelope.Fail(http.StatusUnprocessableEntity, MsgTFANotEnabled)
	}
	if err := s.guessCode(ctx, id, c.RealIP()); err != nil {
		return nil, false, err
	}
	if err := s.checkSecondFactor(ctx, id.User.ID, b); err != nil {
		if errors.Is(err, errCodeUsed) {
			return nil, false, s.tfaFailed(ctx, id, c.RealIP())
		}
		return nil, false, err
	}
	if err := s.guessedRight(ctx, tfaKey(id.User.ID), c.RealIP()); err != nil {
		return nil, false, err
	}
	return id, b.RecoveryCode != "", nil
}

// guessCode counts a two-factor code guess of the caller before it is checked.
func (s *Service) guessCode(ctx context.Context, id *Identity, ip string) error {
	wait, err := s.guess(ctx, tfaKey(id.User.ID), ip)
	if err != nil {
		return err
	}
	if wait > 0 {
		return throttledError(wait)
	}
	return nil
}

// checkSecondFactor spends a TOTP code or a recovery code of the user; errCodeUsed when neither passes.
func (s *Service) checkSecondFactor(ctx context.Context, userID int64, b codeBody) error {
	if rc := normaliseRecoveryCode(b.RecoveryCode); rc != "" {
		return s.store.spendRecoveryCode(ctx, userID, hashToken(rc))
	}
	st, err := s.store.tfaState(ctx, userID)
	if err != nil {
		return err
	}
	step := matchStep(st.Secret.String, b.Code, time.Now())
	if !st.Secret.Valid || step == 0 {
		return errCodeUsed
	}
	return s.store.spendStep(ctx, userID, step)
}

func (s *Service) tfaFailed(ctx context.Context, id *Identity, ip string) error {
	uid := id.Person()
	s.audit(ctx, &uid, "tfa.failed", ip, nil)
	return badCode()
}

func tfaKey(userID int64) string { return fmt.Sprintf("tfa:%d", userID) }

// recoveryAlphabet leaves out look-alike characters.
const recoveryAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

// newRecoveryCodes returns codes shown as xxxxx-xxxxx and the hashes stored for them.
func newRecoveryCodes() ([]string, [][]byte) {
	codes := make([]string, recoveryCodes)
	hashes := make([][]byte, recoveryCodes)
	for i := range codes {
		b := make([]byte, recoveryLength)
		rand.Read(b)
		for j := range b {
			b[j] = recoveryAlphabet[int(b[j])%len(recoveryAlphabet)]
		}
		codes[i] = string(b[:5]) + "-" + string(b[5:])
		hashes[i] = hashToken(string(b))
	}
	return codes, hashes
}

func normaliseRecoveryCode(code string) string {
	return strings.ToLower(strings.NewReplacer("-", "", " ", "").Replace(code))
}
