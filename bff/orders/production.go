package orders

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/commerce/orders"
)

// Messages of production.
const (
	MsgBadProductionAction = "The action must be produce, ship or deliver."
	MsgProduced            = "In production."
	MsgCSVFile             = "Send a CSV with the columns order_number, carrier, tracking_number and optionally tracking_url."
	MsgCSVTooMany          = "The CSV file has more than 5000 rows: split it."
)

// maxTrackingRows caps a tracking CSV.
const maxTrackingRows = 5000

// QueueItem is an item ready to print: its order is paid and in production or waiting for it, every
// print file of the item is approved, and it has not shipped.
type QueueItem struct {
	OrderID     int64     `db:"order_id" json:"order_id"`
	OrderNumber string    `db:"order_number" json:"order_number"`
	OrderStatus string    `db:"order_status" json:"order_status"`
	SellerName  string    `db:"seller_name" json:"seller_name"`
	ItemID      int64     `db:"item_id" json:"item_id"`
	ProductName string    `db:"product_name" json:"product_name"`
	Color       string    `db:"color" json:"color"`
	Size        string    `db:"size" json:"size"`
	Quantity    int       `db:"quantity" json:"quantity"`
	PrintFiles  int       `db:"print_files" json:"print_files"`
	PaidAt      time.Time `db:"created_at" json:"created_at"`
}

const qQueueFrom = `
FROM order_items i JOIN orders o ON o.id = i.order_id JOIN users u ON u.id = o.seller_id
WHERE o.status IN ('pending', 'processing') AND o.payment_status IN ('paid', 'partially_refunded') AND o.fulfillment_status <> 'invalid'
	AND NOT EXISTS (SELECT 1 FROM shipments sh WHERE sh.order_item_id = i.id)
	AND EXISTS (SELECT 1 FROM design_order_items di WHERE di.order_item_id = i.id)
	AND NOT EXISTS (SELECT 1 FROM design_order_items di WHERE di.order_item_id = i.id AND di.status <> 'approved')`

const (
	qQueue = `SELECT o.id AS order_id, o.number AS order_number, o.status AS order_status, u.name AS seller_name,
	i.id AS item_id, i.product_name, i.color, i.size, i.quantity, o.created_at,
	(SELECT count(*) FROM design_order_items di WHERE di.order_item_id = i.id) AS print_files` + qQueueFrom + `
ORDER BY o.created_at, i.id LIMIT $1 OFFSET $2`
	qQueueCount = `SELECT count(*)` + qQueueFrom
	// qByNumber finds the open orders a tracking CSV's order number may mean.
	qByNumber = `SELECT id FROM orders WHERE number = $1 AND status IN ('pending', 'processing', 'completed') LIMIT 2`
)

