package ledger

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// EntryFilter narrows a seller's statement. Empty fields do not filter; From and To bound
// created_at as [From, To).
type EntryFilter struct {
	SellerID int64
	Type     Type
	From, To *time.Time
}

const entryWhere = `seller_id = $1 AND ($2 = '' OR type = $2) AND ($3::timestamptz IS NULL OR created_at >= $3)
AND ($4::timestamptz IS NULL OR created_at < $4)`

func (f EntryFilter) args() []any { return []any{f.SellerID, string(f.Type), f.From, f.To} }

// Entries answers a page of the seller's entries, newest first, and how many match.
func Entries(ctx context.Context, db sqlx.QueryerContext, f EntryFilter, limit, offset int) ([]Entry, int, error) {
	var total int
	if err := sqlx.GetContext(ctx, db, &total, `SELECT count(*) FROM ledger_entries WHERE `+entryWhere, f.args()...); err != nil {
		return nil, 0, fmt.Errorf("count ledger entries: %w", err)
	}
	out := []Entry{}
	q := `SELECT ` + entryColumns + ` FROM ledger_entries WHERE ` + entryWhere + ` ORDER BY created_at DESC, id DESC LIMIT $5 OFFSET $6`
	if err := sqlx.SelectContext(ctx, db, &out, q, append(f.args(), limit, offset)...); err != nil {
		return nil, 0, fmt.Errorf("list ledger entries: %w", err)
	}
	return out, total, nil
}

// EachEntry calls fn for every entry matching f, newest first, reading them row by row (the CSV
// export streams them in flat memory).
func EachEntry(ctx context.Context, db sqlx.QueryerContext, f EntryFilter, fn func(Entry) error) error {
	rows, err := db.QueryxContext(ctx, `SELECT `+entryColumns+` FROM ledger_entries WHERE `+entryWhere+` ORDER BY created_at DESC, id DESC`, f.args()...)
	if err != nil {
		return fmt.Errorf("export ledger entries: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e Entry
		if err := rows.StructScan(&e); err != nil {
			return err
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Balances answers the seller's running totals in every currency it has money in.
func Balances(ctx context.Context, db sqlx.QueryerContext, sellerID int64) ([]Balance, error) {
	out := []Balance{}
	const q = `SELECT seller_id, currency, available, held, paying, owed FROM ledger_balances WHERE seller_id = $1 ORDER BY currency`
	return out, sqlx.SelectContext(ctx, db, &out, q, sellerID)
}
