package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/commerce/money"
)

// PayoutStatus is where a payout stands.
type PayoutStatus string

// The payout statuses.
const (
	PayoutPending    PayoutStatus = "pending"
	PayoutProcessing PayoutStatus = "processing"
	PayoutCompleted  PayoutStatus = "completed"
	PayoutOnHold     PayoutStatus = "on_hold"
	PayoutCancelled  PayoutStatus = "cancelled"
)

// PayoutStatuses lists them in the order a payout goes through them.
var PayoutStatuses = []PayoutStatus{PayoutPending, PayoutProcessing, PayoutCompleted, PayoutOnHold, PayoutCancelled}

// Step is what an admin does to a payout.
type Step string

// The steps.
const (
	StepApprove  Step = "approve"
	StepComplete Step = "complete"
	StepHold     Step = "hold"
	StepCancel   Step = "cancel"
)

// Steps lists the steps in the order the admin screen offers them.
var Steps = []Step{StepApprove, StepComplete, StepHold, StepCancel}

// stepRule is one step: the statuses it starts from and the one it leads to.
type stepRule struct {
	from []PayoutStatus
	to   PayoutStatus
}

// stepRules is the payout's status machine.
var stepRules = map[Step]stepRule{
	StepApprove:  {[]PayoutStatus{PayoutPending, PayoutOnHold}, PayoutProcessing},
	StepComplete: {[]PayoutStatus{PayoutProcessing}, PayoutCompleted},
	StepHold:     {[]PayoutStatus{PayoutPending, PayoutProcessing}, PayoutOnHold},
	StepCancel:   {[]PayoutStatus{PayoutPending, PayoutProcessing, PayoutOnHold}, PayoutCancelled},
}

// AllowedSteps are the steps a payout in status s may take now.
func AllowedSteps(s PayoutStatus) []Step {
	out := []Step{}
	for _, st := range Steps {
		if slices.Contains(stepRules[st].from, s) {
			out = append(out, st)
		}
	}
	return out
}

// Errors of payouts.
var (
	// ErrPayoutOpen: the seller already has a payout pending, processing or on hold.
	ErrPayoutOpen = errors.New("a payout is already open")
	// ErrBelowMinimum: the amount is under the payout minimum.
	ErrBelowMinimum = errors.New("below the payout minimum")
	// ErrPayoutNotFound: no such payout (or not the seller's).
	ErrPayoutNotFound = errors.New("payout not found")
	// ErrStepRefused: the payout's status does not allow the step; the message names the status.
	ErrStepRefused = errors.New("step not allowed")
	// ErrNeedReference: completing a payout needs the payment's reference.
	ErrNeedReference = errors.New("a completed payout needs its payment reference")
	// ErrNoAccount: the payout names no valid payment account of the seller (or the seller has no
	// valid default account).
	ErrNoAccount = errors.New("no valid payment account to pay out to")
)

// Payout is a seller's request to be paid.
type Payout struct {
	ID          int64          `db:"id" json:"id"`
	SellerID    int64          `db:"seller_id" json:"seller_id"`
	Currency    money.Currency `db:"currency" json:"currency"`
	Amount      int64          `db:"amount" json:"amount"`
	Status      PayoutStatus   `db:"status" json:"status"`
	Reference   string         `db:"reference" json:"reference"`
	Note        string         `db:"note" json:"note"`
	CreatedAt   time.Time      `db:"created_at" json:"created_at"`
	UpdatedAt   time.Time      `db:"updated_at" json:"updated_at"`
	SellerName  string         `db:"seller_name" json:"seller_name"`
	SellerEmail string         `db:"seller_email" json:"seller_email"`
	// PaymentAccountID is the account it is paid to (nil: deleted since, or a payout from before
	// payment accounts); PaymentAccountLabel names it as it was when requested.
	PaymentAccountID    *int64 `db:"payment_account_id" json:"payment_account_id"`
	PaymentAccountLabel string `db:"payment_account_label" json:"payment_account_label"`
	// AllowedSteps are the steps an admin may take now.
	AllowedSteps []Step `db:"-" json:"allowed_steps"`
	// Withdrawable: the seller may still cancel it themselves (WithdrawPayout).
	Withdrawable bool `db:"-" json:"withdrawable"`
}

