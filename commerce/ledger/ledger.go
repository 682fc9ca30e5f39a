package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/money"
)

// Type is what moved the money, as the transactions table labels it.
type Type string

// The transaction types.
const (
	TypeSale       Type = "sale"
	TypeCommission Type = "commission"
	TypeFulfill    Type = "fulfill"
	TypeFee        Type = "fee"
	TypeRefund     Type = "refund"
	TypePayout     Type = "payout"
	TypeTopup      Type = "topup"
	TypeAdsTopup   Type = "ads_topup"
	TypeCashback   Type = "cashback"
	TypeAdmin      Type = "admin"
	TypeOther      Type = "other"
)

// Types lists every transaction type, in the order filters offer them.
var Types = []Type{TypeSale, TypeCommission, TypeFulfill, TypeFee, TypeRefund, TypePayout, TypeTopup, TypeAdsTopup, TypeCashback, TypeAdmin, TypeOther}

// Errors of posting.
var (
	// ErrInvalid: the entry is malformed (unknown type or currency, an amount out of range, no cause,
	// no key); the message says which.
	ErrInvalid = errors.New("invalid ledger entry")
	// ErrInsufficient: the entry would take a bucket below zero (a payout larger than what is available).
	ErrInsufficient = errors.New("not enough balance")
	// ErrKeyReused: the idempotency key names another operation already posted.
	ErrKeyReused = errors.New("idempotency key already used for another entry")
)

// Balance is a seller's money in one currency, in minor units. Available may be paid out; Held is
// earned on orders not shipped yet; Paying is in an open payout; Owed is what refunds took beyond
// the seller's money, deducted from the next money that becomes available.
type Balance struct {
	SellerID  int64          `db:"seller_id" json:"-"`
	Currency  money.Currency `db:"currency" json:"currency"`
	Available int64          `db:"available" json:"available"`
	Held      int64          `db:"held" json:"held"`
	Paying    int64          `db:"paying" json:"paying"`
	Owed      int64          `db:"owed" json:"owed"`
}

// Total is what the seller has: available and held.
func (b Balance) Total() int64 { return b.Available + b.Held }

// Entry is one movement. The D* fields are the signed changes of the buckets; the *After fields the
// buckets after it (set by Post).
type Entry struct {
	ID             int64          `db:"id" json:"id"`
	SellerID       int64          `db:"seller_id" json:"-"`
	Currency       money.Currency `db:"currency" json:"currency"`
	Type           Type           `db:"type" json:"type"`
	DAvailable     int64          `db:"d_available" json:"available"`
	DHeld          int64          `db:"d_held" json:"held"`
	DPaying        int64          `db:"d_paying" json:"paying"`
	DOwed          int64          `db:"d_owed" json:"owed"`
	AvailableAfter int64          `db:"available_after" json:"available_after"`
	HeldAfter      int64          `db:"held_after" json:"held_after"`
	PayingAfter    int64          `db:"paying_after" json:"paying_after"`
	OwedAfter      int64          `db:"owed_after" json:"owed_after"`
	OrderID        *int64         `db:"order_id" json:"order_id"`
	RefundID       *int64         `db:"refund_id" json:"refund_id"`
	PayoutID       *int64         `db:"payout_id" json:"payout_id"`
	Reference      string         `db:"reference" json:"reference"`
	ActorID        *int64         `db:"actor_id" json:"-"`
	Description    string         `db:"description" json:"description"`
	Key            string         `db:"idempotency_key" json:"-"`
	CreatedAt      time.Time      `db:"created_at" json:"created_at"`
}

// Amount is the entry's change of what the seller has, payouts under way included: a sale adds its
// earnings, a refund takes them back, a completed payout takes its amount; moves between buckets
// (an order shipping, a payout requested or cancelled) are zero.
func (e Entry) Amount() int64 { return e.DAvailable + e.DHeld + e.DPaying - e.DOwed }

