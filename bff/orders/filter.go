package orders

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/report"
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

// Messages of bad filters.
const (
	MsgBadStatus      = "The status must be one of the order statuses."
	MsgBadPayment     = "The payment status must be one of the payment statuses."
	MsgBadFulfillment = "The fulfillment status must be one of the fulfillment statuses."
	MsgBadType        = "The order type must be regular, fulfillment, custom or fba."
	MsgBadStore       = "The store id must be a positive whole number."
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
	from, to, rangeErrs := report.DateRange(c, utcOffset, now)
	f.From, f.To, errs = from, to, append(errs, rangeErrs...)
	if len(errs) > 0 {
		return Filter{}, envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	return f, nil
}