// withSteps fills in what may be done with p now.
func (p *Payout) withSteps() {
	p.AllowedSteps = AllowedSteps(p.Status)
	p.Withdrawable = p.Status == PayoutPending
}

func (p Payout) money() money.Money { return money.Money{Amount: p.Amount, Currency: p.Currency} }

const payoutColumns = `p.id, p.seller_id, p.currency, p.amount, p.status, p.reference, p.note, p.created_at, p.updated_at,
u.name AS seller_name, u.email AS seller_email, p.payment_account_id, p.payment_account_label`

// MaxNote bounds a payout's reference and note.
const MaxNote = 500

// RequestPayout asks for amount to be paid out to the seller's payment account accountID (0: their
// default one), in its own transaction: at least the payout minimum, at most what is available,
// only to a valid account of the seller (ErrNoAccount; the account is held for the transaction, so
// it cannot be deleted meanwhile), and only when the seller has no open payout. The amount moves
// from available to paying at once, so it cannot be spent twice; 50 requests at once make one
// payout (they queue on the balance row, and a unique index backs the rule).
func RequestPayout(ctx context.Context, db *sqlx.DB, sellerID, requestedBy, accountID int64, amount money.Money) (Payout, error) {
	if err := positive(amount); err != nil {
		return Payout{}, err
	}
	minimum, err := PayoutMinimum(ctx, db, amount.Currency)
	if err != nil {
		return Payout{}, err
	}
	if amount.Amount < minimum {
		return Payout{}, fmt.Errorf("%w: the least payout is %s", ErrBelowMinimum, money.Money{Amount: minimum, Currency: amount.Currency})
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return Payout{}, err
	}
	defer tx.Rollback()
	b, err := lock(ctx, tx, sellerID, amount.Currency)
	if err != nil {
		return Payout{}, err
	}
	var open int
	if err := tx.GetContext(ctx, &open, `SELECT count(*) FROM payouts WHERE seller_id = $1 AND status IN ('pending', 'processing', 'on_hold')`, sellerID); err != nil {
		return Payout{}, err
	}
	if open > 0 {
		return Payout{}, ErrPayoutOpen
	}
	if amount.Amount > b.Available {
		return Payout{}, fmt.Errorf("%w: %s is available", ErrInsufficient, money.Money{Amount: b.Available, Currency: b.Currency})
	}
	var to struct {
		ID    int64  `db:"id"`
		Label string `db:"label"`
	}
	const qAccount = `SELECT id, label FROM payment_accounts
WHERE seller_id = $1 AND status = 'valid' AND (id = $2 OR ($2 = 0 AND is_default)) FOR SHARE`
	if err := tx.GetContext(ctx, &to, qAccount, sellerID, accountID); errors.Is(err, sql.ErrNoRows) {
		return Payout{}, ErrNoAccount
	} else if err != nil {
		return Payout{}, err
	}
	var id int64
	const q = `INSERT INTO payouts (seller_id, currency, amount, requested_by, payment_account_id, payment_account_label)
VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`
	if err := tx.GetContext(ctx, &id, q, sellerID, string(amount.Currency), amount.Amount, requestedBy, to.ID, to.Label); err != nil {
		var pqErr *pq.Error
		if errors.As(err, &pqErr) && pqErr.Code == "23505" {
			return Payout{}, ErrPayoutOpen
		}
		return Payout{}, fmt.Errorf("record payout: %w", err)
	}
	e := Entry{SellerID: sellerID, Currency: amount.Currency, Type: TypePayout, DAvailable: -amount.Amount, DPaying: amount.Amount,
		PayoutID: &id, Key: fmt.Sprintf("payout:%d:requested", id), Description: fmt.Sprintf("Payout #%d of %s requested", id, amount)}
	if _, err := post(ctx, tx, b, e); err != nil {
		return Payout{}, err
	}
	p, err := payoutByID(ctx, tx, id, false)
	if err != nil {
		return Payout{}, err
	}
	if err := notify(ctx, tx, p, fmt.Sprintf("Payout #%d requested", id), fmt.Sprintf("Your payout of %s to %s was requested and waits for review.", amount, to.Label)); err != nil {
		return Payout{}, err
	}
	return p, tx.Commit()
}

