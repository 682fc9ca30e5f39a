package paymentaccounts

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/seal"
)

// Errors of the store boundary.
var (
	// ErrNotFound: no such account of the seller.
	ErrNotFound = errors.New("payment account not found")
	// ErrBadLink: no account waits for this confirmation link (unknown, replaced by a newer link, or
	// the account was marked invalid since).
	ErrBadLink = errors.New("confirmation link not valid")
	// ErrExpired: the confirmation link is too old.
	ErrExpired = errors.New("confirmation link expired")
	// ErrNotValid: the account is not confirmed.
	ErrNotValid = errors.New("payment account not valid")
	// ErrAlreadyValid: the account is confirmed; there is nothing to send.
	ErrAlreadyValid = errors.New("payment account already valid")
	// ErrTooSoon: a link was sent less than resendAfter ago.
	ErrTooSoon = errors.New("a link was sent a moment ago")
	// ErrOpenPayout: a payout in progress goes to the account.
	ErrOpenPayout = errors.New("a payout in progress goes to the account")
)

// resendAfter is how long after a link another may be sent.
const resendAfter = time.Minute

// Account is a payment account as the screens show it: its sensitive fields masked.
type Account struct {
	ID          int64  `db:"id" json:"id"`
	Method      string `db:"method" json:"method"`
	MethodLabel string `db:"-" json:"method_label"`
	Label       string `db:"label" json:"label"`
	// Fields are the plain fields and the masked sensitive ones, by name.
	Fields           map[string]string `db:"-" json:"fields"`
	DetailsJSON      []byte            `db:"details" json:"-"`
	HintsJSON        []byte            `db:"secrets_hint" json:"-"`
	Status           string            `db:"status" json:"status"`
	StatusNote       string            `db:"status_note" json:"status_note"`
	IsDefault        bool              `db:"is_default" json:"is_default"`
	ConfirmSentAt    *time.Time        `db:"confirm_sent_at" json:"confirm_sent_at"`
	ConfirmExpiresAt *time.Time        `db:"confirm_expires_at" json:"confirm_expires_at"`
	ConfirmedAt      *time.Time        `db:"confirmed_at" json:"confirmed_at"`
	CreatedAt        time.Time         `db:"created_at" json:"created_at"`
	UpdatedAt        time.Time         `db:"updated_at" json:"updated_at"`
	SellerID         int64             `db:"seller_id" json:"-"`
	Sealed           []byte            `db:"secrets_sealed" json:"-"`
}

// fill reads the stored JSON into Fields.
func (a *Account) fill() error {
	details, hints := map[string]string{}, map[string]string{}
	if err := json.Unmarshal(a.DetailsJSON, &details); err != nil {
		return err
	}
	if err := json.Unmarshal(a.HintsJSON, &hints); err != nil {
		return err
	}
	maps.Copy(details, hints)
	a.Fields = details
	if m, ok := methodOf(a.Method); ok {
		a.MethodLabel = m.Label
	}
	return nil
}

const accountColumns = `id, seller_id, method, label, details, secrets_hint, secrets_sealed, status, status_note, is_default,
confirm_sent_at, confirm_expires_at, confirmed_at, created_at, updated_at`

type store struct {
	db *sqlx.DB
}

func secretsLabel(id int64) string { return "payment-account:" + strconv.FormatInt(id, 10) }

// openSecrets reads an account's sensitive values.
func openSecrets(box *seal.Box, a Account) (map[string]string, error) {
	plain, err := box.Open(secretsLabel(a.ID), a.Sealed)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	return out, json.Unmarshal([]byte(plain), &out)
}

