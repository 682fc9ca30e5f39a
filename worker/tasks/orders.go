package tasks

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"

	"github.com/pressroom/pressroom/platform/queue"
)

// TypeShippingMail mails an order's buyer that items shipped, with the tracking link.
const TypeShippingMail = "orders:shipping-mail"

// ShippingMailPayload is what a shipping mail carries: the order and the tracking number shipped.
type ShippingMailPayload struct {
	OrderID  int64  `json:"order_id"`
	Tracking string `json:"tracking"`
}

// NewShippingMailJob builds the shipping mail of order id for one tracking number. The task id is
// the order and the tracking, so one parcel is announced once.
func NewShippingMailJob(orderID int64, tracking string) (queue.Job, error) {
	sum := sha256.Sum256([]byte(tracking))
	return queue.NewJob(queue.Job{
		Type: TypeShippingMail, Queue: queue.Name(queue.Worker, queue.Default),
		TaskID:   "shipping-mail-" + strconv.FormatInt(orderID, 10) + "-" + hex.EncodeToString(sum[:8]),
		MaxRetry: 10, Timeout: time.Minute,
	}, ShippingMailPayload{OrderID: orderID, Tracking: tracking})
}
