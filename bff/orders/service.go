package orders

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/commerce/orders"
	"github.com/pressroom/pressroom/commerce/refunds"
	"github.com/pressroom/pressroom/platform/blob"
)

// Deps are what the orders routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
	// Refunds sends refunds through the gateway of the order's payment.
	Refunds *refunds.Service
	// Blob holds the print files the production batch downloads.
	Blob blob.Store
}

// Service answers the orders screens.
type Service struct {
	d     Deps
	store store
}

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil || d.Refunds == nil || d.Blob == nil {
		return nil, errors.New("orders: database, auth, refunds and the blob store are required")
	}
	return &Service{d: d, store: store{db: d.DB}}, nil
}

// Every orders endpoint needs get_orders.
var need = access.Permitted(access.GetOrders)

// Routes lists the orders endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/seller/orders", need, s.handleList)
	a.Handle(g, http.MethodGet, "/seller/orders/export.csv", need, s.handleExport)
	a.Handle(g, http.MethodGet, "/seller/orders/:id", need, s.handleGet)
	a.Handle(g, http.MethodPost, "/seller/orders/:id/actions/:action", need, s.handleAction)
	a.Handle(g, http.MethodGet, "/seller/orders/:id/invoice", need, s.handleInvoice)
	a.Handle(g, http.MethodGet, "/seller/orders/:id/invoice.pdf", need, s.handleInvoicePDF)
	a.Handle(g, http.MethodGet, "/admin/production", access.AdminOnly, s.handleQueue)
	a.Handle(g, http.MethodPost, "/admin/production/tracking", access.AdminOnly, s.handleTrackingCSV)
	a.Handle(g, http.MethodGet, "/admin/production/batch.zip", access.AdminOnly, s.handleBatch)
	a.Handle(g, http.MethodPost, "/admin/orders/:id/actions/:action", access.AdminOnly, s.handleProductionAction)
}

// SellerActions are the actions a seller takes from the order's page; the others (pay, review,
// approve, process, complete, refunded) belong to the payment, the designer review, production and
// the system.
var SellerActions = []orders.Action{orders.ActionHold, orders.ActionRelease, orders.ActionCancel, orders.ActionRefund,
	orders.ActionShip, orders.ActionDeliver, orders.ActionArchive, orders.ActionUpdateAddress}

// Messages the screens show.
const (
	MsgOrderNotFound = "Order not found."
	MsgBadAction     = "The action must be hold, release, cancel, refund, ship, deliver, archive or update_address."
)

// scope is whose orders the caller sees (listing.ScopeOf: the account, narrowed by the store filter).
func (s *Service) scope(c echo.Context) (listing.Scope, error) { return listing.ScopeOf(c, s.d.DB) }

func (s *Service) filter(c echo.Context) (Filter, error) {
	now := time.Now()
	return parseFilter(c, auth.Caller(c).User.UTCOffset(now), now)
}