func (s store) list(ctx context.Context, seller int64) ([]Account, error) {
	out := []Account{}
	if err := s.db.SelectContext(ctx, &out, `SELECT `+accountColumns+` FROM payment_accounts WHERE seller_id = $1 ORDER BY id DESC`, seller); err != nil {
		return nil, fmt.Errorf("payment accounts: %w", err)
	}
	for i := range out {
		if err := out[i].fill(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// get answers the account id of seller (any seller's when seller is 0, for admins).
func (s store) get(ctx context.Context, q sqlx.QueryerContext, seller, id int64, lock bool) (Account, error) {
	query := `SELECT ` + accountColumns + ` FROM payment_accounts WHERE id = $1 AND ($2 = 0 OR seller_id = $2)`
	if lock {
		query += ` FOR UPDATE`
	}
	var a Account
	if err := sqlx.GetContext(ctx, q, &a, query, id, seller); errors.Is(err, sql.ErrNoRows) {
		return Account{}, ErrNotFound
	} else if err != nil {
		return Account{}, err
	}
	return a, a.fill()
}

// lockSeller takes every account of the seller for the transaction, so that confirmations,
// default changes and deletions of one seller's accounts apply one after the other.
func lockSeller(ctx context.Context, tx *sqlx.Tx, seller int64) error {
	_, err := tx.ExecContext(ctx, `SELECT id FROM payment_accounts WHERE seller_id = $1 ORDER BY id FOR UPDATE`, seller)
	return err
}

// link is a confirmation link to store: the hash of its token and when it stops working.
type link struct {
	Hash    []byte
	Expires time.Time
}

// written is an account's stored form after a change.
type written struct {
	details, secrets map[string]string
}

// seal writes the sealed secrets, their masks and the label of account id.
func (w written) seal(box *seal.Box, id int64, m Method) (sealed []byte, hints []byte, details []byte, lbl string, err error) {
	plain, err := json.Marshal(w.secrets)
	if err != nil {
		return nil, nil, nil, "", err
	}
	if sealed, err = box.Seal(secretsLabel(id), string(plain)); err != nil {
		return nil, nil, nil, "", err
	}
	masked := map[string]string{}
	for k, v := range w.secrets {
		masked[k] = mask(v)
	}
	if hints, err = json.Marshal(masked); err != nil {
		return nil, nil, nil, "", err
	}
	if details, err = json.Marshal(w.details); err != nil {
		return nil, nil, nil, "", err
	}
	return sealed, hints, details, label(m, w.details, masked), nil
}

// add stores a new account of seller, waiting for its confirmation link l.
func (s store) add(ctx context.Context, box *seal.Box, seller, actor int64, c checked, l link) (int64, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var id int64
	if err := tx.GetContext(ctx, &id, `SELECT nextval('payment_accounts_id_seq')`); err != nil {
		return 0, err
	}
	sealed, hints, details, lbl, err := written{details: c.details, secrets: c.secrets}.seal(box, id, c.method)
	if err != nil {
		return 0, err
	}
	const q = `
INSERT INTO payment_accounts (id, seller_id, method, label, details, secrets_sealed, secrets_hint, confirm_token_hash,
	confirm_sent_at, confirm_expires_at, created_by)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now(), $9, $10)`
	if _, err := tx.ExecContext(ctx, q, id, seller, c.method.Code, lbl, details, sealed, hints, l.Hash, l.Expires, actor); err != nil {
		return 0, fmt.Errorf("add payment account: %w", err)
	}
	return id, tx.Commit()
}

// change applies c to account id of seller. An account whose fields change is new again, no longer
// the default, and waits for the confirmation link l; one whose fields stay as they are is left
// alone (changed false).
func (s store) change(ctx context.Context, box *seal.Box, seller, id int64, c checked, l link) (changed bool, err error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	if err := lockSeller(ctx, tx, seller); err != nil {
		return false, err
	}
	old, err := s.get(ctx, tx, seller, id, false)
	if err != nil {
		return false, err
	}
	secrets, err := openSecrets(box, old)
	if err != nil {
		return false, err
	}
	oldDetails := map[string]string{}
	if err := json.Unmarshal(old.DetailsJSON, &oldDetails); err != nil {
		return false, err
	}
	merged := maps.Clone(secrets)
	maps.Copy(merged, c.secrets)
	if maps.Equal(merged, secrets) && maps.Equal(c.details, oldDetails) {
		return false, nil
	}
	sealed, hints, details, lbl, err := written{details: c.details, secrets: merged}.seal(box, id, c.method)
	if err != nil {
		return false, err
	}
	const q = `
UPDATE payment_accounts SET label = $2, details = $3, secrets_sealed = $4, secrets_hint = $5, status = 'new', status_note = '',
	is_default = false, confirm_token_hash = $6, confirm_sent_at = now(), confirm_expires_at = $7, confirmed_at = NULL, updated_at = now()
WHERE id = $1`
	if _, err := tx.ExecContext(ctx, q, id, lbl, details, sealed, hints, l.Hash, l.Expires); err != nil {
		return false, fmt.Errorf("change payment account: %w", err)
	}
	return true, tx.Commit()
}

// confirm spends a confirmation link of seller's: the account it was sent for becomes valid, and
// the default when the seller has none. A link already spent answers its account with changed
// false; one sent for an account changed or marked invalid since answers ErrBadLink.
func (s store) confirm(ctx context.Context, seller int64, hash []byte) (a Account, changed bool, err error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return Account{}, false, err
	}
	defer tx.Rollback()
	if err := lockSeller(ctx, tx, seller); err != nil {
		return Account{}, false, err
	}
	var id int64
	err = tx.GetContext(ctx, &id, `SELECT id FROM payment_accounts WHERE confirm_token_hash = $1 AND seller_id = $2`, hash, seller)
	if errors.Is(err, sql.ErrNoRows) {
		return Account{}, false, ErrBadLink
	} else if err != nil {
		return Account{}, false, err
	}
	if a, err = s.get(ctx, tx, seller, id, false); err != nil {
		return Account{}, false, err
	}
	switch {
	case a.Status == "valid":
		return a, false, nil
	case a.Status != "new":
		return Account{}, false, ErrBadLink
	case a.ConfirmExpiresAt == nil || !a.ConfirmExpiresAt.After(time.Now()):
		return Account{}, false, ErrExpired
	}
	const q = `
UPDATE payment_accounts SET status = 'valid', confirmed_at = now(), updated_at = now(),
	is_default = NOT EXISTS (SELECT 1 FROM payment_accounts d WHERE d.seller_id = $2 AND d.is_default)
WHERE id = $1`
	if _, err := tx.ExecContext(ctx, q, id, seller); err != nil {
		return Account{}, false, fmt.Errorf("confirm payment account: %w", err)
	}
	if a, err = s.get(ctx, tx, seller, id, false); err != nil {
		return Account{}, false, err
	}
	return a, true, tx.Commit()
}

// resend gives account id a new confirmation link l, the old one no longer working.
func (s store) resend(ctx context.Context, seller, id int64, l link) (Account, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return Account{}, err
	}
	defer tx.Rollback()
	a, err := s.get(ctx, tx, seller, id, true)
	if err != nil {
		return Account{}, err
	}
	switch {
	case a.Status == "valid":
		return Account{}, ErrAlreadyValid
	case a.Status == "invalid":
		return Account{}, ErrNotValid
	case a.ConfirmSentAt != nil && time.Since(*a.ConfirmSentAt) < resendAfter:
		return Account{}, ErrTooSoon
	}
	const q = `UPDATE payment_accounts SET confirm_token_hash = $2, confirm_sent_at = now(), confirm_expires_at = $3, updated_at = now() WHERE id = $1`
	if _, err := tx.ExecContext(ctx, q, id, l.Hash, l.Expires); err != nil {
		return Account{}, err
	}
	return a, tx.Commit()
}

// setDefault makes the valid account id the seller's default.
func (s store) setDefault(ctx context.Context, seller, id int64) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := lockSeller(ctx, tx, seller); err != nil {
		return err
	}
	a, err := s.get(ctx, tx, seller, id, false)
	if err != nil {
		return err
	}
	if a.Status != "valid" {
		return ErrNotValid
	}
	if _, err := tx.ExecContext(ctx, `UPDATE payment_accounts SET is_default = false WHERE seller_id = $1 AND is_default AND id <> $2`, seller, id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE payment_accounts SET is_default = true, updated_at = now() WHERE id = $1`, id); err != nil {
		return err
	}
	return tx.Commit()
}

// remove deletes account id unless a payout in progress goes to it.
func (s store) remove(ctx context.Context, seller, id int64) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := s.get(ctx, tx, seller, id, true); err != nil {
		return err
	}
	var open bool
	const qOpen = `SELECT EXISTS (SELECT 1 FROM payouts WHERE payment_account_id = $1 AND status IN ('pending', 'processing', 'on_hold'))`
	if err := tx.GetContext(ctx, &open, qOpen, id); err != nil {
		return err
	}
	if open {
		return ErrOpenPayout
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM payment_accounts WHERE id = $1`, id); err != nil {
		return fmt.Errorf("delete payment account: %w", err)
	}
	return tx.Commit()
}

