package report

import (
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
)

// The date-range presets, as ui/src/format/dateRange.ts names them; custom reads from and to.
const presetCustom = "custom"

var presets = []string{"today", "yesterday", "this_week", "this_month", "last_7_days", "last_14_days", "last_week",
	"last_30_days", "last_month", presetCustom}

// Messages of bad date ranges.
const (
	MsgBadPreset = "The date range must be one of today, yesterday, this_week, this_month, last_7_days, last_14_days, last_week, last_30_days, last_month or custom."
	MsgBadDate   = "The date must be written as YYYY-MM-DD."
	MsgBadRange  = "The from date must not be after the to date."
)

// DateRange reads the query's date_range preset, or from and to (YYYY-MM-DD, both included), as
// [From, To) in the time zone utcOffset hours east of UTC, relative to now. Nil bounds do not
// filter; problems come back against their field.
func DateRange(c echo.Context, utcOffset float64, now time.Time) (from, to *time.Time, errs []envelope.FieldError) {
	bad := func(field, msg string) { errs = append(errs, envelope.FieldError{Field: field, Message: msg}) }
	loc := time.FixedZone("", int(utcOffset*3600))
	day := func(field string) *time.Time {
		v := c.QueryParam(field)
		if v == "" {
			return nil
		}
		t, err := time.ParseInLocation(time.DateOnly, v, loc)
		if err != nil {
			bad(field, MsgBadDate)
			return nil
		}
		return &t
	}
	preset := c.QueryParam("date_range")
	switch {
	case preset == "" || preset == presetCustom:
		from, to = day("from"), day("to")
		if from != nil && to != nil && from.After(*to) {
			bad("to", MsgBadRange)
		}
		if to != nil {
			end := to.AddDate(0, 0, 1)
			to = &end
		}
	case slices.Contains(presets, preset):
		f, t := presetRange(preset, now.In(loc))
		from, to = &f, &t
	default:
		bad("date_range", MsgBadPreset)
	}
	return from, to, errs
}

// presetRange is the [from, to) of a preset for a user whose clock reads now. "Last N days" and
// "this week/month" include today; weeks start on Monday.
func presetRange(preset string, now time.Time) (time.Time, time.Time) {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	tomorrow := today.AddDate(0, 0, 1)
	monday := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
	first := today.AddDate(0, 0, 1-today.Day())
	switch preset {
	case "yesterday":
		return today.AddDate(0, 0, -1), today
	case "this_week":
		return monday, tomorrow
	case "this_month":
		return first, tomorrow
	case "last_7_days":
		return today.AddDate(0, 0, -6), tomorrow
	case "last_14_days":
		return today.AddDate(0, 0, -13), tomorrow
	case "last_30_days":
		return today.AddDate(0, 0, -29), tomorrow
	case "last_week":
		return monday.AddDate(0, 0, -7), monday
	case "last_month":
		return first.AddDate(0, -1, 0), first
	}
	return today, tomorrow // today
}
