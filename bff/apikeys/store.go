package apikeys

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// errNoKey means no live key has the secret: unknown, revoked, expired, or its account suspended.
var errNoKey = errors.New("no live api key")

// ErrNotFound means the account has no key of that id.
var ErrNotFound = errors.New("api key not found")

type store struct{ db *sqlx.DB }

type keyRow struct {
	Key
	Scopes pq.StringArray `db:"scopes"`
}

func (r keyRow) key() Key {
	k := r.Key
	k.Scopes = []string(r.Scopes)
	return k
}

const keyColumns = `id, name, prefix, scopes, test_mode, expires_at, revoked_at, last_used_at, created_at`

func (s store) list(ctx context.Context, seller int64) ([]Key, error) {
	const q = `SELECT ` + keyColumns + ` FROM api_keys WHERE seller_id = $1 ORDER BY id DESC`
	var rows []keyRow
	if err := s.db.SelectContext(ctx, &rows, q, seller); err != nil {
		return nil, fmt.Errorf("list api keys: %w", err)
	}
	out := make([]Key, len(rows))
	for i, r := range rows {
		out[i] = r.key()
	}
	return out, nil
}

// newKey is a key to insert.
type newKey struct {
	seller, createdBy int64
	name, prefix      string
	hash              []byte
	scopes            []string
	testMode          bool
	expiresAt         *time.Time
}

// create inserts k unless the account already holds max keys that still work; ok is false then.
func (s store) create(ctx context.Context, k newKey, max int) (key Key, ok bool, err error) {
	const q = `
INSERT INTO api_keys (seller_id, created_by, name, prefix, secret_hash, scopes, test_mode, expires_at)
SELECT $1, $2, $3, $4, $5, $6, $7, $8
 WHERE (SELECT count(*) FROM api_keys
         WHERE seller_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())) < $9
RETURNING ` + keyColumns
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return Key{}, false, err
	}
	defer tx.Rollback()
	// One account's creates in turn, so two at once cannot both pass the count.
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('api_keys'), $1::int)`, k.seller); err != nil {
		return Key{}, false, err
	}
	var r keyRow
	err = tx.GetContext(ctx, &r, q, k.seller, k.createdBy, k.name, k.prefix, k.hash, pq.Array(k.scopes), k.testMode, k.expiresAt, max)
	if errors.Is(err, sql.ErrNoRows) {
		return Key{}, false, nil
	}
	if err != nil {
		return Key{}, false, fmt.Errorf("create api key: %w", err)
	}
	return r.key(), true, tx.Commit()
}

// revoke ends a key of the account at once; revoking a revoked key keeps its first revocation.
func (s store) revoke(ctx context.Context, seller, id int64) (Key, error) {
	const q = `
UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
 WHERE seller_id = $1 AND id = $2
RETURNING ` + keyColumns
	var r keyRow
	err := s.db.GetContext(ctx, &r, q, seller, id)
	if errors.Is(err, sql.ErrNoRows) {
		return Key{}, ErrNotFound
	}
	if err != nil {
		return Key{}, fmt.Errorf("revoke api key: %w", err)
	}
	return r.key(), nil
}

// liveKey is the caller of a live key with the key's expiry.
type liveKey struct {
	Caller
	ExpiresAt *time.Time
}

// live is the caller of a secret's hash: a key neither revoked nor expired, of an account that is
// not suspended.
func (s store) live(ctx context.Context, hash []byte) (liveKey, error) {
	const q = `
SELECT k.id, k.seller_id, k.scopes, k.test_mode, k.expires_at
  FROM api_keys k JOIN users u ON u.id = k.seller_id
 WHERE k.secret_hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
   AND u.status <> 'suspended'`
	var r struct {
		ID       int64          `db:"id"`
		SellerID int64          `db:"seller_id"`
		Scopes   pq.StringArray `db:"scopes"`
		TestMode bool           `db:"test_mode"`
		Expires  *time.Time     `db:"expires_at"`
	}
	err := s.db.GetContext(ctx, &r, q, hash)
	if errors.Is(err, sql.ErrNoRows) {
		return liveKey{}, errNoKey
	}
	if err != nil {
		return liveKey{}, fmt.Errorf("look up api key: %w", err)
	}
	c := Caller{KeyID: r.ID, SellerID: r.SellerID, Scopes: []string(r.Scopes), TestMode: r.TestMode}
	return liveKey{Caller: c, ExpiresAt: r.Expires}, nil
}

// used records uses of keys in one statement: an audit row each (at the time of the use), and each
// key's last_used_at when it is more than a minute old. Moving it on every request would make every
// request of a key wait for the one before it on the key's row lock; the audit rows keep every use
// to the second. The keys are locked in id order, so that two batches never wait for each other.
func (s store) used(ctx context.Context, uses []use) error {
	const q = `
WITH u AS (SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::jsonb[], $5::timestamptz[])
                      AS u (key_id, user_id, ip, detail, at)),
     stale AS (SELECT id FROM api_keys
                WHERE id IN (SELECT key_id FROM u) AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
                ORDER BY id FOR UPDATE),
     k AS (UPDATE api_keys SET last_used_at = (SELECT max(at) FROM u WHERE u.key_id = api_keys.id)
            WHERE id IN (SELECT id FROM stale))
INSERT INTO audit_events (user_id, action, client_ip, detail, created_at)
SELECT user_id, 'api_key.use', ip, detail, at FROM u`
	keys, sellers := make([]int64, len(uses)), make([]int64, len(uses))
	ips, details, ats := make([]string, len(uses)), make([]string, len(uses)), make([]string, len(uses))
	for i, u := range uses {
		keys[i], sellers[i], ips[i], details[i], ats[i] = u.keyID, u.sellerID, u.ip, string(u.detail), u.at.Format(time.RFC3339Nano)
	}
	if _, err := s.db.ExecContext(ctx, q, pq.Array(keys), pq.Array(sellers), pq.Array(ips), pq.Array(details), pq.Array(ats)); err != nil {
		return fmt.Errorf("record api key uses: %w", err)
	}
	return nil
}