func payoutByID(ctx context.Context, tx *sqlx.Tx, id int64, forUpdate bool) (Payout, error) {
	q := `SELECT ` + payoutColumns + ` FROM payouts p JOIN users u ON u.id = p.seller_id WHERE p.id = $1`
	if forUpdate {
		q += ` FOR UPDATE OF p`
	}
	var p Payout
	err := tx.GetContext(ctx, &p, q, id)
	if errors.Is(err, sql.ErrNoRows) {
		return Payout{}, ErrPayoutNotFound
	}
	p.withSteps()
	return p, err
}

// notify tells the seller of a payout's step in the dashboard's notifications, in its transaction.
func notify(ctx context.Context, tx *sqlx.Tx, p Payout, subject, message string) error {
	const q = `INSERT INTO notifications (seller_id, subject, message, call_to_action_link, type) VALUES ($1, $2, $3, '/payouts', 1)`
	if _, err := tx.ExecContext(ctx, q, p.SellerID, subject, message); err != nil {
		return fmt.Errorf("notify seller: %w", err)
	}
	return nil
}

// StepPayout moves payout id by step in its own transaction, with a ledger entry and a notification
// to the seller: approving and holding move no money; completing pays the amount out (reference is
// the payment's, required); cancelling makes the amount available again. A step the status does not
// allow answers ErrStepRefused; repeating the step that led to the current status answers the
// payout unchanged, so a double click does one step.
func StepPayout(ctx context.Context, db *sqlx.DB, id int64, step Step, actorID int64, reference, note string) (Payout, error) {
	return stepPayout(ctx, db, id, step, actorID, reference, note, 0)
}

// WithdrawPayout is the seller cancelling their own payout while it is pending, before an admin
// takes it up: the amount is available again at once, as when an admin cancels it. Once the payout
// is processing or on hold it answers ErrStepRefused; another seller's payout is ErrPayoutNotFound.
// Withdrawing a payout already cancelled answers it unchanged. The seller, who did it, is not notified.
func WithdrawPayout(ctx context.Context, db *sqlx.DB, sellerID, id, actorID int64) (Payout, error) {
	return stepPayout(ctx, db, id, StepCancel, actorID, "", "", sellerID)
}

