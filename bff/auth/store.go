package auth

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/platform/database"
)

// errNoUser means no account has that e-mail or id.
var errNoUser = errors.New("no such user")

// errNoSession means the token is unknown, expired or revoked.
var errNoSession = errors.New("no live session")

// Store is the Postgres side of auth.
type Store struct {
	db *sqlx.DB
	// prepared keeps the session lookup, which every authenticated request runs, prepared.
	prepared *database.Statements
}

// NewStore wraps db.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db, prepared: database.NewStatements(db)} }

type userRow struct {
	ID                  int64          `db:"id"`
	Name                string         `db:"name"`
	Email               string         `db:"email"`
	PasswordHash        string         `db:"password_hash"`
	Avatar              sql.NullString `db:"avatar"`
	EmailVerifiedAt     sql.NullTime   `db:"email_verified_at"`
	EmailNeedVerifyDate sql.NullString `db:"email_need_verify_date"`
	Phone               string         `db:"phone"`
	Facebook            string         `db:"facebook"`
	Balance             float64        `db:"balance"`
	SaleVolume          sql.NullString `db:"sale_volume"`
	Roles               pq.StringArray `db:"roles"`
	Tags                pq.StringArray `db:"tags"`
	Permissions         pq.StringArray `db:"permissions"`
	Status              string         `db:"status"`
	CustomPayment       bool           `db:"custom_payment"`
	IsRef               bool           `db:"is_ref"`
	RefID               sql.NullInt64  `db:"ref_id"`
	Nickname            string         `db:"nickname"`
	CampaignLimit       int            `db:"campaign_limit"`
	TFAEnable           bool           `db:"tfa_enable"`
	TFAConfirm          bool           `db:"tfa_confirm"`
	Timezone            string         `db:"timezone"`
	Currency            string         `db:"currency"`
	SMSCredit           int            `db:"sms_credit"`
	CreatedAt           time.Time      `db:"created_at"`
	StoreIDs            pq.Int64Array  `db:"store_ids"`
	TeamStoreIDs        pq.Int64Array  `db:"team_store_ids"`
}

// userColumns read a user (from users u joined LATERAL to the display currency cur). currency is the
// user's display currency, the platform's when they chose none; balance, the top bar's Balance, is
// what the ledger has available in it (docs/money.md, docs/accounts.md).
const userColumns = `
u.id, u.name, u.email, u.password_hash, u.avatar, u.email_verified_at,
to_char(u.email_need_verify_date, 'YYYY-MM-DD') AS email_need_verify_date,
u.phone, u.facebook, cur.code AS currency,
(COALESCE((SELECT b.available FROM ledger_balances b WHERE b.seller_id = u.id AND b.currency = cur.code), 0) / 100.0)::float8 AS balance,
u.sale_volume, u.roles, u.tags, u.permissions, u.status,
u.custom_payment, u.is_ref, u.ref_id, u.nickname, u.campaign_limit, u.tfa_enable, u.tfa_confirm,
u.timezone, u.sms_credit, u.created_at,
ARRAY(SELECT s.id FROM stores s WHERE s.owner_id = u.id ORDER BY s.id) AS store_ids,
ARRAY(SELECT DISTINCT unnest(t.store_ids) FROM team_members t WHERE t.member_id = u.id) AS team_store_ids`

// userFrom is the FROM of userColumns.
const userFrom = ` FROM users u CROSS JOIN LATERAL (SELECT COALESCE(u.currency,
    (SELECT c.value FROM system_configs c WHERE c.key = 'currency_code'), 'USD') AS code) cur`

func (s *Store) userBy(ctx context.Context, where string, arg any) (*User, string, error) {
	var r userRow
	err := s.db.GetContext(ctx, &r, `SELECT `+userColumns+userFrom+` WHERE `+where, arg)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", errNoUser
	}
	if err != nil {
		return nil, "", fmt.Errorf("load user: %w", err)
	}
	u := &User{
		ID: r.ID, Name: r.Name, Email: r.Email, CreatedAt: r.CreatedAt, Phone: r.Phone, Facebook: r.Facebook,
		Balance: r.Balance, Roles: nonNil(r.Roles), Tags: nonNil(r.Tags), Permissions: nonNil(r.Permissions),
		Status: r.Status, CustomPayment: r.CustomPayment, IsRef: r.IsRef, Nickname: r.Nickname,
		CampaignLimit: r.CampaignLimit, TFAEnable: r.TFAEnable, TFAConfirm: r.TFAConfirm,
		Timezone: r.Timezone, Currency: r.Currency, zone: loadZone(r.Timezone),
		StoreIDs: nonNil(r.StoreIDs), TeamStoreIDs: nonNil(r.TeamStoreIDs), SMSCredit: r.SMSCredit,
		AccountBalance: []AccountBalance{},
	}
	if r.Avatar.Valid {
		u.Avatar = &r.Avatar.String
	}
	if r.EmailVerifiedAt.Valid {
		u.EmailVerifiedAt = &r.EmailVerifiedAt.Time
	}
	if r.EmailNeedVerifyDate.Valid {
		u.EmailNeedVerifyDate = &r.EmailNeedVerifyDate.String
	}
	if r.SaleVolume.Valid {
		u.SaleVolume = &r.SaleVolume.String
	}
	if r.RefID.Valid {
		u.RefID = &r.RefID.Int64
	}
	const balances = `SELECT type, balance FROM account_balances WHERE user_id = $1 ORDER BY type`
	if err := s.db.SelectContext(ctx, &u.AccountBalance, balances, u.ID); err != nil {
		return nil, "", fmt.Errorf("load balances: %w", err)
	}
	return u, r.PasswordHash, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// userByEmail returns the user and their password hash.
