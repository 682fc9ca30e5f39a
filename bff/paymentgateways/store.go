package paymentgateways

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/commerce/gateways"
	"github.com/pressroom/pressroom/platform/seal"
)

// ErrNotFound: no such gateway in the seller's account (retired ones included).
var ErrNotFound = errors.New("payment gateway not found")

// Named is a store as a gateway names it.
type Named struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
}

// Gateway is a gateway as the screens show it: its secrets masked.
type Gateway struct {
	ID             int64  `db:"id" json:"id"`
	Name           string `db:"name" json:"name"`
	Provider       string `db:"provider" json:"provider"`
	AccountID      string `db:"account_id" json:"account_id"`
	TestMode       bool   `db:"test_mode" json:"test_mode"`
	PublishableKey string `db:"publishable_key" json:"publishable_key"`
	SecretKey      string `db:"secret_key_hint" json:"secret_key"`
	WebhookSecret  string `db:"webhook_secret_hint" json:"webhook_secret"`
	// WebhookURL is where the seller tells Stripe to send the gateway's events.
	WebhookURL string  `db:"-" json:"webhook_url"`
	Stores     []Named `db:"-" json:"stores"`
	StoresJSON []byte  `db:"stores" json:"-"`
	// PendingCheckouts are open checkouts of its stores with a payment begun through it.
	PendingCheckouts int       `db:"pending_checkouts" json:"pending_checkouts"`
	CreatedAt        time.Time `db:"created_at" json:"created_at"`
	UpdatedAt        time.Time `db:"updated_at" json:"updated_at"`
}

// StoreOption is a store the form offers, with the gateway it pays through now (none: Pressroom's).
type StoreOption struct {
	ID          int64   `db:"id" json:"id"`
	Name        string  `db:"name" json:"name"`
	Slug        string  `db:"slug" json:"slug"`
	GatewayID   *int64  `db:"gateway_id" json:"gateway_id"`
	GatewayName *string `db:"gateway_name" json:"gateway_name"`
}

type store struct {
	db *sqlx.DB
}

const qGateways = `
SELECT g.id, g.name, g.provider, g.account_id, g.test_mode, g.publishable_key, g.secret_key_hint, g.webhook_secret_hint,
	g.created_at, g.updated_at,
	COALESCE((SELECT json_agg(json_build_object('id', s.id, 'name', s.name, 'slug', s.slug) ORDER BY s.name, s.id)
		FROM stores s WHERE s.payment_gateway_id = g.id AND s.id = ANY(:visible)), '[]') AS stores,
	(SELECT count(*) FROM checkouts k JOIN payments p ON p.checkout_id = k.id
		WHERE p.payment_gateway_id = g.id AND p.status = 'pending' AND k.status IN ('open', 'abandoned')) AS pending_checkouts
FROM payment_gateways g
WHERE g.seller_id = :seller AND g.retired_at IS NULL`