// invalidate marks account id invalid with the reason the seller reads, and tells the seller in
// the same transaction.
func (s store) invalidate(ctx context.Context, id int64, note string) (Account, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return Account{}, err
	}
	defer tx.Rollback()
	a, err := s.get(ctx, tx, 0, id, true)
	if err != nil {
		return Account{}, err
	}
	const q = `UPDATE payment_accounts SET status = 'invalid', status_note = $2, is_default = false, updated_at = now() WHERE id = $1`
	if _, err := tx.ExecContext(ctx, q, id, note); err != nil {
		return Account{}, err
	}
	const qNotify = `INSERT INTO notifications (seller_id, subject, message, call_to_action_link, type, is_warning)
VALUES ($1, 'Payment account invalid', $2, '/settings/payment-account', 1, true)`
	if _, err := tx.ExecContext(ctx, qNotify, a.SellerID, a.Label+" cannot be paid: "+note+" Change its details or add another account."); err != nil {
		return Account{}, fmt.Errorf("notify seller: %w", err)
	}
	if a, err = s.get(ctx, tx, 0, id, false); err != nil {
		return Account{}, err
	}
	return a, tx.Commit()
}

// owner is the seller an account's confirmation goes to.
type owner struct {
	Name  string `db:"name"`
	Email string `db:"email"`
}

