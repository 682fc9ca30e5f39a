package seed

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// seedDiscountCodes gives the demo store's seller a few discount codes for that store (the
// promotions screen, the checkout and the abandoned-checkout coupon picker).
func seedDiscountCodes(ctx context.Context, tx *sqlx.Tx) error {
	const q = `
WITH s AS (SELECT id, owner_id, currency FROM stores WHERE lower(domain) = 'sams-print-shop.pressroom.local'),
codes AS (
    INSERT INTO discount_codes (seller_id, code, kind, percent, applies_to, min_order_currency)
    SELECT s.owner_id, c.code, c.kind, c.percent, 'stores', s.currency FROM s,
        (VALUES ('WELCOME10', 'discount_with_percent', 10), ('COMEBACK15', 'discount_with_percent', 15),
                ('SAVE20', 'discount_with_percent', 20), ('FREESHIP', 'free', 0)) AS c (code, kind, percent)
    ON CONFLICT (seller_id, lower(code)) DO NOTHING
    RETURNING id)
INSERT INTO discount_code_stores (discount_code_id, store_id) SELECT codes.id, s.id FROM codes, s`
	if _, err := tx.ExecContext(ctx, q); err != nil {
		return fmt.Errorf("seed discount codes: %w", err)
	}
	return nil
}
