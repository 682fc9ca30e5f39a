package emailmarketing

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strconv"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/klaviyo"
	"github.com/pressroom/pressroom/platform/outbox"
)

// Need is what every email-marketing route demands: the "email marketing" tag and update_campaign.
var Need = access.Need{Permission: access.UpdateCampaign, Tag: access.TagEmailMarketing}

// Deps are what the email-marketing calls use.
type Deps struct {
	DB    *sqlx.DB
	Auth  *auth.Service
	Relay *outbox.Relay
	// Email is the shared sync configuration: Klaviyo's base URL and the sealing secret.
	Email klaviyo.Config
	// HTTP reaches Klaviyo when a key is checked (nil: a client with a 15 s timeout).
	HTTP *http.Client
	Log  *slog.Logger
}

// Service answers the email-marketing calls.
type Service struct {
	d      Deps
	sealer *klaviyo.Sealer
}

// New checks d and builds the service.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil || d.Relay == nil {
		return nil, errors.New("emailmarketing: DB, Auth and Relay are required")
	}
	sealer, err := d.Email.Sealer()
	if err != nil {
		return nil, err
	}
	if d.HTTP == nil {
		d.HTTP = &http.Client{Timeout: 15e9}
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{d: d, sealer: sealer}, nil
}

// Routes lists the email-marketing endpoints under g (mounted at /api).
// once makes a create safe to repeat (the Idempotency-Key header, see bff/idempotency).
func Routes(g *echo.Group, s *Service, once echo.MiddlewareFunc) {
	a := s.d.Auth
	// The Klaviyo key, the profile sync and sends reach the seller's customers: an impersonating
	// admin is refused them (the guard audits the refusal).
	sensitive := Need
	sensitive.NotImpersonating = true
	a.Handle(g, http.MethodGet, "/seller/email-marketing/stores", Need, s.handleStores)
	a.Handle(g, http.MethodGet, "/seller/store/:store_id/email-marketing-klaviyo", Need, s.handleGetKlaviyo)
	a.Handle(g, http.MethodPut, "/seller/store/:store_id/email-marketing-klaviyo", sensitive, s.handlePutKlaviyo)
	a.Handle(g, http.MethodPost, "/seller/store/:store_id/email-marketing-klaviyo/sync-profiles", sensitive, s.handleSync)
	a.Handle(g, http.MethodGet, "/seller/store/:store_id/email-marketing-klaviyo/sync-profiles", sensitive, s.handleSyncProgress)

	a.Handle(g, http.MethodGet, "/seller/email-marketing/domains", Need, s.handleDomains)
	a.Handle(g, http.MethodGet, "/seller/email-marketing/senders", Need, s.handleSenders)
	a.Handle(g, http.MethodPost, "/seller/email-marketing/senders", Need, s.handleCreateSender, once)
	a.Handle(g, http.MethodGet, "/seller/email-marketing/senders/:id", Need, s.handleSender)
	a.Handle(g, http.MethodPatch, "/seller/email-marketing/senders/:id", Need, s.handleUpdateSender)
	a.Handle(g, http.MethodDelete, "/seller/email-marketing/senders/:id", Need, s.handleDeleteSender)
	a.Handle(g, http.MethodGet, "/seller/email-marketing/senders/:id/status", Need, s.handleSenderStatus)

	a.Handle(g, http.MethodGet, "/seller/email-marketing/subscribers", Need, s.handleSubscribers)
	a.Handle(g, http.MethodPost, "/seller/email-marketing/subscribers/import", Need, s.handleImport, once)
	a.Handle(g, http.MethodPost, "/seller/email-marketing/subscribers/:id/unsubscribe", Need, s.handleUnsubscribe)

	a.Handle(g, http.MethodGet, "/seller/email-marketing/campaigns", Need, s.handleCampaigns)
	a.Handle(g, http.MethodPost, "/seller/email-marketing/campaigns", Need, s.handleCreateCampaign, once)
	a.Handle(g, http.MethodGet, "/seller/email-marketing/merge-fields", Need, s.handleMergeFields)
	a.Handle(g, http.MethodPost, "/seller/email-marketing/campaigns/preview", Need, s.handlePreview)
	a.Handle(g, http.MethodGet, "/seller/email-marketing/campaigns/:id", Need, s.handleCampaign)
	a.Handle(g, http.MethodPut, "/seller/email-marketing/campaigns/:id", Need, s.handleUpdateCampaign)
	a.Handle(g, http.MethodDelete, "/seller/email-marketing/campaigns/:id", Need, s.handleDeleteCampaign)
	a.Handle(g, http.MethodPost, "/seller/email-marketing/campaigns/:id/test", sensitive, s.handleTestCampaign)
	a.Handle(g, http.MethodPost, "/seller/email-marketing/campaigns/:id/send", sensitive, s.handleSendCampaign)
	a.Handle(g, http.MethodGet, "/seller/store/:store_id/email-marketing-abandoned", Need, s.handleGetAbandoned)
	a.Handle(g, http.MethodPut, "/seller/store/:store_id/email-marketing-abandoned", Need, s.handlePutAbandoned)
	a.Handle(g, http.MethodGet, "/seller/store/:store_id/discount_code", Need, s.handleDiscountCodes)
	a.Handle(g, http.MethodPut, "/seller/abandoned_discount", Need, s.handleAbandonedDiscount)
	a.Handle(g, http.MethodGet, "/public/email-marketing/unsubscribe/:token", access.Anyone, s.handlePublicUnsubscribe)
}

