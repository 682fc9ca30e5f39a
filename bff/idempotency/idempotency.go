package idempotency

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/periodic"
)

// Header is the request header that names a create; ReplayedHeader marks a replayed answer.
const (
	Header         = "Idempotency-Key"
	ReplayedHeader = "Idempotent-Replayed"
)

// MaxKeyLen is the longest key accepted, in bytes.
const MaxKeyLen = 200

// maxStored caps the answer kept for replay; a larger answer is not kept (its key is released).
const maxStored = 1 << 20

// Messages of the refusals.
const (
	MsgBadKey   = "The Idempotency-Key header must be 1 to 200 visible ASCII characters."
	MsgMismatch = "This Idempotency-Key was already used for a different request. Send a new key for a new request."
	MsgRunning  = "A request with this Idempotency-Key is still being processed. Try again in a moment."
)

// Keys is the idempotency middleware and its store.
type Keys struct {
	cfg Config
	db  *sqlx.DB
	log *slog.Logger
}

// New validates cfg and builds the keys on db.
func New(cfg Config, db *sqlx.DB, log *slog.Logger) (*Keys, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if db == nil || log == nil {
		return nil, errors.New("idempotency: db and log are required")
	}
	return &Keys{cfg: cfg, db: db, log: log}, nil
}

const (
	// qClaim takes the key for this request: a new key, an expired one, or one whose first
	// request was abandoned. No row returned: someone else holds it.
	qClaim = `
INSERT INTO idempotency_keys (user_id, key, fingerprint, expires_at)
VALUES ($1, $2, $3, now() + make_interval(secs => $4))
ON CONFLICT (user_id, key) DO UPDATE
   SET fingerprint = EXCLUDED.fingerprint, status = NULL, content_type = '', body = NULL,
       created_at = now(), expires_at = EXCLUDED.expires_at
 WHERE idempotency_keys.expires_at < now()
    OR (idempotency_keys.status IS NULL AND idempotency_keys.created_at < now() - make_interval(secs => $5))
RETURNING true`
	qGet      = `SELECT fingerprint, status, content_type, body FROM idempotency_keys WHERE user_id = $1 AND key = $2`
	qComplete = `UPDATE idempotency_keys SET status = $3, content_type = $4, body = $5 WHERE user_id = $1 AND key = $2`
	qRelease  = `DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND status IS NULL`
	qSweep    = `DELETE FROM idempotency_keys WHERE expires_at < now()`
)

type stored struct {
	Fingerprint string        `db:"fingerprint"`
	Status      sql.NullInt64 `db:"status"`
	ContentType string        `db:"content_type"`
	Body        []byte        `db:"body"`
}

// Owner is whose keys a request's Idempotency-Key is among.
type Owner struct {
	// Account is the account acted in; it is part of the request's fingerprint.
	Account int64
	// Person is the users row the key is kept under.
	Person int64
	// Space keeps one kind of caller's keys apart from another's under the same person (an API
	// key's from its owner's sessions'); empty for sessions.
	Space string
}

// Once is the middleware of a creating route, behind the auth guard: with an Idempotency-Key
// header the request runs at most once per key, and repeats get its answer.
func (k *Keys) Once(next echo.HandlerFunc) echo.HandlerFunc { return k.OnceFor(sessionOwner)(next) }

// sessionOwner keeps a session's keys under the person signed in.
func sessionOwner(c echo.Context) (Owner, bool) {
	id := auth.Caller(c)
	if id == nil {
		return Owner{}, false
	}
	return Owner{Account: id.User.ID, Person: id.Person()}, true
}

// OnceFor is Once for callers that are not sessions (API keys): owner names whose keys the
// request's key is among, and false runs the request without one.
func (k *Keys) OnceFor(owner func(echo.Context) (Owner, bool)) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc { return k.once(owner, next) }
}

