package ledger

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/pricing"
)

// KeyPayoutMin is the system config of the least amount of a payout, a decimal amount ("50.00").
// The fee settings an order's earnings are booked with are commerce/pricing's (docs/money.md).
const KeyPayoutMin = "payout_min"

// CheckSetting reports what is wrong with value for KeyPayoutMin (nil for other keys), so an admin
// setting it hears at once rather than the next payout failing.
func CheckSetting(key, value string) error {
	if key == KeyPayoutMin {
		return pricing.CheckAmountSetting(key, value)
	}
	return nil
}

// PayoutMinimum is the least payout in currency c (zero when unset).
func PayoutMinimum(ctx context.Context, db sqlx.QueryerContext, c money.Currency) (int64, error) {
	return pricing.AmountSetting(ctx, db, KeyPayoutMin, c)
}