// maxKey bounds an idempotency key.
const maxKey = 200

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// validate checks what Post is given.
func (e Entry) validate() error {
	if !slices.Contains(Types, e.Type) {
		return invalid("unknown transaction type %q", e.Type)
	}
	if _, err := money.ParseCurrency(string(e.Currency)); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if e.SellerID <= 0 {
		return invalid("no seller")
	}
	for _, d := range []int64{e.DAvailable, e.DHeld, e.DPaying, e.DOwed} {
		if d > money.MaxAmount || d < -money.MaxAmount {
			return invalid("%d is beyond the largest amount %d", d, money.MaxAmount)
		}
	}
	if e.Type != TypePayout && e.DAvailable == 0 && e.DHeld == 0 && e.DPaying == 0 && e.DOwed == 0 {
		return invalid("the entry moves no money")
	}
	if e.Key == "" || len(e.Key) > maxKey {
		return invalid("the idempotency key must be 1 to %d characters", maxKey)
	}
	if e.Description == "" {
		return invalid("no description")
	}
	switch {
	case (e.Type == TypeSale) && e.OrderID == nil,
		e.Type == TypeRefund && e.OrderID == nil && e.DOwed >= 0,
		e.Type == TypePayout && e.PayoutID == nil,
		(e.Type == TypeTopup || e.Type == TypeAdsTopup) && e.Reference == "",
		e.Type == TypeAdmin && e.ActorID == nil:
		return invalid("a %s entry must name its cause", e.Type)
	}
	return nil
}

// same reports whether a and b are one operation (what a retried Post must match).
func same(a, b Entry) bool {
	return a.SellerID == b.SellerID && a.Currency == b.Currency && a.Type == b.Type && a.DAvailable == b.DAvailable &&
		a.DHeld == b.DHeld && a.DPaying == b.DPaying && a.DOwed == b.DOwed
}

const entryColumns = `id, seller_id, currency, type, d_available, d_held, d_paying, d_owed, available_after, held_after,
paying_after, owed_after, order_id, refund_id, payout_id, reference, actor_id, description, idempotency_key, created_at`

// byKey answers the entry posted under key, nil when there is none.
func byKey(ctx context.Context, tx *sqlx.Tx, key string) (*Entry, error) {
	var e Entry
	err := tx.GetContext(ctx, &e, `SELECT `+entryColumns+` FROM ledger_entries WHERE idempotency_key = $1`, key)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("ledger entry by key: %w", err)
	}
	return &e, nil
}

// lock answers the seller's running totals in currency, holding the row until tx ends: every
// entry of one seller and currency is posted under this lock, one after the other.
func lock(ctx context.Context, tx *sqlx.Tx, sellerID int64, c money.Currency) (Balance, error) {
	const qInsert = `INSERT INTO ledger_balances (seller_id, currency) VALUES ($1, $2) ON CONFLICT DO NOTHING`
	if _, err := tx.ExecContext(ctx, qInsert, sellerID, string(c)); err != nil {
		return Balance{}, fmt.Errorf("ledger balance: %w", err)
	}
	var b Balance
	const q = `SELECT seller_id, currency, available, held, paying, owed FROM ledger_balances WHERE seller_id = $1 AND currency = $2 FOR UPDATE`
	if err := tx.GetContext(ctx, &b, q, sellerID, string(c)); err != nil {
		return Balance{}, fmt.Errorf("lock ledger balance: %w", err)
	}
	return b, nil
}

// Post appends e in tx and moves the seller's running totals by it. Posting a key already posted
// answers that entry (created false) when it is the same operation, ErrKeyReused otherwise. An
// entry that would take a bucket below zero is refused with ErrInsufficient, and nothing is written.
func Post(ctx context.Context, tx *sqlx.Tx, e Entry) (Entry, bool, error) {
	return postOnce(ctx, tx, e, post)
}

// postOnce checks e, answers the entry already posted under its key (see Post) or locks the
// seller's balance and appends e with write (post, or credit for an entry adding to available).
func postOnce(ctx context.Context, tx *sqlx.Tx, e Entry, write func(context.Context, *sqlx.Tx, Balance, Entry) (Entry, error)) (Entry, bool, error) {
	if err := e.validate(); err != nil {
		return Entry{}, false, err
	}
	if old, err := byKey(ctx, tx, e.Key); err != nil || old != nil {
		return known(old, e, err)
	}
	b, done, err := lockFor(ctx, tx, e.Key, e.SellerID, e.Currency)
	if err != nil || done != nil {
		return known(done, e, err)
	}
	posted, err := write(ctx, tx, b, e)
	if err != nil {
		return Entry{}, false, err
	}
	return posted, true, nil
}

