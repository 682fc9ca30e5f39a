package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/redis/go-redis/v9"
)

// Sentinel outcomes of Login; the handlers turn them into the messages users see.
var (
	// ErrBadCredentials means the e-mail is unknown or the password does not match.
	ErrBadCredentials = errors.New("bad credentials")
	// ErrWrongLogin means the password matched but the account signs in through the other login
	// (designers and admins through the admin login, everyone else through the seller login).
	ErrWrongLogin = errors.New("account signs in through the other login")
)

// ThrottledError means too many failed logins; RetryAfter says when to try again.
type ThrottledError struct{ RetryAfter time.Duration }

func (e *ThrottledError) Error() string { return fmt.Sprintf("login throttled for %s", e.RetryAfter) }

// Service signs users in and resolves tokens.
type Service struct {
	cfg      Config
	store    *Store
	throttle *throttle
	log      *slog.Logger
	// dummyHash is compared against when the e-mail is unknown, so a reply's timing does not tell
	// whether an account exists.
	dummyHash string
}

// NewService validates cfg and builds the service.
func NewService(cfg Config, db *sqlx.DB, rdb *redis.Client, log *slog.Logger) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	dummy, err := HashPassword("pressroom-timing-equaliser", cfg.BcryptCost)
	if err != nil {
		return nil, err
	}
	return &Service{
		cfg: cfg, store: NewStore(db), log: log, dummyHash: dummy,
		throttle: &throttle{rdb: rdb, window: cfg.ThrottleWindow,
			maxAccount: int64(cfg.MaxFailuresPerAccount), maxClient: int64(cfg.MaxFailuresPerClient)},
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

// login checks the credentials and opens a session, returning its token.
func (s *Service) login(ctx context.Context, r loginRequest) (string, error) {
	wait, err := s.throttle.blocked(ctx, r.Email, r.ClientIP)
	if err != nil {
		return "", err
	}
	if wait > 0 {
		s.audit(ctx, nil, "login.throttled", r.ClientIP, map[string]any{"email": r.Email})
		return "", &ThrottledError{RetryAfter: wait}
	}
	u, hash, err := s.store.userByEmail(ctx, strings.TrimSpace(r.Email))
	if errors.Is(err, errNoUser) {
		checkPassword(s.dummyHash, r.Password)
		return "", s.failed(ctx, nil, r)
	}
	if err != nil {
		return "", err
	}
	if !checkPassword(hash, r.Password) {
		return "", s.failed(ctx, &u.ID, r)
	}
	if u.staffLogin() != r.StaffLogin {
		return "", ErrWrongLogin
	}
	if err := s.throttle.succeed(ctx, r.Email); err != nil {
		return "", err
	}
	token, tokenHash := newToken()
	if err := s.store.createSession(ctx, u.ID, tokenHash, s.cfg.SessionTTL, r.ClientIP, r.Agent); err != nil {
		return "", err
	}
	return token, nil
}

func (s *Service) failed(ctx context.Context, userID *int64, r loginRequest) error {
	if err := s.throttle.fail(ctx, r.Email, r.ClientIP); err != nil {
		return err
	}
	s.audit(ctx, userID, "login.failed", r.ClientIP, map[string]any{"email": r.Email})
	return ErrBadCredentials
}

// audit records an event; a failure to record is logged, never shown to the caller.
func (s *Service) audit(ctx context.Context, userID *int64, action, ip string, detail any) {
	if err := s.store.Audit(ctx, userID, action, ip, detail); err != nil {
		s.log.Error("audit", "action", action, "err", err)
	}
}

// Identity is the authenticated caller of a request.
type Identity struct {
	User      *User
	SessionID int64
}

// Authenticate resolves a bearer token to its caller.
func (s *Service) Authenticate(ctx context.Context, token string) (*Identity, error) {
	if token == "" {
		return nil, errNoSession
	}
	ss, err := s.store.liveSession(ctx, hashToken(token))
	if err != nil {
		return nil, err
	}
	u, err := s.store.UserByID(ctx, ss.UserID)
	if errors.Is(err, errNoUser) {
		return nil, errNoSession
	}
	if err != nil {
		return nil, err
	}
	return &Identity{User: u, SessionID: ss.ID}, nil
}

// Logout revokes the caller's session: its token stops working at once, on every process.
func (s *Service) Logout(ctx context.Context, id *Identity) error {
	return s.store.revokeSession(ctx, id.SessionID)
}
