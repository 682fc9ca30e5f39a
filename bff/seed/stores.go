package seed

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// DemoStoreSlug is the demo seller's store address: http://demo.localhost:8082 and /s/demo/.
const DemoStoreSlug = "demo"

// demoMargin is what the demo seller adds to each template's base cost, in cents: an $8.50 T-shirt
// sells at $19.99.
const demoMargin = 1149

// seedStorefront opens the demo seller's store as "demo" with two pages, and publishes every
// campaign of the seller to it at base cost plus demoMargin, active. Print files of designs never
// exported are queued, so their mockups appear in the shop once the renderer runs. A campaign
// already published keeps the seller's prices. The seller gets the pricing tag, which opens the
// Pricing screen.
func seedStorefront(ctx context.Context, tx *sqlx.Tx) error {
	const tag = `
UPDATE users SET tags = array_append(tags, 'pricing')
WHERE lower(email) = 'seller@example.com' AND NOT ('pricing' = ANY(tags))`
	if _, err := tx.ExecContext(ctx, tag); err != nil {
		return fmt.Errorf("seed pricing tag: %w", err)
	}
	const store = `
UPDATE stores SET slug = $1, currency = 'USD', target_market = 'United States', updated_at = now()
WHERE lower(domain) = 'sams-print-shop.pressroom.local' AND slug LIKE 'store-%'`
	if _, err := tx.ExecContext(ctx, store, DemoStoreSlug); err != nil {
		return fmt.Errorf("seed storefront: %w", err)
	}
	const pages = `
INSERT INTO store_pages (store_id, title, slug, body, menu_position, position)
SELECT s.id, p.title, p.slug, p.body, p.menu, p.pos FROM stores s,
    (VALUES ('About us', 'about', '<p>Sam prints small runs of shirts, hoodies and mugs, each made when you order it.</p>', 'header', 1),
            ('Shipping', 'shipping', '<p>Orders ship within 3 to 5 working days. Rates are shown at checkout.</p>', 'footer', 2))
        AS p (title, slug, body, menu, pos)
WHERE s.slug = $1
ON CONFLICT (store_id, slug) DO NOTHING`
	if _, err := tx.ExecContext(ctx, pages, DemoStoreSlug); err != nil {
		return fmt.Errorf("seed store pages: %w", err)
	}
	const publish = `
INSERT INTO store_products (store_id, product_id, campaign_id, price, compare_at_price, currency, status)
SELECT s.id, p.id, p.campaign_id, round(p.base_cost * 100)::bigint + $2, round(p.base_cost * 100)::bigint + $2 + 500, s.currency, 'active'
FROM stores s JOIN campaigns c ON c.user_id = s.owner_id JOIN campaign_products p ON p.campaign_id = c.id
WHERE s.slug = $1
ON CONFLICT (store_id, product_id) DO NOTHING`
	if _, err := tx.ExecContext(ctx, publish, DemoStoreSlug, demoMargin); err != nil {
		return fmt.Errorf("seed store products: %w", err)
	}
	var designs []struct {
		ID       int64 `db:"id"`
		Revision int64 `db:"revision"`
	}
	const pending = `
UPDATE campaign_designs d SET export_status = 'pending', updated_at = now()
FROM store_products sp JOIN stores s ON s.id = sp.store_id
WHERE s.slug = $1 AND sp.product_id = d.product_id AND d.export_status = 'none'
RETURNING d.id, d.revision`
	if err := tx.SelectContext(ctx, &designs, pending, DemoStoreSlug); err != nil {
		return fmt.Errorf("seed storefront print files: %w", err)
	}
	for _, d := range designs {
		if _, err := tasks.QueueExport(ctx, tx, d.ID, d.Revision, queue.Default); err != nil {
			return err
		}
	}
	return nil
}
