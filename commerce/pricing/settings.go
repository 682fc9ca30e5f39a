package pricing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/money"
)

// Keys of the system configs prices are computed with (docs/pricing.md).
const (
	// KeyProcessingFee is the processing fee in percent of what the buyer paid, with up to 2
	// decimals ("4", "3.5").
	KeyProcessingFee = "processing_fee"
	// KeyProcessingFeeMin is the least processing fee of an order, a decimal amount ("0.50").
	KeyProcessingFeeMin = "processing_fee_min"
	// KeyComparePriceRate is how much higher than the price the compare-at price is, in percent
	// with up to 2 decimals ("25"); 0 shows no compare-at price.
	KeyComparePriceRate = "compare_price_rate"
)

// Fees are the platform's charges on an order.
type Fees struct {
	// BasisPoints is the processing fee in hundredths of a percent (400 is 4 %).
	BasisPoints int64
	// Min is the least processing fee, in minor units.
	Min int64
}

// On is the processing fee of an order whose buyer paid total (minor units): the percent of it,
// rounded by money.Round, at least the minimum; none on an order paid nothing.
func (f Fees) On(total int64) int64 {
	if total <= 0 {
		return 0
	}
	return max(money.Round(total*f.BasisPoints, 10_000), f.Min)
}

// Settings are the platform's settings prices are computed with, in one currency.
type Settings struct {
	Fees Fees
	// CompareRate is compare_price_rate in basis points (2500 is 25 %); 0 means no compare-at price.
	CompareRate int64
}

// ErrSetting: a money setting is not a value prices can be computed with; the message says how to
// write it.
var ErrSetting = errors.New("invalid money setting")

// CheckSetting reports what is wrong with value for one of the keys above (nil for other keys), so
// an admin setting it hears at once rather than the next order failing.
func CheckSetting(key, value string) error {
	switch key {
	case KeyProcessingFee, KeyComparePriceRate:
		_, err := parsePercent(key, value)
		return err
	case KeyProcessingFeeMin:
		return CheckAmountSetting(key, value)
	}
	return nil
}

// CheckAmountSetting reports what is wrong with value as a decimal-amount setting named key.
func CheckAmountSetting(key, value string) error {
	if _, err := money.Parse(value, money.USD); err != nil {
		return fmt.Errorf("%w: %s must be an amount like 0.50 (%w)", ErrSetting, key, err)
	}
	return nil
}

// parsePercent reads a percent with up to 2 decimals, 0 to 100, as basis points.
func parsePercent(key, v string) (int64, error) {
	m, err := money.Parse(v, money.USD) // the same decimal rules: 2 decimals, no sign
	if err != nil || m.Amount > 10_000 {
		return 0, fmt.Errorf("%w: %s must be a percent from 0 to 100 with up to 2 decimals, like 4 or 3.5", ErrSetting, key)
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

// AmountSetting reads a decimal-amount system config in currency c; a missing one is zero.
func AmountSetting(ctx context.Context, db sqlx.QueryerContext, key string, c money.Currency) (int64, error) {
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

// percentSetting reads a percent system config as basis points; a missing one is zero.
func percentSetting(ctx context.Context, db sqlx.QueryerContext, key string) (int64, error) {
	v, err := setting(ctx, db, key)
	if err != nil || v == "" {
		return 0, err
	}
	return parsePercent(key, v)
}

// LoadFees reads the processing fee settings in currency c; missing settings are zero.
func LoadFees(ctx context.Context, db sqlx.QueryerContext, c money.Currency) (Fees, error) {
	var f Fees
	var err error
	if f.BasisPoints, err = percentSetting(ctx, db, KeyProcessingFee); err != nil {
		return Fees{}, err
	}
	if f.Min, err = AmountSetting(ctx, db, KeyProcessingFeeMin, c); err != nil {
		return Fees{}, err
	}
	return f, nil
}

// LoadSettings reads the fees and the compare-at rate in currency c; missing settings are zero.
func LoadSettings(ctx context.Context, db sqlx.QueryerContext, c money.Currency) (Settings, error) {
	f, err := LoadFees(ctx, db, c)
	if err != nil {
		return Settings{}, err
	}
	rate, err := percentSetting(ctx, db, KeyComparePriceRate)
	if err != nil {
		return Settings{}, err
	}
	return Settings{Fees: f, CompareRate: rate}, nil
}
