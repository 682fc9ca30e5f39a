package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/lib/pq"

	"github.com/pressroom/pressroom/platform/database"
)

// Purposes of e-mailed links.
const (
	purposeReset  = "reset_password"
	purposeVerify = "verify_email"
	// purposeChangeEmail links are sent to a new address; spending one makes it the account's.
	purposeChangeEmail = "change_email"
)

// errEmailTaken means another account has the address.
var errEmailTaken = errors.New("email taken")

// errBadLink means an e-mailed link is unknown, expired, already used or for another address.
var errBadLink = errors.New("link not valid")

// createUser adds a seller account and returns its id.
func (s *Store) createUser(ctx context.Context, name, email, hash string) (int64, error) {
	const q = `
INSERT INTO users (name, email, password_hash, roles, status)
VALUES ($1, $2, $3, '{seller}', 'new')
RETURNING id`
	var id int64
	err := s.db.GetContext(ctx, &id, q, name, email, hash)
	if database.UniqueViolation(err) {
		return 0, errEmailTaken
	}
	if err != nil {
		return 0, fmt.Errorf("create user: %w", err)
	}
	return id, nil
}

// createLink stores the hash of an e-mailed link's token for user and address.
func (s *Store) createLink(ctx context.Context, userID int64, purpose, email string, hash []byte, ttl time.Duration) error {
	const q = `
INSERT INTO email_tokens (user_id, purpose, token_hash, email, expires_at)
VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`
	if _, err := s.db.ExecContext(ctx, q, userID, purpose, hash, email, ttl.Seconds()); err != nil {
		return fmt.Errorf("create %s link: %w", purpose, err)
	}
	return nil
}

// spentLink is what spending an e-mailed link tells: whose it was, what for and the address it was
// sent to.
type spentLink struct {
	UserID  int64
	Purpose string
	Email   string
}

// spendLink marks the live link of hash used, within tx, if it is for one of purposes. A link whose
// address is no longer the user's is refused, so a link sent before an e-mail change cannot verify
// or reset the new address; a change-of-address link is sent to the address the user does not have
// yet, so it is checked by the caller instead.
func spendLink(ctx context.Context, tx *sql.Tx, hash []byte, purposes ...string) (spentLink, error) {
	const q = `
UPDATE email_tokens t SET used_at = now()
FROM users u
WHERE t.token_hash = $1 AND t.purpose = ANY($2) AND t.used_at IS NULL AND t.expires_at > now()
  AND u.id = t.user_id AND (t.purpose = 'change_email' OR lower(u.email) = lower(t.email))
RETURNING t.user_id, t.purpose, t.email`
	var l spentLink
	err := tx.QueryRowContext(ctx, q, hash, pq.Array(purposes)).Scan(&l.UserID, &l.Purpose, &l.Email)
	if errors.Is(err, sql.ErrNoRows) {
		return l, errBadLink
	}
	if err != nil {
		return l, fmt.Errorf("spend link: %w", err)
	}
	return l, nil
}

// liveLink reports whether the link of hash is live (unused, unexpired, for one of purposes and the
// user's current address); the caller still spends it atomically later (spendLink).
func (s *Store) liveLink(ctx context.Context, hash []byte, purposes ...string) (bool, error) {
	const q = `
SELECT EXISTS (
    SELECT 1 FROM email_tokens t JOIN users u ON u.id = t.user_id
    WHERE t.token_hash = $1 AND t.purpose = ANY($2) AND t.used_at IS NULL AND t.expires_at > now()
      AND (t.purpose = 'change_email' OR lower(u.email) = lower(t.email)))`
	var ok bool
	if err := s.db.GetContext(ctx, &ok, q, hash, pq.Array(purposes)); err != nil {
		return false, fmt.Errorf("look up link: %w", err)
	}
	return ok, nil
}

