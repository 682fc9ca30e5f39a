package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// tfaState is a user's two-factor secrets.
type tfaState struct {
	Secret   sql.NullString `db:"tfa_secret"`
	Pending  sql.NullString `db:"tfa_pending_secret"`
	LastStep int64          `db:"tfa_last_step"`
}

func (s *Store) tfaState(ctx context.Context, userID int64) (tfaState, error) {
	var st tfaState
	const q = `SELECT tfa_secret, tfa_pending_secret, tfa_last_step FROM users WHERE id = $1`
	if err := s.db.GetContext(ctx, &st, q, userID); err != nil {
		return st, fmt.Errorf("load two-factor state: %w", err)
	}
	return st, nil
}

func (s *Store) setPendingSecret(ctx context.Context, userID int64, secret string) error {
	const q = `UPDATE users SET tfa_pending_secret = $2 WHERE id = $1 AND NOT tfa_enable`
	if _, err := s.db.ExecContext(ctx, q, userID, secret); err != nil {
		return fmt.Errorf("store pending two-factor secret: %w", err)
	}
	return nil
}

// errCodeUsed means the code's time step, or a later one, was already accepted.
var errCodeUsed = errors.New("two-factor code already used")

// spendStep accepts time step once: it must be later than the last accepted step.
func (s *Store) spendStep(ctx context.Context, userID, step int64) error {
	const q = `UPDATE users SET tfa_last_step = $2 WHERE id = $1 AND tfa_last_step < $2`
	res, err := s.db.ExecContext(ctx, q, userID, step)
	if err != nil {
		return fmt.Errorf("spend two-factor code: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errCodeUsed
	}
	return nil
}

// enableTFA turns two-factor on with the pending secret, whose code at step was just checked, and
// stores the recovery code hashes, in one transaction.
func (s *Store) enableTFA(ctx context.Context, userID int64, secret string, step int64, recoveryHashes [][]byte) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	const enable = `
UPDATE users SET tfa_enable = true, tfa_confirm = true, tfa_secret = $2, tfa_pending_secret = NULL,
       tfa_last_step = $3, updated_at = now()
WHERE id = $1 AND NOT tfa_enable AND tfa_pending_secret = $2 AND tfa_last_step < $3`
	res, err := tx.ExecContext(ctx, enable, userID, secret, step)
	if err != nil {
		return fmt.Errorf("enable two-factor: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errCodeUsed
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM tfa_recovery_codes WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("clear recovery codes: %w", err)
	}
	for _, h := range recoveryHashes {
		if _, err := tx.ExecContext(ctx, `INSERT INTO tfa_recovery_codes (user_id, code_hash) VALUES ($1, $2)`, userID, h); err != nil {
			return fmt.Errorf("store recovery code: %w", err)
		}
	}
	return tx.Commit()
}

// disableTFA turns two-factor off and drops its secrets and recovery codes.
func (s *Store) disableTFA(ctx context.Context, userID int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	const off = `
UPDATE users SET tfa_enable = false, tfa_confirm = false, tfa_secret = NULL, tfa_pending_secret = NULL, updated_at = now()
WHERE id = $1`
	if _, err := tx.ExecContext(ctx, off, userID); err != nil {
		return fmt.Errorf("disable two-factor: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM tfa_recovery_codes WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("clear recovery codes: %w", err)
	}
	return tx.Commit()
}

// spendRecoveryCode marks an unused recovery code of the user used.
func (s *Store) spendRecoveryCode(ctx context.Context, userID int64, hash []byte) error {
	const q = `UPDATE tfa_recovery_codes SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL`
	res, err := s.db.ExecContext(ctx, q, userID, hash)
	if err != nil {
		return fmt.Errorf("spend recovery code: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errCodeUsed
	}
	return nil
}
