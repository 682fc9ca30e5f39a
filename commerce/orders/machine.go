package orders

import (
	"errors"
	"fmt"
	"strings"
)

// State is an order status, as the platform enumerates them.
type State string

// The order statuses.
const (
	Draft          State = "draft"
	PendingPayment State = "pending_payment"
	Pending        State = "pending"
	Reviewing      State = "reviewing"
	Designing      State = "designing"
	OnHold         State = "on_hold"
	Processing     State = "processing"
	Completed      State = "completed"
	Cancelled      State = "cancelled"
	Refunded       State = "refunded"
	Archived       State = "archived"
	Deleted        State = "deleted"
)

// States lists every order status.
var States = []State{Archived, Cancelled, Completed, Deleted, Draft, OnHold, Pending, PendingPayment, Processing,
	Refunded, Reviewing, Designing}

// Action names a transition, as the API offers it.
type Action string

// The actions on an order.
const (
	ActionSubmit   Action = "submit"  // a draft awaits payment
	ActionPay      Action = "pay"     // payment arrived
	ActionReview   Action = "review"  // an item needs a designer's check
	ActionDesign   Action = "design"  // a designer reworks the print file
	ActionApprove  Action = "approve" // print files are good: produce
	ActionProcess  Action = "process" // produce without a review
	ActionHold     Action = "hold"
	ActionRelease  Action = "release"
	ActionComplete Action = "complete"
	ActionCancel   Action = "cancel"
	ActionRefund   Action = "refund"   // money goes back, all or part; the status stays
	ActionRefunded Action = "refunded" // every payment is back: the order is refunded
	ActionShip     Action = "ship"     // items leave with tracking (or their tracking changes)
	ActionDeliver  Action = "deliver"  // the carrier delivered what shipped
	ActionArchive  Action = "archive"
	ActionDelete   Action = "delete"
	// ActionUpdateAddress replaces the shipping address; the status stays. Only before production.
	ActionUpdateAddress Action = "update_address"
)

// Snapshot is what guards look at: the order's three statuses.
type Snapshot struct {
	Status            State
	PaymentStatus     PaymentStatus
	FulfillmentStatus FulfillmentStatus
}

// Transition is one allowed move from a state; Guard, when set, says why it cannot happen now.
type Transition struct {
	Action Action
	To     State
	Guard  func(Snapshot) error
}

// ErrRefused: the action is not allowed from the order's status, or its guard refuses it now.
var ErrRefused = errors.New("action not allowed")

// paid: the money was taken (a part given back since still counts: the rest pays for the order).
func paid(s Snapshot) error {
	switch s.PaymentStatus {
	case PaymentPaid, PaymentAuthorized, PaymentPartiallyRefunded:
		return nil
	}
	return fmt.Errorf("the order is not paid (payment status %s)", s.PaymentStatus)
}

// addressValid: the shipping address passes the country rules (fulfilment status not invalid).
func addressValid(s Snapshot) error {
	if s.FulfillmentStatus == FulfillmentInvalid {
		return errors.New("the shipping address is invalid: fix it first")
	}
	return nil
}

// both passes when every guard does, answering the first refusal.
func both(gs ...func(Snapshot) error) func(Snapshot) error {
	return func(s Snapshot) error {
		for _, g := range gs {
			if err := g(s); err != nil {
				return err
			}
		}
		return nil
	}
}

func notShipped(s Snapshot) error {
	switch s.FulfillmentStatus {
	case FulfillmentFulfilled, FulfillmentPartial:
		return fmt.Errorf("items have shipped (fulfilment status %s)", s.FulfillmentStatus)
	}
	return nil
}

func fulfilled(s Snapshot) error {
	if s.FulfillmentStatus != FulfillmentFulfilled {
		return fmt.Errorf("not every item has shipped (fulfilment status %s)", s.FulfillmentStatus)
	}
	return nil
}

func refunded(s Snapshot) error {
	if s.PaymentStatus != PaymentRefunded {
		return fmt.Errorf("the payment is not fully refunded (payment status %s)", s.PaymentStatus)
	}
	return nil
}

// refundable: some money taken is not given back yet.
func refundable(s Snapshot) error {
	switch s.PaymentStatus {
	case PaymentPaid, PaymentPartiallyPaid, PaymentPartiallyRefunded:
		return nil
	}
	return fmt.Errorf("there is no payment left to refund (payment status %s)", s.PaymentStatus)
}