// resetPassword spends a reset link, sets the password hash, retires the user's other reset links
// and revokes every session of the user, in one transaction.
func (s *Store) resetPassword(ctx context.Context, linkHash []byte, passwordHash string) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	link, err := spendLink(ctx, tx, linkHash, purposeReset)
	if err != nil {
		return 0, err
	}
	uid := link.UserID
	const (
		setHash = `UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`
		retire  = `UPDATE email_tokens SET used_at = now() WHERE user_id = $1 AND purpose = 'reset_password' AND used_at IS NULL`
		revoke  = `UPDATE sessions SET revoked_at = now() WHERE (user_id = $1 OR origin_user_id = $1) AND revoked_at IS NULL`
	)
	if _, err := tx.ExecContext(ctx, setHash, uid, passwordHash); err != nil {
		return 0, fmt.Errorf("reset password: %w", err)
	}
	for _, q := range []string{retire, revoke} {
		if _, err := tx.ExecContext(ctx, q, uid); err != nil {
			return 0, fmt.Errorf("reset password: %w", err)
		}
	}
	return uid, tx.Commit()
}

// confirmEmail spends a verification or change-of-address link. A verification link marks the
// user's address verified; a change link makes the address it was sent to the user's, verified (it
// proved the user reads it), or fails with errEmailTaken when another account took the address since.
func (s *Store) confirmEmail(ctx context.Context, linkHash []byte) (spentLink, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return spentLink{}, err
	}
	defer tx.Rollback()
	link, err := spendLink(ctx, tx, linkHash, purposeVerify, purposeChangeEmail)
	if err != nil {
		return link, err
	}
	const (
		verify = `UPDATE users SET email_verified_at = coalesce(email_verified_at, now()), updated_at = now() WHERE id = $1`
		change = `UPDATE users SET email = $2, email_verified_at = now(), updated_at = now() WHERE id = $1`
	)
	if link.Purpose == purposeChangeEmail {
		_, err = tx.ExecContext(ctx, change, link.UserID, link.Email)
	} else {
		_, err = tx.ExecContext(ctx, verify, link.UserID)
	}
	if database.UniqueViolation(err) {
		return link, errEmailTaken
	}
	if err != nil {
		return link, fmt.Errorf("confirm email: %w", err)
	}
	return link, tx.Commit()
}

// createChangeLink retires the user's earlier change-of-address links and stores the hash of a new
// one for the address email, in one statement, so only the newest request can change the address.
func (s *Store) createChangeLink(ctx context.Context, userID int64, email string, hash []byte, ttl time.Duration) error {
	const q = `
WITH retired AS (
    UPDATE email_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL
)
INSERT INTO email_tokens (user_id, purpose, token_hash, email, expires_at)
VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`
	if _, err := s.db.ExecContext(ctx, q, userID, purposeChangeEmail, hash, email, ttl.Seconds()); err != nil {
		return fmt.Errorf("create %s link: %w", purposeChangeEmail, err)
	}
	return nil
}

// setPassword replaces the password hash and revokes the user's sessions except keep.
func (s *Store) setPassword(ctx context.Context, userID int64, hash string, keep int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, userID, hash); err != nil {
		return fmt.Errorf("set password: %w", err)
	}
	const revoke = `UPDATE sessions SET revoked_at = now() WHERE (user_id = $1 OR origin_user_id = $1) AND id <> $2 AND revoked_at IS NULL`
	if _, err := tx.ExecContext(ctx, revoke, userID, keep); err != nil {
		return fmt.Errorf("revoke sessions: %w", err)
	}
	return tx.Commit()
}

// passwordHash returns the user's password hash.
func (s *Store) passwordHash(ctx context.Context, userID int64) (string, error) {
	var h string
	if err := s.db.GetContext(ctx, &h, `SELECT password_hash FROM users WHERE id = $1`, userID); err != nil {
		return "", fmt.Errorf("load password hash: %w", err)
	}
	return h, nil
}