func (s *Store) userByEmail(ctx context.Context, email string) (*User, string, error) {
	return s.userBy(ctx, `lower(u.email) = lower($1)`, email)
}

// UserByID loads a user.
func (s *Store) UserByID(ctx context.Context, id int64) (*User, error) {
	u, _, err := s.userBy(ctx, `u.id = $1`, id)
	return u, err
}

// newSession describes a session to open.
type newSession struct {
	UserID        int64
	Kind          string
	OriginUserID  *int64
	TFAPassed     bool
	IP, UserAgent string
}

func (s *Store) createSession(ctx context.Context, ns newSession, hash []byte, ttl time.Duration) error {
	const q = `
INSERT INTO sessions (user_id, token_hash, client_ip, user_agent, expires_at, kind, origin_user_id, tfa_passed)
VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5), $6, $7, $8)`
	kind := ns.Kind
	if kind == "" {
		kind = KindOwn
	}
	if _, err := s.db.ExecContext(ctx, q, ns.UserID, hash, ns.IP, ns.UserAgent, ttl.Seconds(), kind, ns.OriginUserID, ns.TFAPassed); err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	return nil
}

// markTFAPassed records that the session entered a two-factor code.
func (s *Store) markTFAPassed(ctx context.Context, id int64) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE sessions SET tfa_passed = true WHERE id = $1`, id); err != nil {
		return fmt.Errorf("mark two-factor passed: %w", err)
	}
	return nil
}

// teamMembership is a member's place in a seller's team.
type teamMembership struct {
	Role        string         `db:"role"`
	Permissions pq.StringArray `db:"permissions"`
	StoreIDs    pq.Int64Array  `db:"store_ids"`
}

// membership loads member's place in seller's team, or errNoUser.
func (s *Store) membership(ctx context.Context, sellerID, memberID int64) (teamMembership, error) {
	const q = `SELECT role, permissions, store_ids FROM team_members WHERE seller_id = $1 AND member_id = $2`
	var m teamMembership
	err := s.db.GetContext(ctx, &m, q, sellerID, memberID)
	if errors.Is(err, sql.ErrNoRows) {
		return m, errNoUser
	}
	if err != nil {
		return m, fmt.Errorf("load team membership: %w", err)
	}
	return m, nil
}

// Kinds of session.
const (
	// KindOwn is a user signed in to their own account.
	KindOwn = "own"
	// KindSwitched is a team member working in a seller's account (user_id the seller,
	// origin_user_id the member).
	KindSwitched = "switched"
	// KindImpersonation is an admin acting as a seller (user_id the seller, origin_user_id the admin).
	KindImpersonation = "impersonation"
)

type session struct {
	ID           int64         `db:"id"`
	UserID       int64         `db:"user_id"`
	Kind         string        `db:"kind"`
	OriginUserID sql.NullInt64 `db:"origin_user_id"`
	TFAPassed    bool          `db:"tfa_passed"`
	ExpiresAt    time.Time     `db:"expires_at"`
	// Stale is set when the session's last use was noted more than a minute ago.
	Stale bool `db:"stale"`
	// UserVersion and OriginVersion are the auth_versions of the user and the origin user (0 when
	// never changed); see callerCache.
	UserVersion   int64 `db:"user_version"`
	OriginVersion int64 `db:"origin_version"`
}

// liveSession finds the unexpired, unrevoked session of a token hash with the versions of its users,
// and notes its use (at most once a minute, so reads do not turn into a write per request).
func (s *Store) liveSession(ctx context.Context, hash []byte) (session, error) {
	const q = `
SELECT s.id, s.user_id, s.kind, s.origin_user_id, s.tfa_passed, s.expires_at,
       s.last_used_at < now() - interval '1 minute' AS stale,
       coalesce((SELECT v.version FROM auth_versions v WHERE v.user_id = s.user_id), 0) AS user_version,
       coalesce((SELECT v.version FROM auth_versions v WHERE v.user_id = s.origin_user_id), 0) AS origin_version
FROM sessions s
WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()`
	const touch = `UPDATE sessions SET last_used_at = now() WHERE id = $1 AND last_used_at < now() - interval '1 minute'`
	stmt, err := s.prepared.Prepared(ctx, q)
	if err != nil {
		return session{}, fmt.Errorf("load session: %w", err)
	}
	var ss session
	err = stmt.GetContext(ctx, &ss, hash)
	if errors.Is(err, sql.ErrNoRows) {
		return session{}, errNoSession
	}
	if err != nil {
		return session{}, fmt.Errorf("load session: %w", err)
	}
	if ss.Stale {
		if _, err := s.db.ExecContext(ctx, touch, ss.ID); err != nil {
			return session{}, fmt.Errorf("touch session: %w", err)
		}
	}
	return ss, nil
}

func (s *Store) revokeSession(ctx context.Context, id int64) error {
	const q = `UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`
	if _, err := s.db.ExecContext(ctx, q, id); err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	return nil
}

// Audit records a security event; detail is stored as JSON.
func (s *Store) Audit(ctx context.Context, userID *int64, action, clientIP string, detail any) error {
	const q = `INSERT INTO audit_events (user_id, action, client_ip, detail) VALUES ($1, $2, $3, $4)`
	b, err := json.Marshal(detail)
	if err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, q, userID, action, clientIP, b); err != nil {
		return fmt.Errorf("audit %s: %w", action, err)
	}
	return nil
}
