package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/pressroom/pressroom/platform/database"
)

// Purposes of e-mailed links.
const (
	purposeReset  = "reset_password"
	purposeVerify = "verify_email"
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

// spendLink marks the live link of hash used, within tx, and returns its user. A link whose
// address is no longer the user's is refused, so a link sent before an e-mail change cannot verify
// or reset the new address.
func spendLink(ctx context.Context, tx *sql.Tx, purpose string, hash []byte) (int64, error) {
	const q = `
UPDATE email_tokens t SET used_at = now()
FROM users u
WHERE t.token_hash = $1 AND t.purpose = $2 AND t.used_at IS NULL AND t.expires_at > now()
  AND u.id = t.user_id AND lower(u.email) = lower(t.email)
RETURNING t.user_id`
	var uid int64
	err := tx.QueryRowContext(ctx, q, hash, purpose).Scan(&uid)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, errBadLink
	}
	if err != nil {
		return 0, fmt.Errorf("spend %s link: %w", purpose, err)
	}
	return uid, nil
}

// resetPassword spends a reset link, sets the password hash, retires the user's other reset links
// and revokes every session of the user, in one transaction.
func (s *Store) resetPassword(ctx context.Context, linkHash []byte, passwordHash string) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	uid, err := spendLink(ctx, tx, purposeReset, linkHash)
	if err != nil {
		return 0, err
	}
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

// verifyEmail spends a verification link and marks the user's address verified.
func (s *Store) verifyEmail(ctx context.Context, linkHash []byte) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	uid, err := spendLink(ctx, tx, purposeVerify, linkHash)
	if err != nil {
		return 0, err
	}
	const q = `UPDATE users SET email_verified_at = coalesce(email_verified_at, now()), updated_at = now() WHERE id = $1`
	if _, err := tx.ExecContext(ctx, q, uid); err != nil {
		return 0, fmt.Errorf("verify email: %w", err)
	}
	return uid, tx.Commit()
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
