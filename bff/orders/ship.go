package orders

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/commerce/orders"
)

// Messages of tracking and delivery.
const (
	MsgCarrier     = "The carrier is required (at most 100 characters)."
	MsgTracking    = "The tracking number is required (at most 100 characters)."
	MsgTrackingURL = "The tracking link must be an http or https address (at most 2000 characters)."
	MsgItems       = "Choose items of this order."
	MsgShipped     = "Tracking added."
	MsgSameTrack   = "Nothing changed: these items already have this tracking."
	MsgDelivered   = "Marked delivered."
	MsgWasDeliv    = "Nothing changed: what shipped was already delivered."
)

// ParcelInput is the body of ship (deliver reads only item_ids). No item ids: every item.
type ParcelInput struct {
	Carrier     string  `json:"carrier"`
	Tracking    string  `json:"tracking_number"`
	TrackingURL string  `json:"tracking_url"`
	ItemIDs     []int64 `json:"item_ids"`
}

// Parcel checks the input, answering a 422 naming the first bad field.
func (in ParcelInput) Parcel(needTracking bool) (orders.Parcel, error) {
	p := orders.Parcel{Carrier: strings.TrimSpace(in.Carrier), Tracking: strings.TrimSpace(in.Tracking),
		TrackingURL: strings.TrimSpace(in.TrackingURL), ItemIDs: in.ItemIDs}
	bad := func(field, msg string) error {
		return envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: field, Message: msg})
	}
	if needTracking {
		if p.Carrier == "" || utf8.RuneCountInString(p.Carrier) > 100 {
			return p, bad("carrier", MsgCarrier)
		}
		if p.Tracking == "" || utf8.RuneCountInString(p.Tracking) > 100 {
			return p, bad("tracking_number", MsgTracking)
		}
		if p.TrackingURL != "" {
			u, err := url.Parse(p.TrackingURL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(p.TrackingURL) > 2000 {
				return p, bad("tracking_url", MsgTrackingURL)
			}
		}
	}
	for _, id := range p.ItemIDs {
		if id <= 0 {
			return p, bad("item_ids", MsgItems)
		}
	}
	return p, nil
}

// ship adds tracking to items (ship) or marks what shipped delivered (deliver), in one transaction
// holding the order's row: a cancel sent at the same time runs before or after, never between.
func (s *Service) ship(c echo.Context, sc listing.Scope, id int64, a orders.Action, actor string) error {
	var in ParcelInput
	if err := envelope.Bind(c, &in); err != nil {
		return err
	}
	p, err := in.Parcel(a == orders.ActionShip)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	var res orders.Shipped
	err = s.inTx(ctx, sc, id, func(tx *sqlx.Tx) error {
		var err error
		if a == orders.ActionShip {
			res, err = orders.Ship(ctx, tx, id, p, actor)
		} else {
			res, err = orders.Deliver(ctx, tx, id, p.ItemIDs, actor)
		}
		if errors.Is(err, orders.ErrNotItems) {
			return envelope.Fail(http.StatusUnprocessableEntity, MsgItems, envelope.FieldError{Field: "item_ids", Message: MsgItems})
		}
		return err
	})
	if err != nil {
		return err
	}
	msg := map[bool]map[bool]string{true: {true: MsgShipped, false: MsgSameTrack}, false: {true: MsgDelivered, false: MsgWasDeliv}}
	return s.answer(c, sc, id, msg[a == orders.ActionShip][res.Changed])
}
