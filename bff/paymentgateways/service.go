package paymentgateways

import (
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/gateways"
	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/platform/seal"
)

// Deps are what the gateway routes use.
type Deps struct {
	Config Config
	DB     *sqlx.DB
	Auth   *auth.Service
	// Box seals the keys (PRESSROOM_PAYMENT_SECRET_KEY); Gateways checks them against Stripe and
	// opens stored ones.
	Box      *seal.Box
	Gateways *gateways.Resolver
	Log      *slog.Logger
}

// Service answers the payment gateway screens.
type Service struct {
	d     Deps
	store store
}

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil || d.Box == nil || d.Gateways == nil || d.Log == nil {
		return nil, errors.New("paymentgateways: database, auth, sealing box, gateways and logger are required")
	}
	if err := d.Config.Validate(); err != nil {
		return nil, err
	}
	return &Service{d: d, store: store{db: d.DB}}, nil
}

// Payment Gateways is for accounts with custom payment (docs/payments.md): seeing them needs get_payments,
// connecting, changing and deleting them update_payments, the permission of payment settings.
var (
	needRead  = access.Need{Permission: access.GetPayments, CustomPayment: true}
	needWrite = access.Need{Permission: access.UpdatePayments, CustomPayment: true}
)

// Routes lists the gateway endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service, once echo.MiddlewareFunc) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/seller/payment-gateways", needRead, s.handleList)
	a.Handle(g, http.MethodPost, "/seller/payment-gateways", needWrite, s.handleCreate, once)
	a.Handle(g, http.MethodGet, "/seller/payment-gateways/stores", needRead, s.handleStores)
	a.Handle(g, http.MethodGet, "/seller/payment-gateways/setup", needRead, s.handleSetup)
	a.Handle(g, http.MethodGet, "/seller/payment-gateways/:id", needRead, s.handleGet)
	a.Handle(g, http.MethodPut, "/seller/payment-gateways/:id", needWrite, s.handleUpdate)
	a.Handle(g, http.MethodDelete, "/seller/payment-gateways/:id", needWrite, s.handleDelete)
}

func seller(c echo.Context) int64 { return auth.Caller(c).User.ID }

func notFound() error { return envelope.Fail(http.StatusNotFound, MsgNotFound) }

// visible are the caller's stores the store filter lets them see.
func (s *Service) visible(c echo.Context) ([]int64, error) {
	ids, err := s.store.storeIDs(c.Request().Context(), seller(c))
	if err != nil {
		return nil, err
	}
	return access.StoreFilter(auth.Caller(c).User.Access(), ids), nil
}

// webhookURL is where Stripe is to send the events of the seller's accounts.
func (s *Service) webhookURL(seller int64) string {
	return s.d.Config.StorefrontURL + gateways.WebhookPath(seller)
}

// withURL fills in the webhook endpoint Stripe is to call.
func (s *Service) withURL(g Gateway, seller int64) Gateway {
	g.WebhookURL = s.webhookURL(seller)
	return g
}

// Setup is what the seller sets up in Stripe's dashboard before connecting: the webhook endpoint
// and the events it must send.
type Setup struct {
	WebhookURL string   `json:"webhook_url"`
	Events     []string `json:"events"`
}

func (s *Service) handleSetup(c echo.Context) error {
	return envelope.OK(c, Setup{WebhookURL: s.webhookURL(seller(c)), Events: []string{"payment_intent.succeeded", "payment_intent.payment_failed"}})
}