// stepPayout is StepPayout by an admin (seller 0) or WithdrawPayout by the seller.
func stepPayout(ctx context.Context, db *sqlx.DB, id int64, step Step, actorID int64, reference, note string, seller int64) (Payout, error) {
	rule, ok := stepRules[step]
	if !ok {
		return Payout{}, fmt.Errorf("%w: unknown step %q", ErrStepRefused, step)
	}
	reference, note = strings.TrimSpace(reference), strings.TrimSpace(note)
	if len(reference) > MaxNote || len(note) > MaxNote {
		return Payout{}, invalid("the reference and the note may have at most %d characters", MaxNote)
	}
	if step == StepComplete && reference == "" {
		return Payout{}, ErrNeedReference
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return Payout{}, err
	}
	defer tx.Rollback()
	p, err := payoutByID(ctx, tx, id, true)
	if err != nil {
		return Payout{}, err
	}
	if seller != 0 {
		switch {
		case p.SellerID != seller:
			return Payout{}, ErrPayoutNotFound
		case p.Status != PayoutPending && p.Status != rule.to:
			return Payout{}, fmt.Errorf("%w: the payout is %s", ErrStepRefused, strings.ReplaceAll(string(p.Status), "_", " "))
		}
	}
	if p.Status == rule.to {
		return p, nil
	}
	if !slices.Contains(rule.from, p.Status) {
		return Payout{}, fmt.Errorf("%w: the payout is %s", ErrStepRefused, strings.ReplaceAll(string(p.Status), "_", " "))
	}
	b, err := lock(ctx, tx, p.SellerID, p.Currency)
	if err != nil {
		return Payout{}, err
	}
	var steps int
	if err := tx.GetContext(ctx, &steps, `SELECT count(*) FROM ledger_entries WHERE payout_id = $1`, id); err != nil {
		return Payout{}, err
	}
	e := Entry{SellerID: p.SellerID, Currency: p.Currency, Type: TypePayout, PayoutID: &p.ID, ActorID: &actorID,
		Key: fmt.Sprintf("payout:%d:%d:%s", id, steps, step)}
	amount := p.money()
	var subject, message string
	switch step {
	case StepApprove:
		e.Description = fmt.Sprintf("Payout #%d approved, being processed", id)
		subject, message = fmt.Sprintf("Payout #%d approved", id), fmt.Sprintf("Your payout of %s is being processed.", amount)
	case StepHold:
		e.Description = fmt.Sprintf("Payout #%d on hold", id)
		subject, message = fmt.Sprintf("Payout #%d on hold", id), fmt.Sprintf("Your payout of %s is on hold.", amount)
	case StepComplete:
		e.DPaying, e.Reference = -p.Amount, reference
		e.Description = fmt.Sprintf("Payout #%d of %s paid (reference %s)", id, amount, reference)
		subject, message = fmt.Sprintf("Payout #%d paid", id), fmt.Sprintf("Your payout of %s was paid, reference %s.", amount, reference)
	case StepCancel:
		e.DPaying, e.DAvailable = -p.Amount, p.Amount
		e.Description = fmt.Sprintf("Payout #%d cancelled: %s available again", id, amount)
		if seller != 0 {
			e.Description = fmt.Sprintf("Payout #%d withdrawn: %s available again", id, amount)
		}
		subject, message = fmt.Sprintf("Payout #%d cancelled", id), fmt.Sprintf("Your payout of %s was cancelled; the amount is available again.", amount)
	}
	if note != "" {
		e.Description += ": " + note
		message += " " + note
	}
	if step == StepCancel {
		_, err = credit(ctx, tx, b, e)
	} else {
		_, err = post(ctx, tx, b, e)
	}
	if err != nil {
		return Payout{}, err
	}
	const q = `UPDATE payouts SET status = $2, reference = CASE WHEN $3 <> '' THEN $3 ELSE reference END,
note = CASE WHEN $4 <> '' THEN $4 ELSE note END, updated_at = now() WHERE id = $1`
	if _, err := tx.ExecContext(ctx, q, id, string(rule.to), reference, note); err != nil {
		return Payout{}, fmt.Errorf("move payout: %w", err)
	}
	if seller == 0 {
		if err := notify(ctx, tx, p, subject, message); err != nil {
			return Payout{}, err
		}
	}
	if p, err = payoutByID(ctx, tx, id, false); err != nil {
		return Payout{}, err
	}
	return p, tx.Commit()
}

// PayoutFilter narrows payout lists: one seller's (SellerID) or, for admins, any, by status.
type PayoutFilter struct {
	SellerID int64
	Status   PayoutStatus
}

// ListPayouts answers a page of payouts, newest first, and how many match.
func ListPayouts(ctx context.Context, db sqlx.QueryerContext, f PayoutFilter, limit, offset int) ([]Payout, int, error) {
	where := `($1 = 0 OR p.seller_id = $1) AND ($2 = '' OR p.status = $2)`
	var total int
	if err := sqlx.GetContext(ctx, db, &total, `SELECT count(*) FROM payouts p WHERE `+where, f.SellerID, string(f.Status)); err != nil {
		return nil, 0, err
	}
	out := []Payout{}
	q := `SELECT ` + payoutColumns + ` FROM payouts p JOIN users u ON u.id = p.seller_id WHERE ` + where + ` ORDER BY p.id DESC LIMIT $3 OFFSET $4`
	if err := sqlx.SelectContext(ctx, db, &out, q, f.SellerID, string(f.Status), limit, offset); err != nil {
		return nil, 0, err
	}
	for i := range out {
		out[i].withSteps()
	}
	return out, total, nil
}

// OpenPayout answers the seller's open payout, nil when there is none.
func OpenPayout(ctx context.Context, db sqlx.QueryerContext, sellerID int64) (*Payout, error) {
	var p Payout
	q := `SELECT ` + payoutColumns + ` FROM payouts p JOIN users u ON u.id = p.seller_id
WHERE p.seller_id = $1 AND p.status IN ('pending', 'processing', 'on_hold')`
	err := sqlx.GetContext(ctx, db, &p, q, sellerID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	p.withSteps()
	return &p, err
}
