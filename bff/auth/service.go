package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/redis/go-redis/v9"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/platform/mail"
)

// Sentinel outcomes of Login; the handlers turn them into the messages users see.
var (
	// ErrBadCredentials means the e-mail is unknown or the password does not match.
	ErrBadCredentials = errors.New("bad credentials")
	// ErrWrongLogin means the password matched but the account signs in through the other login
	// (designers and admins through the admin login, everyone else through the seller login).
	ErrWrongLogin = errors.New("account signs in through the other login")
	// ErrSuspended means the password matched but the account is suspended.
	ErrSuspended = errors.New("account suspended")
)

// ThrottledError means too many failed logins; RetryAfter says when to try again.
type ThrottledError struct{ RetryAfter time.Duration }

func (e *ThrottledError) Error() string { return fmt.Sprintf("login throttled for %s", e.RetryAfter) }

// Service signs users in and resolves tokens.
type Service struct {
	cfg      Config
	store    *Store
	throttle *throttle
	hasher   *hasher
	log      *slog.Logger
	mailer   *mail.Mailer
	callers  *callerCache
	// declared holds each route's access.Need by "METHOD /path" (see Handle).
	declared sync.Map
	// dummyHash is compared against when the e-mail is unknown, so a reply's timing does not tell
	// whether an account exists.
	dummyHash string
}

// NewService validates cfg and builds the service.
func NewService(cfg Config, db *sqlx.DB, rdb *redis.Client, mailer *mail.Mailer, log *slog.Logger) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	dummy, err := HashPassword("pressroom-timing-equaliser", cfg.BcryptCost)
	if err != nil {
		return nil, err
	}
	return &Service{
		cfg: cfg, store: NewStore(db), log: log, dummyHash: dummy, mailer: mailer,
		throttle: &throttle{rdb: rdb, log: log},
		hasher:   newHasher(cfg.BcryptCost, cfg.HashConcurrency, cfg.HashWait),
		callers:  newCallerCache(10000),
	}, nil
}

// Store exposes the service's store to the routes of other areas that need users.
func (s *Service) Store() *Store { return s.store }

// loginRequest says who is trying to sign in, from where, through which login.
type loginRequest struct {
	Email, Password string
	ClientIP, Agent string
	StaffLogin      bool
}

// guess counts a password or code guess against the account key (an e-mail address, or a purpose
// and an id such as "tfa:7") and the client address before it is checked, and answers how long to
// wait when either has used up its guesses (0: go ahead and check).
func (s *Service) guess(ctx context.Context, key, ip string) (time.Duration, error) {
	w := s.cfg.ThrottleWindow
	return s.throttle.attempt(ctx,
		limit{key: accountKey(key), max: int64(s.cfg.MaxFailuresPerAccount), window: w},
		limit{key: clientKey(ip), max: int64(s.cfg.MaxFailuresPerClient), window: w})
}

// guessedRight clears the account key's count and takes back the client's guess: only wrong
// guesses stay counted.
func (s *Service) guessedRight(ctx context.Context, key, ip string) error {
	if err := s.throttle.clear(ctx, accountKey(key)); err != nil {
		return err
	}
	return s.throttle.refund(ctx, clientKey(ip))
}

// login checks the credentials and opens a session, returning its token. The attempt is counted
// before the password is compared.
func (s *Service) login(ctx context.Context, r loginRequest) (string, error) {
	wait, err := s.guess(ctx, r.Email, r.ClientIP)
	if err != nil {
		return "", err
	}
	if wait > 0 {
		s.audit(ctx, nil, "login.throttled", r.ClientIP, map[string]any{"email": r.Email})
		return "", &ThrottledError{RetryAfter: wait}
	}
	u, hash, err := s.store.userByEmail(ctx, strings.TrimSpace(r.Email))
	if errors.Is(err, errNoUser) {
		if _, err := s.hasher.check(ctx, s.dummyHash, r.Password); err != nil {
			return "", err
		}
		s.audit(ctx, nil, "login.failed", r.ClientIP, map[string]any{"email": r.Email})
		return "", ErrBadCredentials
	}
	if err != nil {
		return "", err
	}
	if ok, err := s.hasher.check(ctx, hash, r.Password); err != nil {
		return "", err
	} else if !ok {
		s.audit(ctx, &u.ID, "login.failed", r.ClientIP, map[string]any{"email": r.Email})
		return "", ErrBadCredentials
	}
	if err := s.guessedRight(ctx, r.Email, r.ClientIP); err != nil {
		return "", err
	}
	if u.Status == StatusSuspended {
		s.audit(ctx, &u.ID, "login.suspended", r.ClientIP, nil)
		return "", ErrSuspended
	}
	if u.staffLogin() != r.StaffLogin {
		return "", ErrWrongLogin
	}
	return s.openSession(ctx, newSession{UserID: u.ID, IP: r.ClientIP, UserAgent: r.Agent})
}

