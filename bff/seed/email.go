package seed

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// seedEmail gives the demo seller the "email marketing" tag and a verified sending domain
// on the demo store, so the email-marketing screens work on a fresh dev stack. The team members
// keep their permissions without update_campaign and cannot reach them.
func seedEmail(ctx context.Context, tx *sqlx.Tx) error {
	const tag = `
UPDATE users SET tags = array_append(tags, 'email marketing')
WHERE lower(email) = 'seller@example.com' AND NOT ('email marketing' = ANY(tags))`
	if _, err := tx.ExecContext(ctx, tag); err != nil {
		return fmt.Errorf("seed email marketing tag: %w", err)
	}
	const domain = `
INSERT INTO store_domains (store_id, domain, verified_at)
SELECT id, 'mail.sams-print-shop.pressroom.local', now() FROM stores WHERE lower(domain) = 'sams-print-shop.pressroom.local'
ON CONFLICT ((lower(domain))) DO NOTHING`
	if _, err := tx.ExecContext(ctx, domain); err != nil {
		return fmt.Errorf("seed store domain: %w", err)
	}
	return nil
}
