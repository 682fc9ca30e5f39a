package orders

// PaymentStatus is an order's payment status, derived by DerivePayment.
type PaymentStatus string

// The payment statuses.
const (
	PaymentUnpaid            PaymentStatus = "unpaid"
	PaymentPaid              PaymentStatus = "paid"
	PaymentPartiallyPaid     PaymentStatus = "partially_paid"
	PaymentRefunded          PaymentStatus = "refunded"
	PaymentPartiallyRefunded PaymentStatus = "partially_refunded"
	PaymentAuthorized        PaymentStatus = "authorized"
	PaymentPending           PaymentStatus = "pending"
	PaymentFailed            PaymentStatus = "failed"
	PaymentCanceled          PaymentStatus = "canceled"
)

// FulfillmentStatus is an order's fulfilment status, derived by DeriveFulfillment.
type FulfillmentStatus string

// The fulfilment statuses this package derives (the platform knows more, set by fulfilment partners).
const (
	FulfillmentUnfulfilled FulfillmentStatus = "unfulfilled"
	FulfillmentPartial     FulfillmentStatus = "partial_fulfilled"
	FulfillmentFulfilled   FulfillmentStatus = "fulfilled"
	// FulfillmentInvalid: nothing has shipped and the shipping address fails the country rules; the
	// order is not produced until the seller fixes it.
	FulfillmentInvalid FulfillmentStatus = "invalid"
)

// PaymentFacts are an order's payments summed by their status, and its refunds, in minor units.
type PaymentFacts struct {
	Total      int64 // the order's total
	Succeeded  int64
	Authorized int64
	Pending    int64
	Failed     int // count of failed payments
	Canceled   int // count of canceled payments
	Refunded   int64
}

// DerivePayment computes the payment status from the payments and refunds of an order.
func DerivePayment(f PaymentFacts) PaymentStatus {
	switch {
	case f.Refunded > 0 && f.Refunded >= f.Succeeded:
		return PaymentRefunded
	case f.Refunded > 0:
		return PaymentPartiallyRefunded
	case f.Succeeded > 0 && f.Succeeded >= f.Total:
		return PaymentPaid
	case f.Succeeded > 0:
		return PaymentPartiallyPaid
	case f.Authorized > 0:
		return PaymentAuthorized
	case f.Pending > 0:
		return PaymentPending
	case f.Failed > 0:
		return PaymentFailed
	case f.Canceled > 0:
		return PaymentCanceled
	}
	return PaymentUnpaid
}

// DeriveFulfillment computes the fulfilment status from how many of an order's items have shipped
// and whether its shipping address fails the country rules (which matters only while nothing has
// shipped: a parcel on its way has an address that worked).
func DeriveFulfillment(items, shipped int, badAddress bool) FulfillmentStatus {
	switch {
	case items > 0 && shipped >= items:
		return FulfillmentFulfilled
	case shipped > 0:
		return FulfillmentPartial
	case badAddress:
		return FulfillmentInvalid
	}
	return FulfillmentUnfulfilled
}

// PaymentStatuses lists every payment status, as list filters offer them.
var PaymentStatuses = []PaymentStatus{PaymentUnpaid, PaymentPaid, PaymentPartiallyPaid, PaymentRefunded,
	PaymentPartiallyRefunded, PaymentAuthorized, PaymentPending, PaymentFailed, PaymentCanceled}

// FulfillmentStatuses lists every fulfilment status the platform knows (the orders table's check),
// the three this package derives and those fulfilment partners set.
var FulfillmentStatuses = []FulfillmentStatus{FulfillmentUnfulfilled, FulfillmentFulfilled, FulfillmentPartial,
	"cancelled", "on_hold", "processing", FulfillmentInvalid, "rejected", "reviewing", "designing", "on_delivery"}

// OrderTypes lists the kinds of order: from a store (regular), produced for another channel
// (fulfillment), entered by hand (custom) and sent to Amazon's warehouses (fba).
var OrderTypes = []string{"regular", "fulfillment", "custom", "fba"}
