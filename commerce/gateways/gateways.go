package gateways

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/platform/seal"
)

// namePrefix starts the name payments rows record for a seller's gateway: "stripe:<id>".
const namePrefix = "stripe:"

// Name is the gateway name payments and their webhook events record for the seller's gateway id.
func Name(id int64) string { return namePrefix + strconv.FormatInt(id, 10) }

// idOf reads a seller gateway's id back from its Name.
func idOf(name string) (int64, bool) {
	rest, ok := strings.CutPrefix(name, namePrefix)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(rest, 10, 64)
	return id, err == nil && id > 0
}

// Gateway is a seller's connected Stripe account: payments through it are paid into that account.
type Gateway struct {
	*payments.Stripe
	ID       int64
	SellerID int64
	// Label is the seller's name for it.
	Label string
}

// Name implements payments.Gateway: payments through seller gateways are told apart by gateway.
func (g *Gateway) Name() string { return Name(g.ID) }

// Keys are what a seller copies from Stripe's dashboard.
type Keys struct {
	SecretKey      string
	PublishableKey string
	WebhookSecret  string
}

// Sealed are Keys' secrets as stored: sealed, and masked for display. A secret not given (kept as
// stored) is nil and "".
type Sealed struct {
	SecretKey     []byte
	SecretHint    string
	WebhookSecret []byte
	WebhookHint   string
}

func secretLabel(id int64) string { return "stripe-secret-key:gateway:" + strconv.FormatInt(id, 10) }
func webhookLabel(id int64) string {
	return "stripe-webhook-secret:gateway:" + strconv.FormatInt(id, 10)
}

// Seal seals the secrets k gives for gateway id (bound to it: a value copied to another gateway
// does not open); an empty one stays nil.
func Seal(box *seal.Box, id int64, k Keys) (Sealed, error) {
	var out Sealed
	var err error
	if k.SecretKey != "" {
		if out.SecretKey, err = box.Seal(secretLabel(id), k.SecretKey); err != nil {
			return Sealed{}, err
		}
		out.SecretHint = MaskSecret(k.SecretKey)
	}
	if k.WebhookSecret != "" {
		if out.WebhookSecret, err = box.Seal(webhookLabel(id), k.WebhookSecret); err != nil {
			return Sealed{}, err
		}
		out.WebhookHint = seal.Mask("whsec_", seal.Last4(k.WebhookSecret))
	}
	return out, nil
}

// MaskSecret shows a Stripe secret key by its kind (sk_test_, sk_live_, rk_test_, rk_live_) and its
// last four characters.
func MaskSecret(key string) string {
	prefix := "sk_"
	for _, p := range []string{"sk_test_", "sk_live_", "rk_test_", "rk_live_"} {
		if strings.HasPrefix(key, p) {
			prefix = p
		}
	}
	return seal.Mask(prefix, seal.Last4(key))
}