func (s store) owner(ctx context.Context, seller int64) (owner, error) {
	var o owner
	err := s.db.GetContext(ctx, &o, `SELECT name, email FROM users WHERE id = $1`, seller)
	return o, err
}

// AddConfirmed gives seller the account in as a confirmed default one, in tx, unless they have an
// account already: the demo seed's, whose seller has no inbox to confirm from.
func AddConfirmed(ctx context.Context, tx *sqlx.Tx, box *seal.Box, seller int64, in Input) error {
	var has bool
	if err := tx.GetContext(ctx, &has, `SELECT EXISTS (SELECT 1 FROM payment_accounts WHERE seller_id = $1)`, seller); err != nil || has {
		return err
	}
	c, errs := in.check(nil)
	if len(errs) > 0 {
		return fmt.Errorf("payment account: %s: %s", errs[0].Field, errs[0].Message)
	}
	var id int64
	if err := tx.GetContext(ctx, &id, `SELECT nextval('payment_accounts_id_seq')`); err != nil {
		return err
	}
	sealed, hints, details, lbl, err := written{details: c.details, secrets: c.secrets}.seal(box, id, c.method)
	if err != nil {
		return err
	}
	const q = `
INSERT INTO payment_accounts (id, seller_id, method, label, details, secrets_sealed, secrets_hint, status, is_default, confirmed_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, 'valid', true, now())`
	_, err = tx.ExecContext(ctx, q, id, seller, c.method.Code, lbl, details, sealed, hints)
	return err
}
