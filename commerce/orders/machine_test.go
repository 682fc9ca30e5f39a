package orders

import (
	"errors"
	"slices"
	"testing"
)

// want is the order status machine written out a second time, by hand: every allowed move.
var want = map[State]map[Action]State{
	Draft: {ActionSubmit: PendingPayment, ActionCancel: Cancelled, ActionDelete: Deleted,
		ActionUpdateAddress: Draft},
	PendingPayment: {ActionPay: Pending, ActionCancel: Cancelled, ActionUpdateAddress: PendingPayment},
	Pending: {ActionReview: Reviewing, ActionProcess: Processing, ActionHold: OnHold, ActionCancel: Cancelled,
		ActionShip: Processing, ActionRefund: Pending, ActionRefunded: Refunded, ActionUpdateAddress: Pending},
	Reviewing: {ActionDesign: Designing, ActionApprove: Processing, ActionHold: OnHold, ActionCancel: Cancelled,
		ActionRefund: Reviewing, ActionRefunded: Refunded, ActionUpdateAddress: Reviewing},
	Designing: {ActionReview: Reviewing, ActionHold: OnHold, ActionCancel: Cancelled, ActionRefund: Designing,
		ActionRefunded: Refunded, ActionUpdateAddress: Designing},
	OnHold: {ActionRelease: Pending, ActionCancel: Cancelled, ActionRefund: OnHold, ActionRefunded: Refunded,
		ActionUpdateAddress: OnHold},
	Processing: {ActionComplete: Completed, ActionHold: OnHold, ActionShip: Processing, ActionDeliver: Processing,
		ActionRefund: Processing, ActionRefunded: Refunded},
	Completed: {ActionShip: Completed, ActionDeliver: Completed, ActionRefund: Completed, ActionRefunded: Refunded,
		ActionArchive: Archived},
	Cancelled: {ActionRefund: Cancelled, ActionRefunded: Refunded, ActionArchive: Archived, ActionDelete: Deleted},
	Refunded:  {ActionArchive: Archived},
	Archived:  {},
	Deleted:   {},
}

var allActions = []Action{ActionSubmit, ActionPay, ActionReview, ActionDesign, ActionApprove, ActionProcess, ActionHold,
	ActionRelease, ActionComplete, ActionCancel, ActionRefund, ActionRefunded, ActionShip, ActionDeliver, ActionArchive,
	ActionDelete, ActionUpdateAddress}

var payments = []PaymentStatus{PaymentUnpaid, PaymentPaid, PaymentPartiallyPaid, PaymentRefunded, PaymentPartiallyRefunded,
	PaymentAuthorized, PaymentPending, PaymentFailed, PaymentCanceled}

var fulfilments = []FulfillmentStatus{FulfillmentUnfulfilled, FulfillmentPartial, FulfillmentFulfilled, FulfillmentInvalid}

// TestEveryPair walks every status and every action: an allowed pair reaches its status for some
// payment and fulfilment facts (and AllowedActions offers it exactly then); a refused pair is refused
// whatever the facts.
func TestEveryPair(t *testing.T) {
	if len(want) != len(States) {
		t.Fatalf("the expectation covers %d statuses, the enumeration has %d", len(want), len(States))
	}
	for _, from := range States {
		if _, ok := transitions[from]; !ok {
			t.Errorf("status %s has no row in the table", from)
		}
		for _, a := range allActions {
			t.Run(string(from)+"/"+string(a), func(t *testing.T) {
				to, allowed := want[from][a]
				passed := 0
				for _, p := range payments {
					for _, f := range fulfilments {
						s := Snapshot{Status: from, PaymentStatus: p, FulfillmentStatus: f}
						got, err := Next(s, a)
						offered := slices.Contains(AllowedActions(s), a)
						if err == nil {
							passed++
							if !allowed || got != to {
								t.Errorf("%+v: %s went to %s; want refused or %s", s, a, got, to)
							}
						} else if !errors.Is(err, ErrRefused) {
							t.Errorf("%+v: %s failed with %v, not ErrRefused", s, a, err)
						}
						if offered != (err == nil) {
							t.Errorf("%+v: AllowedActions offers %s = %v, Next error %v", s, a, offered, err)
						}
					}
				}
				if allowed && passed == 0 {
					t.Errorf("%s from %s never allowed", a, from)
				}
			})
		}
	}
}

