package seed

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// seedDiscountCodes gives the demo store a few discount codes for the abandoned-checkout coupon
// picker of the email-marketing settings.
func seedDiscountCodes(ctx context.Context, tx *sqlx.Tx) error {
	const q = `
INSERT INTO discount_codes (store_id, code, kind, percent)
SELECT s.id, c.code, c.kind, c.percent FROM stores s,
    (VALUES ('WELCOME10', 'discount_with_percent', 10), ('COMEBACK15', 'discount_with_percent', 15),
            ('SAVE20', 'discount_with_percent', 20), ('FREESHIP', 'free', 0)) AS c (code, kind, percent)
WHERE lower(s.domain) = 'sams-print-shop.pressroom.local'
ON CONFLICT (store_id, lower(code)) DO NOTHING`
	if _, err := tx.ExecContext(ctx, q); err != nil {
		return fmt.Errorf("seed discount codes: %w", err)
	}
	return nil
}