func (k *Keys) once(owner func(echo.Context) (Owner, bool), next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		key := c.Request().Header.Get(Header)
		o, ok := owner(c)
		if key == "" || !ok {
			return next(c)
		}
		if !ValidKey(key) {
			return envelope.Fail(http.StatusUnprocessableEntity, MsgBadKey, envelope.FieldError{Field: Header, Message: MsgBadKey})
		}
		r := c.Request()
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return err // the body limit's 413, or a broken connection
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		fp := fingerprint(o.Account, r.Method, r.URL.RequestURI(), body)
		user, key := o.Person, o.Space+key

		ctx := r.Context()
		deadline := time.Now().Add(k.cfg.Wait)
		pause := 20 * time.Millisecond
		for {
			var claimed bool
			err := k.db.GetContext(ctx, &claimed, qClaim, user, key, fp, k.cfg.TTL.Seconds(), k.cfg.Abandoned.Seconds())
			if err == nil {
				return k.run(c, next, user, key)
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("claim idempotency key: %w", err)
			}
			var s stored
			err = k.db.GetContext(ctx, &s, qGet, user, key)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				continue // the first request failed and let the key go: run this one
			case err != nil:
				return fmt.Errorf("read idempotency key: %w", err)
			case s.Fingerprint != fp:
				return envelope.Fail(http.StatusUnprocessableEntity, MsgMismatch, envelope.FieldError{Field: Header, Message: MsgMismatch})
			case s.Status.Valid:
				c.Response().Header().Set(ReplayedHeader, "true")
				return c.Blob(int(s.Status.Int64), s.ContentType, s.Body)
			}
			// The first request is still running: wait for its answer.
			if time.Now().After(deadline) {
				e := envelope.Fail(http.StatusConflict, MsgRunning)
				e.Header = http.Header{"Retry-After": []string{"1"}}
				return e
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(pause):
			}
			pause = min(2*pause, 250*time.Millisecond)
		}
	}
}

// run runs the request that holds the key and keeps its answer when it succeeded; otherwise it
// lets the key go, so that a retry runs again.
func (k *Keys) run(c echo.Context, next echo.HandlerFunc, user int64, key string) error {
	res := c.Response()
	rec := &recorder{ResponseWriter: res.Writer}
	res.Writer = rec
	err := next(c)
	res.Writer = rec.ResponseWriter
	// The answer is written (or the request failed): record it even if the client went away.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), 5*time.Second)
	defer cancel()
	if err == nil && res.Committed && res.Status >= 200 && res.Status < 300 && !rec.overflow {
		if _, derr := k.db.ExecContext(ctx, qComplete, user, key, res.Status, res.Header().Get(echo.HeaderContentType), rec.body.Bytes()); derr != nil {
			k.log.Error("keep idempotent answer", "err", derr, "key", key)
		}
		return nil
	}
	if _, derr := k.db.ExecContext(ctx, qRelease, user, key); derr != nil {
		k.log.Error("release idempotency key", "err", derr, "key", key)
	}
	return err
}

// Sweep deletes expired keys and says how many.
func (k *Keys) Sweep(ctx context.Context) (int, error) {
	res, err := k.db.ExecContext(ctx, qSweep)
	if err != nil {
		return 0, fmt.Errorf("sweep idempotency keys: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// Run sweeps expired keys every hour until ctx ends.
func (k *Keys) Run(ctx context.Context) error {
	return periodic.Run(ctx, time.Hour, k.log, k.Sweep, "idempotency key sweep", "expired idempotency keys removed")
}

// ValidKey reports whether key is a usable Idempotency-Key: at most MaxKeyLen visible ASCII characters.
func ValidKey(key string) bool {
	if len(key) > MaxKeyLen {
		return false
	}
	for i := range len(key) {
		if key[i] < 0x21 || key[i] > 0x7e {
			return false
		}
	}
	return true
}

// fingerprint is what makes two requests the same request: the account acted in, the method, the
// path with its query, and the body.
func fingerprint(account int64, method, uri string, body []byte) string {
	h := sha256.New()
	h.Write([]byte(strconv.FormatInt(account, 10) + "\x00" + method + "\x00" + uri + "\x00"))
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// recorder copies the answer's body as it is written, up to maxStored.
type recorder struct {
	http.ResponseWriter
	body     bytes.Buffer
	overflow bool
}

func (r *recorder) Write(b []byte) (int, error) {
	if !r.overflow {
		if r.body.Len()+len(b) > maxStored {
			r.overflow = true
			r.body.Reset()
		} else {
			r.body.Write(b)
		}
	}
	return r.ResponseWriter.Write(b)
}
