package emailmarketing

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/promotions"
	"github.com/pressroom/pressroom/platform/mail"
)

// Messages of the abandoned-checkout and coupon calls.
const (
	MsgAbandonedSaved    = "The abandoned checkout emails have been saved."
	MsgAbandonedSteps    = "Send exactly the abandoned checkout emails 1, 2 and 3."
	MsgAbandonedDelay    = "The delay must be between 1 minute and 7 days (10080 minutes)."
	MsgAbandonedSubject  = "An enabled email needs a subject of at most 200 characters."
	MsgAbandonedBody     = "An enabled email needs a body."
	MsgCouponSaved       = "The abandoned checkout discount has been saved."
	MsgCouponRemoved     = "The abandoned checkout discount has been removed."
	MsgCouponNotFound    = "Discount code not found."
	MsgAbandonedStoreReq = "Choose a store."
)

// AbandonedSteps is how many abandoned-checkout e-mails a store has (numbered 1 to 3).
const AbandonedSteps = 3

// AbandonedEmail is one of a store's abandoned-checkout e-mails.
type AbandonedEmail struct {
	Step         int    `db:"step" json:"step"`
	Enabled      bool   `db:"enabled" json:"enabled"`
	DelayMinutes int    `db:"delay_minutes" json:"delay_minutes"`
	Subject      string `db:"subject" json:"subject"`
	BodyHTML     string `db:"body_html" json:"body_html"`
}

// AbandonedSettings are a store's abandoned-checkout e-mails and the coupon they offer.
type AbandonedSettings struct {
	StoreID    int64            `json:"store_id"`
	CouponCode string           `json:"coupon_code"`
	Emails     []AbandonedEmail `json:"emails"`
}

// defaultAbandoned are the e-mails a store starts with: off, an hour, a day and three days after.
func defaultAbandoned() []AbandonedEmail {
	return []AbandonedEmail{
		{Step: 1, DelayMinutes: 60, Subject: "You left something in your cart"},
		{Step: 2, DelayMinutes: 1440, Subject: "Your cart is waiting for you"},
		{Step: 3, DelayMinutes: 4320, Subject: "Last chance: your cart expires soon"},
	}
}

// DiscountCode is a discount code usable in the store as the coupon picker lists it.
type DiscountCode struct {
	ID      int64  `json:"id"`
	Code    string `json:"code"`
	Kind    string `json:"kind"`
	Percent int    `json:"percent"`
}

func (s *Service) abandoned(ctx context.Context, storeID int64) (AbandonedSettings, error) {
	out := AbandonedSettings{StoreID: storeID, Emails: defaultAbandoned()}
	var saved []AbandonedEmail
	if err := s.d.DB.SelectContext(ctx, &saved, `SELECT step, enabled, delay_minutes, subject, body_html FROM email_abandoned_steps WHERE store_id = $1`, storeID); err != nil {
		return out, err
	}
	for _, e := range saved {
		out.Emails[e.Step-1] = e
	}
	err := s.d.DB.GetContext(ctx, &out.CouponCode, `SELECT coupon_code FROM email_abandoned_settings WHERE store_id = $1`, storeID)
	if isNoRows(err) {
		err = nil
	}
	return out, err
}

func (s *Service) handleGetAbandoned(c echo.Context) error {
	st, err := s.store(c, c.Param("store_id"))
	if err != nil {
		return err
	}
	out, err := s.abandoned(c.Request().Context(), st.ID)
	if err != nil {
		return err
	}
	return envelope.OK(c, out)
}