// MsgStoreNotFound answers a store the caller does not own or may not see.
const MsgStoreNotFound = "Store not found."

// Store is one of the account's stores as the email screens list it.
type Store struct {
	ID     int64  `db:"id" json:"id"`
	Name   string `db:"name" json:"name"`
	Domain string `db:"domain" json:"domain"`
}

// stores are the stores of the caller's account it may see (the store filter, docs/team-and-access.md).
func (s *Service) stores(ctx context.Context, c echo.Context) ([]Store, error) {
	id := auth.Caller(c)
	var all []Store
	if err := s.d.DB.SelectContext(ctx, &all, `SELECT id, name, domain FROM stores WHERE owner_id = $1 ORDER BY id`, id.User.ID); err != nil {
		return nil, err
	}
	allowed := access.StoreFilter(id.User.Access(), storeIDs(all))
	out := []Store{}
	for _, st := range all {
		if slices.Contains(allowed, st.ID) {
			out = append(out, st)
		}
	}
	return out, nil
}

func storeIDs(stores []Store) []int64 {
	ids := make([]int64, len(stores))
	for i, st := range stores {
		ids[i] = st.ID
	}
	return ids
}

// store is the caller's store named by the store_id path parameter, or a 404.
func (s *Service) store(c echo.Context, raw string) (Store, error) {
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		return Store{}, envelope.Fail(http.StatusNotFound, MsgStoreNotFound)
	}
	stores, err := s.stores(c.Request().Context(), c)
	if err != nil {
		return Store{}, err
	}
	return storeIn(stores, id)
}

// storeIn is store id among stores, or a 404.
func storeIn(stores []Store, id int64) (Store, error) {
	for _, st := range stores {
		if st.ID == id {
			return st, nil
		}
	}
	return Store{}, envelope.Fail(http.StatusNotFound, MsgStoreNotFound)
}

func (s *Service) handleStores(c echo.Context) error {
	stores, err := s.stores(c.Request().Context(), c)
	if err != nil {
		return err
	}
	return envelope.OK(c, stores)
}

// pathID reads a positive id path parameter (anything else is notFound) and the ids of the
// caller's stores, which the row it names must belong to.
func (s *Service) pathID(c echo.Context, notFound string) (int64, []int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, nil, envelope.Fail(http.StatusNotFound, notFound)
	}
	stores, err := s.stores(c.Request().Context(), c)
	if err != nil {
		return 0, nil, err
	}
	return id, storeIDs(stores), nil
}

// isNoRows reports a missing row.
func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