// openSession stores a new session and returns its token; an impersonation lasts ImpersonationTTL,
// every other session SessionTTL.
func (s *Service) openSession(ctx context.Context, ns newSession) (string, error) {
	token, tokenHash := newToken()
	if err := s.store.createSession(ctx, ns, tokenHash, s.sessionTTL(ns.Kind)); err != nil {
		return "", err
	}
	return token, nil
}

// sessionTTL is how long a session of kind lasts.
func (s *Service) sessionTTL(kind string) time.Duration {
	if kind == KindImpersonation {
		return s.cfg.ImpersonationTTL
	}
	return s.cfg.SessionTTL
}

// audit records an event; a failure to record is logged, never shown to the caller.
func (s *Service) audit(ctx context.Context, userID *int64, action, ip string, detail any) {
	if err := s.store.Audit(ctx, userID, action, ip, detail); err != nil {
		s.log.Error("audit", "action", action, "err", err)
	}
}

// Identity is the authenticated caller of a request.
type Identity struct {
	// User is the account the session acts as: the seller's while a team member has switched into
	// it (with the member's team role and permissions) or an admin impersonates it.
	User      *User
	SessionID int64
	// Kind is KindOwn, KindSwitched or KindImpersonation.
	Kind string
	// OriginUserID is the person behind a switched or impersonating session (0 for KindOwn).
	OriginUserID int64
}

// Impersonating reports whether an admin acts as the user.
func (id *Identity) Impersonating() bool { return id.Kind == KindImpersonation }

// Switched reports whether a team member works in a seller's account.
func (id *Identity) Switched() bool { return id.Kind == KindSwitched }

// Person is the id of the human behind the session: the team member or admin, else the user.
func (id *Identity) Person() int64 {
	if id.OriginUserID != 0 {
		return id.OriginUserID
	}
	return id.User.ID
}

// Access is the caller as the access rules see it at now.
func (id *Identity) Access(now time.Time) *access.Caller {
	u := id.User.Access()
	return &access.Caller{
		User: u, Impersonating: id.Impersonating(), Switched: id.Switched(),
		MustVerifyEmail: access.MustVerifyEmail(u, now), NeedsTFA: access.NeedsTFA(u),
	}
}

// errSuspended means the session's account, or the person behind it, is suspended.
var errSuspended = errors.New("account suspended")

