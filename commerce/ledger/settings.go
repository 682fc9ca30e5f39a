package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/money"
)

// Keys of the system configs the ledger reads (docs/money.md).
const (
	// KeyProcessingFee is the processing fee in percent of what the buyer paid, with up to 2
	// decimals ("4", "3.5").
	KeyProcessingFee = "processing_fee"
	// KeyProcessingFeeMin is the least processing fee of an order, a decimal amount ("0.50").
	KeyProcessingFeeMin = "processing_fee_min"
	// KeyPayoutMin is the least amount of a payout, a decimal amount ("50.00").
	KeyPayoutMin = "payout_min"
)

// Fees are the platform's charges on an order.
type Fees struct {
	// BasisPoints is the processing fee in hundredths of a percent (400 is 4 %).
	BasisPoints int64
	// Min is the least processing fee, in minor units.
	Min int64
}

// ErrSetting: a fee setting is not a value the ledger can use; the message says how to write it.
var ErrSetting = errors.New("invalid money setting")

// CheckSetting reports what is wrong with value for one of the keys above (nil for other keys), so
// an admin setting it hears at once rather than the next order failing.
func CheckSetting(key, value string) error {
	switch key {
	case KeyProcessingFee:
		_, err := parsePercent(value)
		return err
	case KeyProcessingFeeMin, KeyPayoutMin:
		if _, err := money.Parse(value, money.USD); err != nil {
			return fmt.Errorf("%w: %s must be an amount like 0.50 (%w)", ErrSetting, key, err)
		}
	}
	return nil
}

// parsePercent reads a percent with up to 2 decimals, 0 to 100, as basis points.
func parsePercent(v string) (int64, error) {
	m, err := money.Parse(v, money.USD) // the same decimal rules: 2 decimals, no sign
	if err != nil || m.Amount > 10_000 {
		return 0, fmt.Errorf("%w: %s must be a percent from 0 to 100 with up to 2 decimals, like 4 or 3.5", ErrSetting, KeyProcessingFee)
	}
	return m.Amount, nil
}

// setting reads one system config; missing is "".
func setting(ctx context.Context, db sqlx.QueryerContext, key string) (string, error) {
	var v string
	err := sqlx.GetContext(ctx, db, &v, `SELECT value FROM system_configs WHERE key = $1`, key)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// amountSetting reads a decimal-amount config in currency c; a missing one is zero.
func amountSetting(ctx context.Context, db sqlx.QueryerContext, key string, c money.Currency) (int64, error) {
	v, err := setting(ctx, db, key)
	if err != nil || v == "" {
		return 0, err
	}
	m, err := money.Parse(v, c)
	if err != nil {
		return 0, fmt.Errorf("%w: %s: %w", ErrSetting, key, err)
	}
	return m.Amount, nil
}

// LoadFees reads the processing fee settings in currency c; missing settings are zero.
func LoadFees(ctx context.Context, db sqlx.QueryerContext, c money.Currency) (Fees, error) {
	var f Fees
	v, err := setting(ctx, db, KeyProcessingFee)
	if err != nil {
		return Fees{}, err
	}
	if v != "" {
		if f.BasisPoints, err = parsePercent(v); err != nil {
			return Fees{}, err
		}
	}
	if f.Min, err = amountSetting(ctx, db, KeyProcessingFeeMin, c); err != nil {
		return Fees{}, err
	}
	return f, nil
}

// PayoutMinimum is the least payout in currency c (zero when unset).
func PayoutMinimum(ctx context.Context, db sqlx.QueryerContext, c money.Currency) (int64, error) {
	return amountSetting(ctx, db, KeyPayoutMin, c)
}