// shipped: some item has left.
func shipped(s Snapshot) error {
	switch s.FulfillmentStatus {
	case FulfillmentFulfilled, FulfillmentPartial:
		return nil
	}
	return fmt.Errorf("nothing has shipped yet (fulfilment status %s)", s.FulfillmentStatus)
}

func unpaid(s Snapshot) error {
	switch s.PaymentStatus {
	case PaymentPaid, PaymentAuthorized, PaymentPartiallyPaid, PaymentPartiallyRefunded:
		return fmt.Errorf("money was taken (payment status %s): refund it first", s.PaymentStatus)
	}
	return nil
}

// transitions is the order status machine: every move an order can make, from where, and when.
// refund, ship, deliver and update_address may leave the status where it is (their event is still
// written); an order whose money is all back moves to refunded by the system's "refunded". The
// address can change until production starts; an order whose address fails the country rules is not
// produced or shipped until it is fixed.
var transitions = map[State][]Transition{
	Draft: {
		{ActionSubmit, PendingPayment, nil},
		{ActionCancel, Cancelled, nil},
		{ActionDelete, Deleted, unpaid},
		{ActionUpdateAddress, Draft, nil},
	},
	PendingPayment: {
		{ActionPay, Pending, paid},
		{ActionCancel, Cancelled, unpaid},
		{ActionUpdateAddress, PendingPayment, nil},
	},
	Pending: {
		{ActionReview, Reviewing, nil},
		{ActionProcess, Processing, both(paid, addressValid)},
		{ActionHold, OnHold, nil},
		{ActionCancel, Cancelled, notShipped},
		{ActionShip, Processing, both(paid, addressValid)},
		{ActionRefund, Pending, refundable},
		{ActionRefunded, Refunded, refunded},
		{ActionUpdateAddress, Pending, nil},
	},
	Reviewing: {
		{ActionDesign, Designing, nil},
		{ActionApprove, Processing, both(paid, addressValid)},
		{ActionHold, OnHold, nil},
		{ActionCancel, Cancelled, notShipped},
		{ActionRefund, Reviewing, refundable},
		{ActionRefunded, Refunded, refunded},
		{ActionUpdateAddress, Reviewing, nil},
	},
	Designing: {
		{ActionReview, Reviewing, nil},
		{ActionHold, OnHold, nil},
		{ActionCancel, Cancelled, notShipped},
		{ActionRefund, Designing, refundable},
		{ActionRefunded, Refunded, refunded},
		{ActionUpdateAddress, Designing, nil},
	},
	OnHold: {
		{ActionRelease, Pending, nil},
		{ActionCancel, Cancelled, notShipped},
		{ActionRefund, OnHold, refundable},
		{ActionRefunded, Refunded, refunded},
		{ActionUpdateAddress, OnHold, nil},
	},
	Processing: {
		{ActionComplete, Completed, fulfilled},
		{ActionHold, OnHold, notShipped},
		{ActionShip, Processing, paid},
		{ActionDeliver, Processing, shipped},
		{ActionRefund, Processing, refundable},
		{ActionRefunded, Refunded, refunded},
	},
	Completed: {
		{ActionShip, Completed, nil},
		{ActionDeliver, Completed, shipped},
		{ActionRefund, Completed, refundable},
		{ActionRefunded, Refunded, refunded},
		{ActionArchive, Archived, nil},
	},
	Cancelled: {
		{ActionRefund, Cancelled, refundable},
		{ActionRefunded, Refunded, refunded},
		{ActionArchive, Archived, nil},
		{ActionDelete, Deleted, unpaid},
	},
	Refunded: {
		{ActionArchive, Archived, nil},
	},
	Archived: {},
	Deleted:  {},
}

// Next is where action a takes an order in snapshot s, or why it cannot (wrapping ErrRefused).
func Next(s Snapshot, a Action) (State, error) {
	for _, t := range transitions[s.Status] {
		if t.Action != a {
			continue
		}
		if t.Guard != nil {
			if err := t.Guard(s); err != nil {
				return "", fmt.Errorf("%w: %s from %s: %w", ErrRefused, a, s.Status, err)
			}
		}
		return t.To, nil
	}
	return "", fmt.Errorf("%w: %s from %s: not possible once the order is %s", ErrRefused, a, s.Status,
		strings.ReplaceAll(string(s.Status), "_", " "))
}

// AllowedActions lists the actions whose guards pass now, in table order: what the API offers.
func AllowedActions(s Snapshot) []Action {
	out := []Action{}
	for _, t := range transitions[s.Status] {
		if t.Guard == nil || t.Guard(s) == nil {
			out = append(out, t.Action)
		}
	}
	return out
}