func (s *Service) handleList(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	f, err := s.filter(c)
	if err != nil {
		return err
	}
	sc, err := s.scope(c)
	if err != nil {
		return err
	}
	items, total, err := s.store.list(c.Request().Context(), sc, f, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

// exportHeader is the CSV's first line; money columns are decimals of the order's currency.
var exportHeader = []string{"number", "created_at", "store", "order_type", "email", "customer_name", "status",
	"payment_status", "fulfillment_status", "items", "currency", "subtotal", "shipping", "discount", "tip", "total"}

func (s *Service) handleExport(c echo.Context) error {
	f, err := s.filter(c)
	if err != nil {
		return err
	}
	sc, err := s.scope(c)
	if err != nil {
		return err
	}
	return listing.StreamCSV(c, "orders", exportHeader, func(write func([]string) error) error {
		return s.store.export(c.Request().Context(), sc, f, func(o Order) error {
			return write([]string{o.Number, o.CreatedAt.UTC().Format(time.RFC3339), o.StoreName, o.OrderType,
				o.Email, o.CustomerName, o.Status, o.PaymentStatus, o.FulfillmentStatus, strconv.Itoa(o.Items),
				string(o.Total.Currency), o.Subtotal.Decimal(), o.Shipping.Decimal(), o.Discount.Decimal(), o.Tip.Decimal(),
				o.Total.Decimal()})
		})
	})
}

func (s *Service) detail(ctx context.Context, sc listing.Scope, id int64) (Detail, error) {
	d, err := s.store.detail(ctx, sc, id)
	if errors.Is(err, ErrNotFound) {
		return Detail{}, envelope.Fail(http.StatusNotFound, MsgOrderNotFound)
	} else if err != nil {
		return Detail{}, err
	}
	snap := orders.Snapshot{Status: orders.State(d.Status), PaymentStatus: orders.PaymentStatus(d.PaymentStatus),
		FulfillmentStatus: orders.FulfillmentStatus(d.FulfillmentStatus)}
	d.AllowedActions = []string{}
	for _, a := range orders.AllowedActions(snap) {
		if slices.Contains(SellerActions, a) {
			d.AllowedActions = append(d.AllowedActions, string(a))
		}
	}
	return d, nil
}

func (s *Service) handleGet(c echo.Context) error {
	sc, err := s.scope(c)
	if err != nil {
		return err
	}
	id := envelope.PathID(c)
	if id == 0 {
		return envelope.Fail(http.StatusNotFound, MsgOrderNotFound)
	}
	d, err := s.detail(c.Request().Context(), sc, id)
	if err != nil {
		return err
	}
	return envelope.OK(c, d)
}

// handleAction moves the order by the action in one transaction holding the order's row, so two
// actions sent at once run one after the other and the second is judged on the first's result.
// refund, ship, deliver and update_address read their own bodies (refund.go, ship.go, address.go).
func (s *Service) handleAction(c echo.Context) error {
	sc, err := s.scope(c)
	if err != nil {
		return err
	}
	id := envelope.PathID(c)
	if id == 0 {
		return envelope.Fail(http.StatusNotFound, MsgOrderNotFound)
	}
	a := orders.Action(c.Param("action"))
	if !slices.Contains(SellerActions, a) {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgBadAction, envelope.FieldError{Field: "action", Message: MsgBadAction})
	}
	actor := "user:" + strconv.FormatInt(auth.Caller(c).Person(), 10)
	switch a {
	case orders.ActionRefund:
		return s.refund(c, sc, id, actor)
	case orders.ActionShip, orders.ActionDeliver:
		return s.ship(c, sc, id, a, actor)
	case orders.ActionUpdateAddress:
		return s.updateAddress(c, sc, id, actor)
	}
	var body struct {
		Note string `json:"note"`
	}
	if c.Request().ContentLength != 0 {
		if err := envelope.Bind(c, &body); err != nil {
			return err
		}
	}
	ctx := c.Request().Context()
	err = s.inTx(ctx, sc, id, func(tx *sqlx.Tx) error {
		_, err := orders.Apply(ctx, tx, id, a, actor, strings.TrimSpace(body.Note))
		return err
	})
	if err != nil {
		return err
	}
	return s.answer(c, sc, id, "")
}

// inTx runs fn in a transaction holding order id of the scope, and commits. A missing order answers
// 404, a move the table refuses 409 with the guard's reason.
func (s *Service) inTx(ctx context.Context, sc listing.Scope, id int64, fn func(tx *sqlx.Tx) error) error {
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := s.store.lock(ctx, tx, sc, id); errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgOrderNotFound)
	} else if err != nil {
		return err
	}
	if err := fn(tx); errors.Is(err, orders.ErrRefused) {
		return envelope.Fail(http.StatusConflict, refusal(err))
	} else if err != nil {
		return err
	}
	return tx.Commit()
}

// answer is the order's page, with message when one says what happened.
func (s *Service) answer(c echo.Context, sc listing.Scope, id int64, message string) error {
	d, err := s.detail(c.Request().Context(), sc, id)
	if err != nil {
		return err
	}
	if message != "" {
		return envelope.OKMessage(c, message, d)
	}
	return envelope.OK(c, d)
}

// refusal is the guard's reason in a sentence: "Cannot cancel this order: items have shipped (…)."
func refusal(err error) string {
	msg := strings.TrimPrefix(err.Error(), orders.ErrRefused.Error()+": ")
	return "This action is not possible now: " + msg + "."
}
