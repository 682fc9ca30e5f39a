package orders

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/orders"
)

// Filter is what narrows the orders list and its export. Empty fields do not filter; From and To
// bound created_at as [From, To).
type Filter struct {
	Status            string
	PaymentStatus     string
	FulfillmentStatus string
	OrderType         string
	StoreID           int64
	From, To          *time.Time
	Q                 string
}

// The date-range presets, as ui/src/format/dateRange.ts names them; custom reads from and to.
const presetCustom = "custom"

var presets = []string{"today", "yesterday", "this_week", "this_month", "last_7_days", "last_14_days", "last_week",
	"last_30_days", "last_month", presetCustom}

// Messages of bad filters.
const (
	MsgBadStatus      = "The status must be one of the order statuses."
	MsgBadPayment     = "The payment status must be one of the payment statuses."
	MsgBadFulfillment = "The fulfillment status must be one of the fulfillment statuses."
	MsgBadType        = "The order type must be regular, fulfillment, custom or fba."
	MsgBadStore       = "The store id must be a positive whole number."
	MsgBadPreset      = "The date range must be one of today, yesterday, this_week, this_month, last_7_days, last_14_days, last_week, last_30_days, last_month or custom."
	MsgBadDate        = "The date must be written as YYYY-MM-DD."
	MsgBadRange       = "The from date must not be after the to date."
)

func oneOf[T ~string](v string, set []T) bool { return slices.Contains(set, T(v)) }

// parseFilter reads the list's filters. Days are the user's: a preset, or from/to (YYYY-MM-DD, both
// included), is read in the time zone utcOffset hours east of UTC, relative to now.
func parseFilter(c echo.Context, utcOffset float64, now time.Time) (Filter, error) {
	f := Filter{
		Status: c.QueryParam("status"), PaymentStatus: c.QueryParam("payment_status"),
		FulfillmentStatus: c.QueryParam("fulfillment_status"), OrderType: c.QueryParam("order_type"),
		Q: strings.TrimSpace(c.QueryParam("q")),
	}
	var errs []envelope.FieldError
	bad := func(field, msg string) { errs = append(errs, envelope.FieldError{Field: field, Message: msg}) }
	if f.Status != "" && !oneOf(f.Status, orders.States) {
		bad("status", MsgBadStatus)
	}
	if f.PaymentStatus != "" && !oneOf(f.PaymentStatus, orders.PaymentStatuses) {
		bad("payment_status", MsgBadPayment)
	}
	if f.FulfillmentStatus != "" && !oneOf(f.FulfillmentStatus, orders.FulfillmentStatuses) {
		bad("fulfillment_status", MsgBadFulfillment)
	}
	if f.OrderType != "" && !slices.Contains(orders.OrderTypes, f.OrderType) {
		bad("order_type", MsgBadType)
	}
	if v := c.QueryParam("store_id"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			bad("store_id", MsgBadStore)
		}
		f.StoreID = n
	}
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
		from, to := day("from"), day("to")
		if from != nil && to != nil && from.After(*to) {
			bad("to", MsgBadRange)
		}
		if to != nil {
			end := to.AddDate(0, 0, 1)
			to = &end
		}
		f.From, f.To = from, to
	case slices.Contains(presets, preset):
		from, to := presetRange(preset, now.In(loc))
		f.From, f.To = &from, &to
	default:
		bad("date_range", MsgBadPreset)
	}
	if len(errs) > 0 {
		return Filter{}, envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	return f, nil
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