// Authenticate resolves a bearer token to its caller. A suspended account is refused (errSuspended),
// and so is a team member or admin behind a session who is suspended; an impersonating admin must
// still exist and hold the admin role, checked on every request, so a demoted admin's impersonation
// ends at once.
func (s *Service) Authenticate(ctx context.Context, token string) (*Identity, error) {
	if token == "" {
		return nil, errNoSession
	}
	ss, err := s.session(ctx, hashToken(token))
	if err != nil {
		return nil, err
	}
	u, err := s.cachedUser(ctx, ss.UserID, ss.UserVersion)
	if errors.Is(err, errNoUser) {
		return nil, errNoSession
	}
	if err != nil {
		return nil, err
	}
	id := &Identity{User: u, SessionID: ss.ID, Kind: ss.Kind, OriginUserID: ss.OriginUserID.Int64}
	if ss.Kind == KindOwn || ss.Kind == "" {
		if u.Status == StatusSuspended {
			return nil, errSuspended
		}
		u.TFAConfirm = u.TFAEnable && ss.TFAPassed
		return id, nil
	}
	origin, err := s.cachedUser(ctx, ss.OriginUserID.Int64, ss.OriginVersion)
	if errors.Is(err, errNoUser) {
		return nil, errNoSession
	}
	if err != nil {
		return nil, err
	}
	if origin.Status == StatusSuspended {
		return nil, errSuspended
	}
	switch ss.Kind {
	case KindSwitched:
		if u.Status == StatusSuspended {
			return nil, errSuspended
		}
		// Read on every request, so a changed or removed membership applies at once.
		m, ok := s.callers.membership(ss.UserID, ss.OriginUserID.Int64, ss.UserVersion, ss.OriginVersion)
		if !ok {
			m, err = s.store.membership(ctx, ss.UserID, ss.OriginUserID.Int64)
			if errors.Is(err, errNoUser) {
				return nil, errNoSession
			}
			if err != nil {
				return nil, err
			}
			s.callers.putMembership(ss.UserID, ss.OriginUserID.Int64, ss.UserVersion, ss.OriginVersion, m)
		}
		u.Roles, u.Permissions = []string{m.Role}, nonNil([]string(m.Permissions))
		u.StoreIDs, u.TeamStoreIDs = nonNil([]int64(m.StoreIDs)), nonNil([]int64(m.StoreIDs))
		u.AccessUser, u.TFAConfirm = true, u.TFAEnable
	case KindImpersonation:
		// A suspended seller stays open to an admin, who may need to see why it was suspended.
		if !slices.Contains(origin.Roles, RoleAdmin) {
			s.audit(ctx, &id.OriginUserID, "impersonation.ended", "", map[string]any{
				"admin_id": id.OriginUserID, "seller_id": u.ID, "reason": "no longer an admin"})
			if err := s.store.revokeSession(ctx, ss.ID); err != nil {
				return nil, err
			}
			s.callers.dropSession(ss.ID)
			return nil, errNoSession
		}
		// The admin proved who they are at their own login; the seller's second factor is not theirs to give.
		u.AccessUser, u.TFAConfirm = true, u.TFAEnable
	default:
		return nil, errNoSession
	}
	return id, nil
}

// session is the live session of a token hash, from the process cache while it follows the
// changes of sessions and users (FollowChanges), else from Postgres.
func (s *Service) session(ctx context.Context, hash []byte) (session, error) {
	now := time.Now()
	ss, ticket, ok := s.callers.sessions.Get(string(hash), now)
	if ok {
		return ss, nil
	}
	ss, err := s.store.liveSession(ctx, hash)
	if err != nil {
		return session{}, err
	}
	until := now.Add(sessionCacheTTL)
	if ss.ExpiresAt.Before(until) {
		until = ss.ExpiresAt
	}
	s.callers.sessions.Put(ticket, string(hash), ss, until)
	return ss, nil
}

// FollowChanges follows the notifications Postgres sends when a session, a user or an API key
// changes (see callerCache) until ctx ends, so that sessions are served from the process cache while
// it can. The other caches of what those triggers announce (also: API keys) share its connection.
func (s *Service) FollowChanges(ctx context.Context, db database.Config, also ...database.Follower) error {
	return database.Follow(ctx, db, changesChannel, append(database.Followers{s.callers.sessions}, also...), s.log)
}

// changesChannel is the notification channel of the auth triggers (schema/migrations).
const changesChannel = "auth_changed"

// cachedUser is a copy of user id at version, from the process cache or Postgres.
func (s *Service) cachedUser(ctx context.Context, id, version int64) (*User, error) {
	if u, ok := s.callers.user(id, version); ok {
		return &u, nil
	}
	u, err := s.store.UserByID(ctx, id)
	if err != nil {
		return nil, err
	}
	s.callers.putUser(version, *u)
	return u, nil
}

// Logout revokes the caller's session: its token stops working at once, on every process. The end
// of an impersonation is audited.
func (s *Service) Logout(ctx context.Context, id *Identity, ip string) error {
	if err := s.store.revokeSession(ctx, id.SessionID); err != nil {
		return err
	}
	s.callers.dropSession(id.SessionID)
	if id.Impersonating() {
		s.audit(ctx, &id.OriginUserID, "impersonation.stop", ip, map[string]any{"admin_id": id.OriginUserID, "seller_id": id.User.ID})
	}
	return nil
}