// TestKey reports whether a Stripe key is a test-mode key (no money moves).
func TestKey(key string) bool {
	for _, p := range []string{"sk_test_", "rk_test_", "pk_test_"} {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// Errors of resolving gateways.
var (
	// ErrNotFound: no gateway of that name or id.
	ErrNotFound = errors.New("no such payment gateway")
	// ErrUnsealable: the gateway's keys do not open under PRESSROOM_PAYMENT_SECRET_KEY (it changed);
	// the seller must enter them again.
	ErrUnsealable = errors.New("the payment gateway's keys cannot be decrypted; enter them again")
)

// Deps are what the resolver uses.
type Deps struct {
	DB  *sqlx.DB
	Box *seal.Box
	// Platform is the platform's own gateway, the one stores without theirs pay through (Stripe with
	// PRESSROOM_STRIPE_*, the test gateway, or payments.None); nil where nothing is paid (the bff).
	Platform payments.Gateway
	// Known are further gateways of the platform that earlier payments may name (the bff refunds
	// through them).
	Known []payments.Gateway
	// APIBase is Stripe's API address for the sellers' accounts (PRESSROOM_STRIPE_API_BASE).
	APIBase string
}

// Resolver finds gateways.
type Resolver struct {
	d    Deps
	http *http.Client
}

// New checks the dependencies.
func New(d Deps) (*Resolver, error) {
	if d.DB == nil || d.Box == nil || d.APIBase == "" {
		return nil, errors.New("gateways: database, sealing box and Stripe's API address are required")
	}
	// One client for every seller's calls, so their connections to Stripe are kept and reused.
	return &Resolver{d: d, http: &http.Client{Timeout: 80 * time.Second}}, nil
}

// Platform is the platform's own gateway (nil in the bff).
func (r *Resolver) Platform() payments.Gateway { return r.d.Platform }

// row is what a gateway is built from.
type row struct {
	ID             int64  `db:"id"`
	SellerID       int64  `db:"seller_id"`
	Name           string `db:"name"`
	PublishableKey string `db:"publishable_key"`
	Secret         []byte `db:"secret_key_sealed"`
	Webhook        []byte `db:"webhook_secret_sealed"`
}

const qRow = `SELECT g.id, g.seller_id, g.name, g.publishable_key, g.secret_key_sealed, g.webhook_secret_sealed FROM payment_gateways g`

// build opens a row's keys into a Stripe gateway.
func (r *Resolver) build(g row) (*Gateway, error) {
	secret, err := r.d.Box.Open(secretLabel(g.ID), g.Secret)
	if err != nil {
		return nil, fmt.Errorf("gateway %d: %w", g.ID, ErrUnsealable)
	}
	hook, err := r.d.Box.Open(webhookLabel(g.ID), g.Webhook)
	if err != nil {
		return nil, fmt.Errorf("gateway %d: %w", g.ID, ErrUnsealable)
	}
	st, err := r.stripe(Keys{SecretKey: secret, PublishableKey: g.PublishableKey, WebhookSecret: hook})
	if err != nil {
		return nil, fmt.Errorf("gateway %d: %w", g.ID, err)
	}
	return &Gateway{Stripe: st, ID: g.ID, SellerID: g.SellerID, Label: g.Name}, nil
}

func (r *Resolver) stripe(k Keys) (*payments.Stripe, error) {
	return payments.NewStripe(payments.StripeConfig{SecretKey: k.SecretKey, PublishableKey: k.PublishableKey,
		WebhookSecret: k.WebhookSecret, APIBase: r.d.APIBase, HTTPClient: r.http})
}

// ByID answers the seller's gateway id, retired ones included (their webhooks and refunds still
// work).
func (r *Resolver) ByID(ctx context.Context, id int64) (*Gateway, error) {
	var g row
	err := r.d.DB.GetContext(ctx, &g, qRow+` WHERE g.id = $1`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %d", ErrNotFound, id)
	} else if err != nil {
		return nil, fmt.Errorf("load payment gateway: %w", err)
	}
	return r.build(g)
}

// OfSeller answers every gateway of the seller, retired ones included (their payments' webhooks
// still arrive), newest first: those a delivery to the seller's webhook address may come from. A
// gateway whose keys no longer open is left out: nothing it signed could be verified.
func (r *Resolver) OfSeller(ctx context.Context, sellerID int64) ([]*Gateway, error) {
	var rows []row
	if err := r.d.DB.SelectContext(ctx, &rows, qRow+` WHERE g.seller_id = $1 ORDER BY g.id DESC`, sellerID); err != nil {
		return nil, fmt.Errorf("load the seller's payment gateways: %w", err)
	}
	out := make([]*Gateway, 0, len(rows))
	for _, g := range rows {
		gw, err := r.build(g)
		if errors.Is(err, ErrUnsealable) {
			continue
		} else if err != nil {
			return nil, err
		}
		out = append(out, gw)
	}
	return out, nil
}

// WebhookPrefix starts the path where Stripe delivers the events of a seller's own accounts, under
// the storefront's address: WebhookPrefix{seller id}, one per seller, so it can be set up in
// Stripe's dashboard before the gateway is saved.
const WebhookPrefix = "/webhooks/stripe/seller/"

// WebhookPath is the seller's webhook path.
func WebhookPath(sellerID int64) string { return WebhookPrefix + strconv.FormatInt(sellerID, 10) }

// ForStore answers the gateway the store's checkouts pay through: the seller's gateway the store
// uses, else the platform's. A store whose gateway's keys no longer open (PRESSROOM_PAYMENT_SECRET_KEY
// changed) takes no payment (payments.None) until the seller enters them again: its buyers' money
// must not go elsewhere.
func (r *Resolver) ForStore(ctx context.Context, storeID int64) (payments.Gateway, error) {
	var g row
	err := r.d.DB.GetContext(ctx, &g, qRow+` JOIN stores s ON s.payment_gateway_id = g.id WHERE s.id = $1`, storeID)
	if errors.Is(err, sql.ErrNoRows) {
		if r.d.Platform == nil {
			return payments.None{}, nil
		}
		return r.d.Platform, nil
	} else if err != nil {
		return nil, fmt.Errorf("load the store's payment gateway: %w", err)
	}
	gw, err := r.build(g)
	if errors.Is(err, ErrUnsealable) {
		return payments.None{}, nil
	}
	return gw, err
}

// ByName answers the gateway payments rows name: a seller's (retired ones included) or one of the
// platform's.
func (r *Resolver) ByName(ctx context.Context, name string) (payments.Gateway, error) {
	if id, ok := idOf(name); ok {
		return r.ByID(ctx, id)
	}
	for _, g := range append([]payments.Gateway{r.d.Platform}, r.d.Known...) {
		if g != nil && g.Name() == name {
			return g, nil
		}
	}
	return nil, fmt.Errorf("%w: %s", ErrNotFound, name)
}

// Check asks Stripe for the account of a seller's secret key, the call that proves it works, and
// answers the account's id. A refusal wraps payments.ErrKeyRefused with Stripe's reason; no answer,
// payments.ErrUnreachable.
func (r *Resolver) Check(ctx context.Context, secretKey string) (string, error) {
	return payments.AccountOf(ctx, secretKey, r.d.APIBase, r.http)
}
