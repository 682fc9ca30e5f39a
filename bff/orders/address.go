package orders

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/commerce/checkout"
	"github.com/pressroom/pressroom/commerce/orders"
)

// Messages of the address edit.
const (
	MsgBadAddress     = "Check the shipping address: some fields are not valid for this country."
	MsgAddressUpdated = "Shipping address updated."
)

// updateAddress replaces the order's shipping address with the body's (checkout.Address), after
// the country rules of the checkout pass on it (422 naming every refused field, nothing stored),
// in one transaction holding the order's row: a ship or production step sent at the same time runs
// before (then the edit answers 409) or after (and ships to the new address).
func (s *Service) updateAddress(c echo.Context, sc listing.Scope, id int64, actor string) error {
	var a checkout.Address
	if err := envelope.Bind(c, &a); err != nil {
		return err
	}
	ctx := c.Request().Context()
	problems, err := checkout.AddressProblems(ctx, s.d.DB, &a)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		errs := make([]envelope.FieldError, len(problems))
		for i, p := range problems {
			errs[i] = envelope.FieldError{Field: p.Field, Message: p.Message}
		}
		return envelope.Fail(http.StatusUnprocessableEntity, MsgBadAddress, errs...)
	}
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	note := strings.Join(nonEmpty(a.Name, a.Line1, a.Line2, a.City, a.State, a.PostalCode, a.Country), ", ")
	err = s.inTx(ctx, sc, id, func(tx *sqlx.Tx) error {
		_, err := orders.UpdateAddress(ctx, tx, id, b, a.Name, actor, note)
		return err
	})
	if err != nil {
		return err
	}
	return s.answer(c, sc, id, MsgAddressUpdated)
}

func nonEmpty(parts ...string) []string {
	out := parts[:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}
