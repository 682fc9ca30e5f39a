package publicapi

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/apikeys"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/orders"
)

// Messages of the not-found answers: another account's rows read as missing.
const (
	MsgCampaignNotFound = "Campaign not found."
	MsgOrderNotFound    = "Order not found."
)

// Filter values the lists accept.
var (
	campaignStatuses = []string{"draft", "active", "archived"}
	orderStatuses    = []string{"archived", "cancelled", "completed", "draft", "on_hold", "pending", "pending_payment",
		"processing", "refunded", "reviewing", "designing"}
)

func (s *Service) handleStores(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id", "name", "created_at")
	if err != nil {
		return err
	}
	p, err := s.store.stores(c.Request().Context(), seller(c), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

func (s *Service) handleCampaigns(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id", "name", "created_at", "updated_at")
	if err != nil {
		return err
	}
	status, err := oneOf(c, "status", campaignStatuses)
	if err != nil {
		return err
	}
	p, err := s.store.campaigns(c.Request().Context(), seller(c), status, q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

func (s *Service) handleCampaign(c echo.Context) error {
	camp, err := s.store.campaign(c.Request().Context(), seller(c), envelope.PathID(c))
	if errors.Is(err, errNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgCampaignNotFound)
	}
	if err != nil {
		return err
	}
	return envelope.OK(c, camp)
}

type orderFilter struct {
	status  string
	storeID int64
}

func (s *Service) handleOrders(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id", "created_at", "updated_at", "total")
	if err != nil {
		return err
	}
	var f orderFilter
	if f.status, err = oneOf(c, "status", orderStatuses); err != nil {
		return err
	}
	if v := c.QueryParam("store_id"); v != "" {
		if f.storeID, err = strconv.ParseInt(v, 10, 64); err != nil || f.storeID <= 0 {
			const msg = "The store id must be the id of one of your stores."
			return envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: "store_id", Message: msg})
		}
	}
	p, err := s.store.orders(c.Request().Context(), seller(c), f, q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

func (s *Service) handleOrder(c echo.Context) error {
	o, err := s.store.order(c.Request().Context(), seller(c), envelope.PathID(c))
	if errors.Is(err, errNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgOrderNotFound)
	}
	if err != nil {
		return err
	}
	return envelope.OK(c, o)
}

func (s *Service) handleShipments(c echo.Context) error {
	sh, err := s.store.shipments(c.Request().Context(), seller(c), envelope.PathID(c))
	if errors.Is(err, errNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgOrderNotFound)
	}
	if err != nil {
		return err
	}
	return envelope.OK(c, sh)
}

// MsgCancelRefused prefixes the state machine's reason when an order cannot be cancelled.
const MsgCancelRefused = "This order cannot be cancelled now: "

// handleCancel cancels an order through the order state machine (commerce/orders), as the seller's
// Cancel button does; it moves no money (a paid order's refund is a separate step).
func (s *Service) handleCancel(c echo.Context) error {
	var body struct {
		Note string `json:"note"`
	}
	if c.Request().ContentLength != 0 {
		if err := envelope.Bind(c, &body); err != nil {
			return err
		}
	}
	note := strings.TrimSpace(body.Note)
	if utf8.RuneCountInString(note) > maxNote {
		e := envelope.TooLong("note", "note", maxNote)
		return envelope.Fail(http.StatusUnprocessableEntity, e.Message, e)
	}
	k := apikeys.KeyCaller(c)
	id := envelope.PathID(c)
	err := s.store.cancel(c.Request().Context(), k.SellerID, id, "api_key:"+strconv.FormatInt(k.KeyID, 10), note)
	switch {
	case errors.Is(err, errNotFound):
		return envelope.Fail(http.StatusNotFound, MsgOrderNotFound)
	case errors.Is(err, orders.ErrRefused):
		reason := strings.TrimPrefix(err.Error(), orders.ErrRefused.Error()+": ")
		return envelope.Fail(http.StatusConflict, MsgCancelRefused+reason+".")
	case err != nil:
		return err
	}
	o, err := s.store.order(c.Request().Context(), k.SellerID, id)
	if err != nil {
		return err
	}
	return envelope.OK(c, o)
}

// maxNote caps the note kept with a cancellation.
const maxNote = 1000

// oneOf reads the query parameter name, which is empty or one of allowed.
func oneOf(c echo.Context, name string, allowed []string) (string, error) {
	v := c.QueryParam(name)
	if v == "" || slices.Contains(allowed, v) {
		return v, nil
	}
	msg := "The " + name + " must be one of " + strings.Join(allowed, ", ") + "."
	return "", envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: name, Message: msg})
}
