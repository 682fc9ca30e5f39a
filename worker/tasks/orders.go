package tasks

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
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

// TypeDeliveryMail mails an order's buyer that items arrived, with a link to review each.
const TypeDeliveryMail = "orders:delivery-mail"

// DeliveryMailPayload is what a delivery mail carries: the order and the items just delivered.
type DeliveryMailPayload struct {
	OrderID int64   `json:"order_id"`
	ItemIDs []int64 `json:"item_ids"`
}

// NewDeliveryMailJob builds the delivery mail of items of order id. Items are delivered once (a
// delivery only stamps items without a time), so the task id, the order and its items, announces
// each delivery once.
func NewDeliveryMailJob(orderID int64, itemIDs []int64) (queue.Job, error) {
	ids := slices.Sorted(slices.Values(itemIDs))
	var key strings.Builder
	for _, id := range ids {
		key.WriteString(strconv.FormatInt(id, 10) + ",")
	}
	sum := sha256.Sum256([]byte(key.String()))
	return queue.NewJob(queue.Job{
		Type: TypeDeliveryMail, Queue: queue.Name(queue.Worker, queue.Default),
		TaskID:   "delivery-mail-" + strconv.FormatInt(orderID, 10) + "-" + hex.EncodeToString(sum[:8]),
		MaxRetry: 10, Timeout: time.Minute,
	}, DeliveryMailPayload{OrderID: orderID, ItemIDs: ids})
}
