package orders

import (
	"errors"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/idempotency"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/orders"
	"github.com/pressroom/pressroom/commerce/refunds"
)

// Messages of refunds.
const (
	MsgRefundKey      = "Send an Idempotency-Key header with a refund (one per refund; the same one on a retry), so a retry refunds once."
	MsgRefundAmount   = "The amount must be a whole number of cents above 0."
	MsgRefundReason   = "The reason must be at most 500 characters."
	MsgRefundKeyUsed  = "This Idempotency-Key was used for another refund of this order. Send a new key for a new refund."
	MsgRefundDown     = "The payment gateway did not answer, so nothing is refunded yet. Send the same request again: it refunds once."
	msgOverRefundHead = "The amount is more than is left to refund: "
)

const maxReason = 500

// refund gives money back: body {amount (cents of the order's currency), reason}, with an
// Idempotency-Key header naming the refund.
func (s *Service) refund(c echo.Context, sc listing.Scope, id int64, actor string) error {
	key := c.Request().Header.Get(idempotency.Header)
	if key == "" || !idempotency.ValidKey(key) {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgRefundKey, envelope.FieldError{Field: idempotency.Header, Message: MsgRefundKey})
	}
	var body struct {
		Amount int64  `json:"amount"`
		Reason string `json:"reason"`
	}
	if err := envelope.Bind(c, &body); err != nil {
		return err
	}
	body.Reason = strings.TrimSpace(body.Reason)
	if body.Amount <= 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgRefundAmount, envelope.FieldError{Field: "amount", Message: MsgRefundAmount})
	}
	if utf8.RuneCountInString(body.Reason) > maxReason {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgRefundReason, envelope.FieldError{Field: "reason", Message: MsgRefundReason})
	}
	ctx := c.Request().Context()
	cur, err := s.store.currency(ctx, sc, id)
	if errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgOrderNotFound)
	} else if err != nil {
		return err
	}
	amount := money.Money{Amount: body.Amount, Currency: cur}
	rf, err := s.d.Refunds.Refund(ctx, id, orders.RefundRequest{Amount: amount, Reason: body.Reason, Key: key, Actor: actor})
	switch {
	case errors.Is(err, orders.ErrRefused):
		return envelope.Fail(http.StatusConflict, refusal(err))
	case errors.Is(err, orders.ErrOverRefund):
		msg := msgOverRefundHead + strings.TrimPrefix(err.Error(), orders.ErrOverRefund.Error()+": ") + "."
		return envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: "amount", Message: msg})
	case errors.Is(err, orders.ErrKeyReused):
		return envelope.Fail(http.StatusUnprocessableEntity, MsgRefundKeyUsed, envelope.FieldError{Field: idempotency.Header, Message: MsgRefundKeyUsed})
	case errors.Is(err, refunds.ErrUnavailable):
		c.Logger().Warn(err)
		return envelope.Fail(http.StatusBadGateway, MsgRefundDown)
	case errors.Is(err, refunds.ErrFailed):
		return envelope.Fail(http.StatusConflict, "The payment gateway refused the refund: "+strings.TrimSuffix(rf.Message, ".")+".")
	case err != nil:
		return err
	}
	return s.answer(c, sc, id, "Refunded "+rf.Amount().String()+".")
}