func (s *Service) handleList(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	visible, err := s.visible(c)
	if err != nil {
		return err
	}
	items, total, err := s.store.list(c.Request().Context(), seller(c), visible, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	for i := range items {
		items[i] = s.withURL(items[i], seller(c))
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

func (s *Service) handleStores(c echo.Context) error {
	visible, err := s.visible(c)
	if err != nil {
		return err
	}
	opts, err := s.store.storeOptions(c.Request().Context(), seller(c), visible)
	if err != nil {
		return err
	}
	return envelope.OK(c, opts)
}

func (s *Service) gateway(c echo.Context, id int64) (Gateway, error) {
	visible, err := s.visible(c)
	if err != nil {
		return Gateway{}, err
	}
	g, err := s.store.get(c.Request().Context(), seller(c), visible, id)
	if errors.Is(err, ErrNotFound) {
		return Gateway{}, notFound()
	}
	return s.withURL(g, seller(c)), err
}

func (s *Service) handleGet(c echo.Context) error {
	g, err := s.gateway(c, envelope.PathID(c))
	if err != nil {
		return err
	}
	return envelope.OK(c, g)
}

func (s *Service) handleCreate(c echo.Context) error { return s.save(c, nil) }

func (s *Service) handleUpdate(c echo.Context) error {
	old, err := s.gateway(c, envelope.PathID(c))
	if err != nil {
		return err
	}
	return s.save(c, &old)
}

// save checks the form (every problem at once, by field), then the keys against Stripe, and only
// then stores anything. On an update, new keys must be of the gateway's Stripe account.
func (s *Service) save(c echo.Context, old *Gateway) error {
	var in Input
	if err := envelope.Bind(c, &in); err != nil {
		return err
	}
	errs := in.check(old)
	visible, err := s.visible(c)
	if err != nil {
		return err
	}
	for _, id := range in.StoreIDs {
		if !slices.Contains(visible, id) {
			errs = append(errs, envelope.FieldError{Field: "store_ids", Message: MsgStores})
			break
		}
	}
	if len(errs) > 0 {
		return invalid(errs...)
	}
	ctx := c.Request().Context()
	keys := gateways.Keys{SecretKey: in.SecretKey, PublishableKey: in.PublishableKey, WebhookSecret: in.WebhookSecret}
	if old != nil {
		if keeps(in.SecretKey, old.SecretKey) {
			keys.SecretKey = ""
		}
		if keeps(in.WebhookSecret, old.WebhookSecret) {
			keys.WebhookSecret = ""
		}
	}
	var account string
	if keys.SecretKey != "" {
		if account, err = s.check(c, keys.SecretKey); err != nil {
			return err
		}
		if old != nil && account != old.AccountID {
			return invalid(envelope.FieldError{Field: "secret_key", Message: MsgOtherAccount})
		}
		if old == nil {
			if name, err := s.store.connected(ctx, seller(c), account); err != nil {
				return err
			} else if name != "" {
				msg := "This Stripe account is already connected as “" + name + "”. Choose its stores there."
				return invalid(envelope.FieldError{Field: "secret_key", Message: msg})
			}
		}
	}
	id := int64(0)
	if old != nil {
		id = old.ID
	}
	caller := auth.Caller(c)
	id, err = s.store.save(ctx, s.d.Box, id, saved{Seller: caller.User.ID, Actor: caller.Person(), In: in, Keys: keys,
		AccountID: account, Visible: visible})
	if errors.Is(err, ErrNotFound) {
		return notFound()
	} else if err != nil {
		return err
	}
	g, err := s.gateway(c, id)
	if err != nil {
		return err
	}
	if old == nil {
		return c.JSON(http.StatusCreated, envelope.Response{Success: true, Message: MsgCreated, Data: g, Errors: []envelope.FieldError{}})
	}
	return envelope.OKMessage(c, MsgSaved, g)
}

// check asks Stripe whose the secret key is: a refusal is a 422 on secret_key with Stripe's reason,
// no answer a 502; nothing is stored either way.
func (s *Service) check(c echo.Context, secretKey string) (string, error) {
	account, err := s.d.Gateways.Check(c.Request().Context(), secretKey)
	switch {
	case errors.Is(err, payments.ErrKeyRefused):
		msg := "Stripe refused the secret key: " + strings.TrimSuffix(strings.TrimPrefix(err.Error(), payments.ErrKeyRefused.Error()+": "), ".") + "."
		return "", invalid(envelope.FieldError{Field: "secret_key", Message: msg})
	case err != nil:
		s.d.Log.Warn("stripe key check failed", "err", err)
		return "", envelope.Fail(http.StatusBadGateway, MsgUnreachable)
	}
	return account, nil
}

func (s *Service) handleDelete(c echo.Context) error {
	retired, err := s.store.remove(c.Request().Context(), seller(c), envelope.PathID(c))
	if errors.Is(err, ErrNotFound) {
		return notFound()
	} else if err != nil {
		return err
	}
	if retired {
		return envelope.OKMessage(c, MsgRetired, nil)
	}
	return envelope.OKMessage(c, MsgRemoved, nil)
}