func (s store) query(ctx context.Context, where string, args map[string]any) ([]Gateway, error) {
	q, params, err := sqlx.Named(qGateways+where, args)
	if err != nil {
		return nil, err
	}
	out := []Gateway{}
	if err := s.db.SelectContext(ctx, &out, s.db.Rebind(q), params...); err != nil {
		return nil, fmt.Errorf("payment gateways: %w", err)
	}
	for i := range out {
		if err := json.Unmarshal(out[i].StoresJSON, &out[i].Stores); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// list answers a page of the seller's gateways, newest first, naming only the stores visible.
func (s store) list(ctx context.Context, seller int64, visible []int64, limit, offset int) ([]Gateway, int, error) {
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM payment_gateways WHERE seller_id = $1 AND retired_at IS NULL`, seller); err != nil {
		return nil, 0, err
	}
	out, err := s.query(ctx, ` ORDER BY g.id DESC LIMIT :limit OFFSET :offset`,
		map[string]any{"seller": seller, "visible": pq.Array(visible), "limit": limit, "offset": offset})
	return out, total, err
}

func (s store) get(ctx context.Context, seller int64, visible []int64, id int64) (Gateway, error) {
	out, err := s.query(ctx, ` AND g.id = :id`, map[string]any{"seller": seller, "visible": pq.Array(visible), "id": id})
	if err != nil {
		return Gateway{}, err
	}
	if len(out) == 0 {
		return Gateway{}, ErrNotFound
	}
	return out[0], nil
}

// connected answers the name of the seller's gateway (not deleted) of the Stripe account, "" for none.
func (s store) connected(ctx context.Context, seller int64, account string) (string, error) {
	var name string
	err := s.db.GetContext(ctx, &name, `SELECT name FROM payment_gateways WHERE seller_id = $1 AND account_id = $2 AND retired_at IS NULL LIMIT 1`,
		seller, account)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return name, err
}

// storeIDs are the seller's stores.
func (s store) storeIDs(ctx context.Context, seller int64) ([]int64, error) {
	out := []int64{}
	if err := s.db.SelectContext(ctx, &out, `SELECT id FROM stores WHERE owner_id = $1 ORDER BY id`, seller); err != nil {
		return nil, fmt.Errorf("stores of the seller: %w", err)
	}
	return out, nil
}

// storeOptions are the visible stores with the gateway each pays through.
func (s store) storeOptions(ctx context.Context, seller int64, visible []int64) ([]StoreOption, error) {
	const q = `
SELECT s.id, s.name, s.slug, g.id AS gateway_id, g.name AS gateway_name
FROM stores s LEFT JOIN payment_gateways g ON g.id = s.payment_gateway_id
WHERE s.owner_id = $1 AND s.id = ANY($2) ORDER BY s.name, s.id`
	out := []StoreOption{}
	if err := s.db.SelectContext(ctx, &out, q, seller, pq.Array(visible)); err != nil {
		return nil, fmt.Errorf("store options: %w", err)
	}
	return out, nil
}

// saved is what save writes: the checked input, the keys (a kept secret is empty) and the Stripe
// account they belong to.
type saved struct {
	Seller, Actor int64
	In            Input
	Keys          gateways.Keys
	AccountID     string
	// Visible are the stores the caller sees: only their payment gateway is set or cleared.
	Visible []int64
}

// save creates (id 0) or updates the gateway in one transaction: the row with its secrets sealed
// under its id (a secret not given is kept), then its stores: the chosen ones pay through it, the
// other visible ones that did go back to the platform's.
func (s store) save(ctx context.Context, box *seal.Box, id int64, v saved) (int64, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	creating := id == 0
	if creating {
		if err := tx.GetContext(ctx, &id, `SELECT nextval('payment_gateways_id_seq')`); err != nil {
			return 0, err
		}
	} else if err := tx.GetContext(ctx, &id, `SELECT id FROM payment_gateways WHERE id = $1 AND seller_id = $2 AND retired_at IS NULL FOR UPDATE`,
		id, v.Seller); errors.Is(err, sql.ErrNoRows) {
		return 0, ErrNotFound
	} else if err != nil {
		return 0, err
	}
	sealed, err := gateways.Seal(box, id, v.Keys)
	if err != nil {
		return 0, err
	}
	args := map[string]any{"id": id, "seller": v.Seller, "actor": v.Actor, "name": v.In.Name, "account": v.AccountID,
		"test": gateways.TestKey(v.In.PublishableKey), "pk": v.In.PublishableKey,
		"sk": nullIfEmpty(sealed.SecretKey), "sk_hint": nullIfEmpty(sealed.SecretHint), "wh": nullIfEmpty(sealed.WebhookSecret),
		"wh_hint": nullIfEmpty(sealed.WebhookHint)}
	q := `
UPDATE payment_gateways SET name = :name, test_mode = :test, publishable_key = :pk,
	secret_key_sealed = COALESCE(:sk, secret_key_sealed), secret_key_hint = COALESCE(:sk_hint, secret_key_hint),
	webhook_secret_sealed = COALESCE(:wh, webhook_secret_sealed), webhook_secret_hint = COALESCE(:wh_hint, webhook_secret_hint),
	updated_at = now()
WHERE id = :id`
	if creating {
		q = `
INSERT INTO payment_gateways (id, seller_id, name, account_id, test_mode, publishable_key, secret_key_sealed, secret_key_hint,
	webhook_secret_sealed, webhook_secret_hint, created_by)
VALUES (:id, :seller, :name, :account, :test, :pk, :sk, :sk_hint, :wh, :wh_hint, :actor)`
	}
	if _, err := tx.NamedExecContext(ctx, q, args); err != nil {
		return 0, fmt.Errorf("save payment gateway: %w", err)
	}
	const qStores = `
UPDATE stores SET payment_gateway_id = CASE WHEN id = ANY($3) THEN $2::bigint END, updated_at = now()
WHERE owner_id = $1 AND id = ANY($4) AND (id = ANY($3) OR payment_gateway_id = $2)`
	if _, err := tx.ExecContext(ctx, qStores, v.Seller, id, pq.Array(v.In.StoreIDs), pq.Array(v.Visible)); err != nil {
		return 0, fmt.Errorf("stores of the payment gateway: %w", err)
	}
	return id, tx.Commit()
}

// nullIfEmpty is NULL for a secret not given, so COALESCE keeps the stored one.
func nullIfEmpty[T string | []byte](v T) any {
	if len(v) == 0 {
		return nil
	}
	return v
}

// remove takes the gateway off its stores, then deletes it when no payment went through it, and
// otherwise retires it: its keys stay sealed for the webhooks and refunds of those payments. It
// answers whether it was retired.
func (s store) remove(ctx context.Context, seller, id int64) (retired bool, err error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	var got int64
	err = tx.GetContext(ctx, &got, `SELECT id FROM payment_gateways WHERE id = $1 AND seller_id = $2 AND retired_at IS NULL FOR UPDATE`, id, seller)
	if errors.Is(err, sql.ErrNoRows) {
		return false, ErrNotFound
	} else if err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE stores SET payment_gateway_id = NULL, updated_at = now() WHERE payment_gateway_id = $1`, id); err != nil {
		return false, err
	}
	if err := tx.GetContext(ctx, &retired, `SELECT EXISTS (SELECT 1 FROM payments WHERE payment_gateway_id = $1)`, id); err != nil {
		return false, err
	}
	q := `DELETE FROM payment_gateways WHERE id = $1`
	if retired {
		q = `UPDATE payment_gateways SET retired_at = now(), updated_at = now() WHERE id = $1`
	}
	if _, err := tx.ExecContext(ctx, q, id); err != nil {
		return false, fmt.Errorf("remove payment gateway: %w", err)
	}
	return retired, tx.Commit()
}
