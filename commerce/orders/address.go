package orders

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// AddressProblem is a field of a shipping address the country rules refuse, with why.
type AddressProblem struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// CheckedAddress stores the country rules' verdict on order id's shipping address in tx (no
// problems: it passes) and derives the statuses again: an order whose address fails and has not
// shipped is fulfilment status invalid and waits for the seller, who is told once when it becomes so.
// Whoever creates or imports an order calls it with checkout.AddressProblems' answer.
func CheckedAddress(ctx context.Context, tx *sqlx.Tx, id int64, problems []AddressProblem) error {
	before, err := Load(ctx, tx, id)
	if err != nil {
		return err
	}
	verdict := any(nil)
	if len(problems) > 0 {
		b, err := json.Marshal(problems)
		if err != nil {
			return err
		}
		verdict = string(b)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE orders SET address_errors = $2, updated_at = now() WHERE id = $1`, id, verdict); err != nil {
		return fmt.Errorf("address verdict: %w", err)
	}
	now, err := Refresh(ctx, tx, id)
	if err != nil {
		return err
	}
	if now.FulfillmentStatus != FulfillmentInvalid || before.FulfillmentStatus == FulfillmentInvalid {
		return nil
	}
	return notifyAboutOrder(ctx, tx, id, "has an invalid address",
		"will not be produced until its shipping address is fixed: "+problems[0].Message)
}

// UpdateAddress replaces order id's shipping address (and the buyer's name it ships to) in tx, the
// order's row locked, with an update_address event saying who and what: addr must have passed the
// country rules. The table allows it until production starts; a refusal wraps ErrRefused and
// changes nothing. An order that waited on its invalid address resumes (its fulfilment status is
// derived again).
func UpdateAddress(ctx context.Context, tx *sqlx.Tx, id int64, addr json.RawMessage, name, actor, note string) (State, error) {
	s, err := Load(ctx, tx, id)
	if err != nil {
		return "", err
	}
	if _, err := Next(s, ActionUpdateAddress); err != nil {
		return "", err
	}
	const q = `UPDATE orders SET shipping_address = $2, customer_name = $3, updated_at = now() WHERE id = $1`
	if _, err := tx.ExecContext(ctx, q, id, string(addr), name); err != nil {
		return "", fmt.Errorf("update address: %w", err)
	}
	if err := CheckedAddress(ctx, tx, id, nil); err != nil {
		return "", err
	}
	return Apply(ctx, tx, id, ActionUpdateAddress, actor, note)
}
