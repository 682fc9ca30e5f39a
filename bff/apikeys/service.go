package apikeys

import (
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/livecache"
)

// Deps are what the keys use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
	Log  *slog.Logger
}

// Service keeps the keys and admits them on the public API.
type Service struct {
	d     Deps
	store store
	keys  *livecache.Cache[string, liveKey]
	// uses are the uses waiting for RecordUses, queued while writing (under usesMu) says it runs.
	uses    chan use
	usesMu  sync.RWMutex
	writing bool
}

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil || d.Log == nil {
		return nil, errors.New("apikeys: database, auth and log are required")
	}
	return &Service{d: d, store: store{db: d.DB}, keys: newKeyCache(), uses: make(chan use, useQueue)}, nil
}

// Who may manage keys: the account's owner in their own session. A team member switched into the
// account does not (a key would outlive the membership and its store filter), nor does an admin
// impersonating it create or revoke one.
var (
	needRead   = access.Need{OwnAccount: true}
	needManage = access.Need{OwnAccount: true, NotImpersonating: true}
)

// Routes lists the settings endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/settings/api-keys", needRead, s.handleList)
	a.Handle(g, http.MethodPost, "/settings/api-keys", needManage, s.handleCreate)
	a.Handle(g, http.MethodDelete, "/settings/api-keys/:id", needManage, s.handleRevoke)
}

// MaxActive caps the keys an account holds that still work.
const MaxActive = 20

// maxLifetime caps how far ahead an expiry may be set.
const maxLifetime = 5 * 365 * 24 * time.Hour

// Messages the settings screen shows.
const (
	MsgCreated     = "API key created. Copy the secret now: it is not shown again."
	MsgRevoked     = "API key revoked. Requests made with it are refused from now on."
	MsgKeyNotFound = "API key not found."
	MsgTooMany     = "You have 20 active API keys, the most an account may hold. Revoke one you no longer use first."
)

func (s *Service) handleList(c echo.Context) error {
	keys, err := s.store.list(c.Request().Context(), auth.Caller(c).User.ID)
	if err != nil {
		return err
	}
	if keys == nil {
		keys = []Key{}
	}
	return envelope.OK(c, map[string]any{"keys": keys, "scopes": Scopes})
}

// CreateInput is what the seller sends to create a key.
type CreateInput struct {
	Name     string   `json:"name"`
	Scopes   []string `json:"scopes"`
	TestMode bool     `json:"test_mode"`
	// ExpiresAt is an RFC 3339 time or a date (YYYY-MM-DD, the end of that day in UTC); empty: never.
	ExpiresAt string `json:"expires_at"`
}

// check normalises in and lists every problem; expires is the parsed expiry.
func (in *CreateInput) check(now time.Time) (expires *time.Time, errs []envelope.FieldError) {
	add := func(f, m string) { errs = append(errs, envelope.FieldError{Field: f, Message: m}) }
	in.Name = strings.TrimSpace(in.Name)
	if in.Name == "" {
		add("name", "The name is required.")
	} else if utf8.RuneCountInString(in.Name) > 100 {
		errs = append(errs, envelope.TooLong("name", "name", 100))
	}
	var scopes []string
	for _, sc := range in.Scopes {
		if !slices.Contains(Scopes, sc) {
			add("scopes", "Unknown scope "+sc+": choose from "+strings.Join(Scopes, ", ")+".")
			continue
		}
		if !slices.Contains(scopes, sc) {
			scopes = append(scopes, sc)
		}
	}
	if len(in.Scopes) == 0 {
		add("scopes", "Choose at least one scope.")
	}
	in.Scopes = scopes
	if v := strings.TrimSpace(in.ExpiresAt); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			var d time.Time
			d, err = time.Parse(time.DateOnly, v)
			t = d.Add(24*time.Hour - time.Second)
		}
		switch {
		case err != nil:
			add("expires_at", "The expiry must be a date like 2027-01-31.")
		case !t.After(now):
			add("expires_at", "The expiry must be in the future.")
		case t.After(now.Add(maxLifetime)):
			add("expires_at", "The expiry may be at most five years ahead.")
		default:
			t = t.UTC()
			expires = &t
		}
	}
	return expires, errs
}

func (s *Service) handleCreate(c echo.Context) error {
	var in CreateInput
	if err := envelope.Bind(c, &in); err != nil {
		return err
	}
	expires, errs := in.check(time.Now())
	if len(errs) > 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	id := auth.Caller(c)
	secret, hash := newSecret(in.TestMode)
	key, ok, err := s.store.create(c.Request().Context(), newKey{
		seller: id.User.ID, createdBy: id.Person(), name: in.Name, prefix: secret[:shownPrefix], hash: hash,
		scopes: in.Scopes, testMode: in.TestMode, expiresAt: expires,
	}, MaxActive)
	if err != nil {
		return err
	}
	if !ok {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgTooMany)
	}
	person := id.Person()
	if err := s.d.Auth.Store().Audit(c.Request().Context(), &person, "api_key.created", c.RealIP(),
		map[string]any{"key_id": key.ID, "seller_id": id.User.ID, "scopes": key.Scopes, "test_mode": key.TestMode}); err != nil {
		s.d.Log.Error("audit", "action", "api_key.created", "err", err)
	}
	return envelope.OKMessage(c, MsgCreated, map[string]any{"key": key, "secret": secret})
}

func (s *Service) handleRevoke(c echo.Context) error {
	id := auth.Caller(c)
	key, err := s.store.revoke(c.Request().Context(), id.User.ID, envelope.PathID(c))
	if errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgKeyNotFound)
	}
	if err != nil {
		return err
	}
	// The notification follows the commit, but the key's next request may come first.
	s.keys.Changed("k:" + strconv.FormatInt(key.ID, 10))
	person := id.Person()
	if err := s.d.Auth.Store().Audit(c.Request().Context(), &person, "api_key.revoked", c.RealIP(),
		map[string]any{"key_id": key.ID, "seller_id": id.User.ID}); err != nil {
		s.d.Log.Error("audit", "action", "api_key.revoked", "err", err)
	}
	return envelope.OKMessage(c, MsgRevoked, key)
}
