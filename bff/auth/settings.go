package auth

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
	// The zones are validated and read from the copy built into the binary, so a host without a
	// zoneinfo database (a slim container) knows every zone too.
	_ "time/tzdata"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/money"
)

// Messages of the general settings.
const (
	MsgGeneralSettingsSaved = "Your general settings have been saved."
	MsgUnknownTimezone      = "The timezone must be a time zone from the list."
	MsgUnknownCurrency      = "The currency must be one of the currencies Pressroom supports."
)

// loadZone is the time zone named name; a name that no longer loads (the zone database dropped
// it) reads as UTC.
func loadZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		return time.UTC
	}
	return loc
}

// validZone reports whether name is an IANA time zone a seller may choose: one the zone database
// knows by that name, not the process's own "Local" nor the "posix/" and "right/" copies some hosts
// ship, which browsers do not know.
func validZone(name string) bool {
	if name == "" || name == "Local" || strings.HasPrefix(name, "posix/") || strings.HasPrefix(name, "right/") {
		return false
	}
	loc, err := time.LoadLocation(name)
	return err == nil && loc.String() == name
}

// UTCOffset is the user's hours from UTC at t in their time zone (daylight saving time included):
// what the dates they see and the day ranges of their lists are shifted by. It is worked out each
// time it is asked, never kept, so a cached user is right on both sides of a clock change.
func (u *User) UTCOffset(t time.Time) float64 {
	zone := u.zone
	if zone == nil {
		zone = time.UTC
	}
	_, secs := t.In(zone).Zone()
	return float64(secs) / 3600
}

// meView is the user as GET /api/me answers it: with utc_offset, the user's hours from UTC now.
type meView struct {
	*User
	UTCOffset float64 `json:"utc_offset"`
}

func (s *Service) handleMe(c echo.Context) error {
	u := Caller(c).User
	return envelope.OK(c, meView{User: u, UTCOffset: u.UTCOffset(time.Now())})
}

// generalSettingsBody is PUT /api/settings/general: a field left out is left as it is.
type generalSettingsBody struct {
	Timezone *string `json:"timezone"`
	Currency *string `json:"currency"`
}

// validate checks the fields given and writes the currency as its code.
func (b *generalSettingsBody) validate() error {
	var zoneErr, currencyErr *envelope.FieldError
	if b.Timezone != nil && !validZone(*b.Timezone) {
		zoneErr = &envelope.FieldError{Field: "timezone", Message: MsgUnknownTimezone}
	}
	if b.Currency != nil {
		cur, err := money.ParseCurrency(*b.Currency)
		if err != nil {
			currencyErr = &envelope.FieldError{Field: "currency", Message: MsgUnknownCurrency}
		}
		code := string(cur)
		b.Currency = &code
	}
	return invalid(zoneErr, currencyErr)
}

// handleGeneralSettings saves the caller's time zone and display currency. The change reaches every
// bff process's caller cache through the users trigger (docs/accounts.md, "caller cache"); this
// process drops the user at once, so the next GET /api/me already answers the new settings.
func (s *Service) handleGeneralSettings(c echo.Context) error {
	var b generalSettingsBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if err := b.validate(); err != nil {
		return err
	}
	id := Caller(c).User.ID
	if err := s.store.setGeneralSettings(c.Request().Context(), id, b.Timezone, b.Currency); err != nil {
		return err
	}
	s.callers.dropUser(id)
	return envelope.OKMessage(c, MsgGeneralSettingsSaved, nil)
}

// setGeneralSettings stores the time zone and display currency given (nil: unchanged).
func (s *Store) setGeneralSettings(ctx context.Context, userID int64, timezone, currency *string) error {
	const q = `UPDATE users SET timezone = COALESCE($2, timezone), currency = COALESCE($3, currency) WHERE id = $1`
	res, err := s.db.ExecContext(ctx, q, userID, timezone, currency)
	if err != nil {
		return fmt.Errorf("save general settings: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return envelope.Fail(http.StatusNotFound, "Account not found.")
	}
	return nil
}