func (s *Service) handleQueue(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	items := []QueueItem{}
	if err := s.d.DB.SelectContext(ctx, &items, qQueue, q.PerPage, q.Offset()); err != nil {
		return fmt.Errorf("production queue: %w", err)
	}
	var total int
	if err := s.d.DB.GetContext(ctx, &total, qQueueCount); err != nil {
		return fmt.Errorf("production queue: %w", err)
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

// admin is the actor of an admin's step.
func admin(c echo.Context) string {
	return "user:" + strconv.FormatInt(auth.Caller(c).Person(), 10)
}

// handleProductionAction runs a production step on any seller's order.
func (s *Service) handleProductionAction(c echo.Context) error {
	id := envelope.PathID(c)
	if id == 0 {
		return envelope.Fail(http.StatusNotFound, MsgOrderNotFound)
	}
	switch c.Param("action") {
	case "produce":
		ctx := c.Request().Context()
		err := s.inTx(ctx, listing.Scope{}, id, func(tx *sqlx.Tx) error { return produce(ctx, tx, id, admin(c)) })
		if err != nil {
			return err
		}
		return s.answer(c, listing.Scope{}, id, MsgProduced)
	case string(orders.ActionShip):
		return s.ship(c, listing.Scope{}, id, orders.ActionShip, admin(c))
	case string(orders.ActionDeliver):
		return s.ship(c, listing.Scope{}, id, orders.ActionDeliver, admin(c))
	}
	return envelope.Fail(http.StatusUnprocessableEntity, MsgBadProductionAction, envelope.FieldError{Field: "action", Message: MsgBadProductionAction})
}

// produce moves order id into production: "process" from pending, "approve" from reviewing.
func produce(ctx context.Context, tx *sqlx.Tx, id int64, actor string) error {
	s, err := orders.Load(ctx, tx, id)
	if err != nil {
		return err
	}
	a := orders.ActionProcess
	if s.Status == orders.Reviewing {
		a = orders.ActionApprove
	}
	_, err = orders.Apply(ctx, tx, id, a, actor, "in production")
	return err
}

// TrackingRow is one line of a tracking CSV's report.
type TrackingRow struct {
	Line    int    `json:"line"`
	Order   string `json:"order_number"`
	OK      bool   `json:"ok"`
	Message string `json:"message"`
}

// handleTrackingCSV reads {"csv": "..."}: order_number,carrier,tracking_number[,tracking_url] lines
// (a header line is skipped), and ships each order in its own transaction, answering a line-by-line
// report. An order number several sellers share is refused on its line; "#<id>" names an order by
// its id.
func (s *Service) handleTrackingCSV(c echo.Context) error {
	var body struct {
		CSV string `json:"csv"`
	}
	if err := envelope.Bind(c, &body); err != nil {
		return err
	}
	r := csv.NewReader(strings.NewReader(body.CSV))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	ctx := c.Request().Context()
	report := []TrackingRow{}
	for line := 1; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if len(report) >= maxTrackingRows {
			return envelope.Fail(http.StatusUnprocessableEntity, MsgCSVTooMany, envelope.FieldError{Field: "csv", Message: MsgCSVTooMany})
		}
		row := TrackingRow{Line: line}
		if err != nil {
			row.Message = "This line is not valid CSV."
			report = append(report, row)
			continue
		}
		if line == 1 && len(rec) > 0 && strings.EqualFold(strings.TrimSpace(rec[0]), "order_number") {
			continue
		}
		row.Order = strings.TrimSpace(rec[0])
		row.OK, row.Message = s.trackingLine(ctx, rec, admin(c))
		report = append(report, row)
	}
	if len(report) == 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgCSVFile, envelope.FieldError{Field: "csv", Message: MsgCSVFile})
	}
	return envelope.OK(c, report)
}

// trackingLine ships the order of one CSV line, answering whether it did and what happened.
func (s *Service) trackingLine(ctx context.Context, rec []string, actor string) (bool, string) {
	if len(rec) < 3 {
		return false, "A line needs order_number, carrier and tracking_number."
	}
	in := ParcelInput{Carrier: rec[1], Tracking: rec[2]}
	if len(rec) > 3 {
		in.TrackingURL = rec[3]
	}
	p, err := in.Parcel(true)
	if err != nil {
		var e *envelope.Error
		errors.As(err, &e)
		return false, e.Message
	}
	id, msg := s.orderOfNumber(ctx, strings.TrimSpace(rec[0]))
	if id == 0 {
		return false, msg
	}
	var res orders.Shipped
	err = s.inTx(ctx, listing.Scope{}, id, func(tx *sqlx.Tx) error {
		var err error
		res, err = orders.Ship(ctx, tx, id, p, actor)
		return err
	})
	var e *envelope.Error
	switch {
	case errors.As(err, &e):
		return false, e.Message
	case err != nil:
		return false, "This line could not be saved: try it again."
	case !res.Changed:
		return true, MsgSameTrack
	}
	return true, MsgShipped
}

// orderOfNumber is the order a CSV's order number names, or 0 and why not.
func (s *Service) orderOfNumber(ctx context.Context, number string) (int64, string) {
	if ref, ok := strings.CutPrefix(number, "#"); ok {
		id, err := strconv.ParseInt(ref, 10, 64)
		if err != nil || id <= 0 {
			return 0, "After # comes the order's id."
		}
		return id, ""
	}
	var ids []int64
	if err := s.d.DB.SelectContext(ctx, &ids, qByNumber, number); err != nil {
		return 0, "This line could not be read: try it again."
	}
	switch len(ids) {
	case 0:
		return 0, "No open order has this number."
	case 1:
		return ids[0], ""
	}
	return 0, "Several sellers have an open order with this number: write #<order id> instead."
}