func TestGuards(t *testing.T) {
	cases := []struct {
		name string
		s    Snapshot
		a    Action
		ok   bool
	}{
		{"pay needs money", Snapshot{PendingPayment, PaymentUnpaid, FulfillmentUnfulfilled}, ActionPay, false},
		{"pay when paid", Snapshot{PendingPayment, PaymentPaid, FulfillmentUnfulfilled}, ActionPay, true},
		{"pay when authorized", Snapshot{PendingPayment, PaymentAuthorized, FulfillmentUnfulfilled}, ActionPay, true},
		{"no cancel after shipping", Snapshot{Pending, PaymentPaid, FulfillmentPartial}, ActionCancel, false},
		{"cancel before shipping", Snapshot{Pending, PaymentPaid, FulfillmentUnfulfilled}, ActionCancel, true},
		{"complete needs every item shipped", Snapshot{Processing, PaymentPaid, FulfillmentPartial}, ActionComplete, false},
		{"complete", Snapshot{Processing, PaymentPaid, FulfillmentFulfilled}, ActionComplete, true},
		{"refunded needs the money back", Snapshot{Completed, PaymentPaid, FulfillmentFulfilled}, ActionRefunded, false},
		{"refunded", Snapshot{Completed, PaymentRefunded, FulfillmentFulfilled}, ActionRefunded, true},
		{"refund what was paid", Snapshot{Completed, PaymentPaid, FulfillmentFulfilled}, ActionRefund, true},
		{"refund the rest", Snapshot{Pending, PaymentPartiallyRefunded, FulfillmentUnfulfilled}, ActionRefund, true},
		{"nothing left to refund", Snapshot{Cancelled, PaymentRefunded, FulfillmentUnfulfilled}, ActionRefund, false},
		{"refund needs a payment", Snapshot{Pending, PaymentPending, FulfillmentUnfulfilled}, ActionRefund, false},
		{"ship a paid order", Snapshot{Pending, PaymentPaid, FulfillmentUnfulfilled}, ActionShip, true},
		{"ship a part-refunded order", Snapshot{Processing, PaymentPartiallyRefunded, FulfillmentPartial}, ActionShip, true},
		{"no ship of a cancelled order", Snapshot{Cancelled, PaymentPaid, FulfillmentUnfulfilled}, ActionShip, false},
		{"no ship on hold", Snapshot{OnHold, PaymentPaid, FulfillmentUnfulfilled}, ActionShip, false},
		{"no ship in review", Snapshot{Reviewing, PaymentPaid, FulfillmentUnfulfilled}, ActionShip, false},
		{"deliver needs a shipment", Snapshot{Processing, PaymentPaid, FulfillmentUnfulfilled}, ActionDeliver, false},
		{"deliver", Snapshot{Processing, PaymentPaid, FulfillmentPartial}, ActionDeliver, true},
		{"no delete of a paid order", Snapshot{Cancelled, PaymentPaid, FulfillmentUnfulfilled}, ActionDelete, false},
		{"approve needs payment", Snapshot{Reviewing, PaymentPending, FulfillmentUnfulfilled}, ActionApprove, false},
		{"no ship to an invalid address", Snapshot{Pending, PaymentPaid, FulfillmentInvalid}, ActionShip, false},
		{"no production with an invalid address", Snapshot{Pending, PaymentPaid, FulfillmentInvalid}, ActionProcess, false},
		{"no approval with an invalid address", Snapshot{Reviewing, PaymentPaid, FulfillmentInvalid}, ActionApprove, false},
		{"produce once the address is fixed", Snapshot{Pending, PaymentPaid, FulfillmentUnfulfilled}, ActionProcess, true},
		{"fix an invalid address", Snapshot{Pending, PaymentPaid, FulfillmentInvalid}, ActionUpdateAddress, true},
		{"edit the address on hold", Snapshot{OnHold, PaymentPaid, FulfillmentUnfulfilled}, ActionUpdateAddress, true},
		{"no address edit in production", Snapshot{Processing, PaymentPaid, FulfillmentUnfulfilled}, ActionUpdateAddress, false},
		{"no address edit once shipped", Snapshot{Completed, PaymentPaid, FulfillmentFulfilled}, ActionUpdateAddress, false},
		{"no address edit once cancelled", Snapshot{Cancelled, PaymentPaid, FulfillmentUnfulfilled}, ActionUpdateAddress, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Next(tc.s, tc.a)
			if (err == nil) != tc.ok {
				t.Fatalf("Next(%+v, %s) error %v; want ok=%v", tc.s, tc.a, err, tc.ok)
			}
		})
	}
}

func TestDerive(t *testing.T) {
	cases := []struct {
		name string
		f    PaymentFacts
		want PaymentStatus
	}{
		{"nothing", PaymentFacts{Total: 1000}, PaymentUnpaid},
		{"paid", PaymentFacts{Total: 1000, Succeeded: 1000}, PaymentPaid},
		{"part", PaymentFacts{Total: 1000, Succeeded: 400}, PaymentPartiallyPaid},
		{"authorized", PaymentFacts{Total: 1000, Authorized: 1000}, PaymentAuthorized},
		{"pending", PaymentFacts{Total: 1000, Pending: 1000}, PaymentPending},
		{"failed", PaymentFacts{Total: 1000, Failed: 1}, PaymentFailed},
		{"canceled", PaymentFacts{Total: 1000, Canceled: 1}, PaymentCanceled},
		{"refunded", PaymentFacts{Total: 1000, Succeeded: 1000, Refunded: 1000}, PaymentRefunded},
		{"part refunded", PaymentFacts{Total: 1000, Succeeded: 1000, Refunded: 1}, PaymentPartiallyRefunded},
		{"free order", PaymentFacts{Total: 0, Succeeded: 0}, PaymentUnpaid},
	}
	for _, tc := range cases {
		if got := DerivePayment(tc.f); got != tc.want {
			t.Errorf("%s: DerivePayment = %s, want %s", tc.name, got, tc.want)
		}
	}
	for _, tc := range []struct {
		items, shipped int
		want           FulfillmentStatus
		bad            bool
	}{{2, 0, FulfillmentUnfulfilled, false}, {2, 1, FulfillmentPartial, false}, {2, 2, FulfillmentFulfilled, false},
		{0, 0, FulfillmentUnfulfilled, false}, {2, 0, FulfillmentInvalid, true}, {2, 1, FulfillmentPartial, true},
		{2, 2, FulfillmentFulfilled, true}} {
		if got := DeriveFulfillment(tc.items, tc.shipped, tc.bad); got != tc.want {
			t.Errorf("DeriveFulfillment(%d, %d, %v) = %s, want %s", tc.items, tc.shipped, tc.bad, got, tc.want)
		}
	}
}