// validateAbandoned checks the three e-mails, trimming and sanitizing them in place. A disabled
// e-mail may be left incomplete.
func validateAbandoned(emails []AbandonedEmail) error {
	seen := map[int]bool{}
	for _, e := range emails {
		seen[e.Step] = true
	}
	if len(emails) != AbandonedSteps || !seen[1] || !seen[2] || !seen[3] {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgAbandonedSteps, envelope.FieldError{Field: "emails", Message: MsgAbandonedSteps})
	}
	var errs []envelope.FieldError
	for i := range emails {
		e := &emails[i]
		prefix := "emails." + strconv.Itoa(e.Step) + "."
		e.Subject = strings.TrimSpace(e.Subject)
		if e.DelayMinutes < 1 || e.DelayMinutes > 10080 {
			errs = append(errs, envelope.FieldError{Field: prefix + "delay_minutes", Message: MsgAbandonedDelay})
		}
		if len([]rune(e.Subject)) > 200 || strings.ContainsAny(e.Subject, "\r\n") || (e.Enabled && e.Subject == "") {
			errs = append(errs, envelope.FieldError{Field: prefix + "subject", Message: MsgAbandonedSubject})
		}
		switch {
		case len(e.BodyHTML) > maxBody:
			errs = append(errs, envelope.FieldError{Field: prefix + "body_html", Message: MsgBodyTooLong})
		case strings.TrimSpace(e.BodyHTML) == "" && !e.Enabled:
			e.BodyHTML = ""
		default:
			if e.Enabled && mail.PlainText(e.BodyHTML) == "" {
				errs = append(errs, envelope.FieldError{Field: prefix + "body_html", Message: MsgAbandonedBody})
			}
			e.BodyHTML = SanitizeBody(e.BodyHTML)
		}
	}
	if len(errs) > 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	return nil
}

func (s *Service) handlePutAbandoned(c echo.Context) error {
	st, err := s.store(c, c.Param("store_id"))
	if err != nil {
		return err
	}
	var b struct {
		Emails []AbandonedEmail `json:"emails"`
	}
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if err := validateAbandoned(b.Emails); err != nil {
		return err
	}
	ctx := c.Request().Context()
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	const q = `INSERT INTO email_abandoned_steps (store_id, step, enabled, delay_minutes, subject, body_html)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (store_id, step) DO UPDATE SET enabled = EXCLUDED.enabled, delay_minutes = EXCLUDED.delay_minutes,
    subject = EXCLUDED.subject, body_html = EXCLUDED.body_html, updated_at = now()`
	for _, e := range b.Emails {
		if _, err := tx.ExecContext(ctx, q, st.ID, e.Step, e.Enabled, e.DelayMinutes, e.Subject, e.BodyHTML); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	out, err := s.abandoned(ctx, st.ID)
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgAbandonedSaved, out)
}

// handleDiscountCodes searches the store's discount codes by q (at most 20, by code).
func (s *Service) handleDiscountCodes(c echo.Context) error {
	st, err := s.store(c, c.Param("store_id"))
	if err != nil {
		return err
	}
	offered, err := promotions.Offered(c.Request().Context(), s.d.DB, st.ID, strings.TrimSpace(c.QueryParam("q")), 20)
	if err != nil {
		return err
	}
	out := make([]DiscountCode, len(offered))
	for i, p := range offered {
		out[i] = DiscountCode{ID: p.ID, Code: p.Code, Kind: p.Kind, Percent: p.Percent}
	}
	return envelope.OK(c, out)
}

// handleAbandonedDiscount sets (or, with an empty coupon, removes) the discount code the store's
// abandoned-checkout e-mails offer: {store_id, config: {coupon}}.
func (s *Service) handleAbandonedDiscount(c echo.Context) error {
	var b struct {
		StoreID int64 `json:"store_id"`
		Config  struct {
			Coupon string `json:"coupon"`
		} `json:"config"`
	}
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if b.StoreID <= 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgAbandonedStoreReq, envelope.FieldError{Field: "store_id", Message: MsgAbandonedStoreReq})
	}
	st, err := s.store(c, strconv.FormatInt(b.StoreID, 10))
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	code := strings.TrimSpace(b.Config.Coupon)
	msg := MsgCouponRemoved
	if code != "" {
		// The stored spelling is the code's own.
		offered, err := promotions.Offered(ctx, s.d.DB, st.ID, code, 100)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(offered, func(p promotions.Promotion) bool { return strings.EqualFold(p.Code, code) })
		if i < 0 {
			return envelope.Fail(http.StatusUnprocessableEntity, MsgCouponNotFound, envelope.FieldError{Field: "config.coupon", Message: MsgCouponNotFound})
		}
		code = offered[i].Code
		msg = MsgCouponSaved
	}
	const q = `INSERT INTO email_abandoned_settings (store_id, coupon_code) VALUES ($1, $2)
ON CONFLICT (store_id) DO UPDATE SET coupon_code = EXCLUDED.coupon_code, updated_at = now()`
	if _, err := s.d.DB.ExecContext(ctx, q, st.ID, code); err != nil {
		return err
	}
	return envelope.OKMessage(c, msg, map[string]any{"store_id": st.ID, "config": map[string]string{"coupon": code}, "updated_at": time.Now()})
}