func known(old *Entry, e Entry, err error) (Entry, bool, error) {
	if err != nil {
		return Entry{}, false, err
	}
	if !same(*old, e) {
		return Entry{}, false, fmt.Errorf("%w: %s", ErrKeyReused, e.Key)
	}
	return *old, false, nil
}

// post appends e, whose key is new, with the balance row b locked by this transaction: the caller
// looked the key up after taking the lock (lockFor), or made the key from a row it created or holds
// locked, so no other transaction can have posted it.
func post(ctx context.Context, tx *sqlx.Tx, b Balance, e Entry) (Entry, error) {
	if err := e.validate(); err != nil {
		return Entry{}, err
	}
	e.AvailableAfter, e.HeldAfter = b.Available+e.DAvailable, b.Held+e.DHeld
	e.PayingAfter, e.OwedAfter = b.Paying+e.DPaying, b.Owed+e.DOwed
	if e.AvailableAfter < 0 || e.HeldAfter < 0 || e.PayingAfter < 0 || e.OwedAfter < 0 {
		return Entry{}, fmt.Errorf("%w: %s available, %s held, %s in payouts", ErrInsufficient,
			money.Money{Amount: b.Available, Currency: b.Currency}, money.Money{Amount: b.Held, Currency: b.Currency},
			money.Money{Amount: b.Paying, Currency: b.Currency})
	}
	if e.AvailableAfter > money.MaxAmount*100 || e.HeldAfter > money.MaxAmount*100 {
		return Entry{}, invalid("the balance would pass %d", money.MaxAmount*100)
	}
	const qEntry = `
INSERT INTO ledger_entries (seller_id, currency, type, d_available, d_held, d_paying, d_owed, available_after, held_after,
    paying_after, owed_after, order_id, refund_id, payout_id, reference, actor_id, description, idempotency_key)
VALUES (:seller_id, :currency, :type, :d_available, :d_held, :d_paying, :d_owed, :available_after, :held_after,
    :paying_after, :owed_after, :order_id, :refund_id, :payout_id, :reference, :actor_id, :description, :idempotency_key)
RETURNING id, created_at`
	rows, err := tx.NamedQuery(qEntry, e)
	if err != nil {
		return Entry{}, fmt.Errorf("post ledger entry: %w", err)
	}
	if rows.Next() {
		err = rows.Scan(&e.ID, &e.CreatedAt)
	}
	rows.Close()
	if err != nil {
		return Entry{}, fmt.Errorf("post ledger entry: %w", err)
	}
	const qBalance = `UPDATE ledger_balances SET available = $3, held = $4, paying = $5, owed = $6, updated_at = now()
WHERE seller_id = $1 AND currency = $2`
	if _, err := tx.ExecContext(ctx, qBalance, e.SellerID, string(e.Currency), e.AvailableAfter, e.HeldAfter, e.PayingAfter, e.OwedAfter); err != nil {
		return Entry{}, fmt.Errorf("move ledger balance: %w", err)
	}
	return e, nil
}

// credit posts e, which adds to available, and then settles what the seller owes from it with an
// entry of its own (a refund taken from this money), so the deduction shows in the statement.
func credit(ctx context.Context, tx *sqlx.Tx, b Balance, e Entry) (Entry, error) {
	posted, err := post(ctx, tx, b, e)
	if err != nil || posted.OwedAfter == 0 || posted.AvailableAfter == 0 {
		return posted, err
	}
	x := min(posted.OwedAfter, posted.AvailableAfter)
	b = Balance{SellerID: b.SellerID, Currency: b.Currency, Available: posted.AvailableAfter, Held: posted.HeldAfter,
		Paying: posted.PayingAfter, Owed: posted.OwedAfter}
	settle := Entry{SellerID: b.SellerID, Currency: b.Currency, Type: TypeRefund, DAvailable: -x, DOwed: -x,
		Description: "Refunds owed after an earlier payout, deducted from this balance", Key: e.Key + ":settle"}
	if _, err := post(ctx, tx, b, settle); err != nil {
		return Entry{}, err
	}
	return posted, nil
}
