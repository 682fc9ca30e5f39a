package seed

import "testing"

// TestStorefront: the demo seller's store is "demo", sells every campaign of the seller at base cost
// plus the margin, and a second seed neither duplicates anything nor queues print files again.
func TestStorefront(t *testing.T) {
	db, _ := seededTwice(t)
	var got struct {
		Slug     string `db:"slug"`
		Products int    `db:"products"`
		Unsold   int    `db:"unsold"`
		Pages    int    `db:"pages"`
		Shirt    int64  `db:"shirt"`
		Exports  int    `db:"exports"`
		Designs  int    `db:"designs"`
	}
	const q = `
SELECT s.slug,
	(SELECT count(*) FROM store_products sp WHERE sp.store_id = s.id AND sp.status = 'active') AS products,
	(SELECT count(*) FROM campaign_products p JOIN campaigns c ON c.id = p.campaign_id
		WHERE c.user_id = s.owner_id AND NOT EXISTS (SELECT 1 FROM store_products sp WHERE sp.product_id = p.id)) AS unsold,
	(SELECT count(*) FROM store_pages pg WHERE pg.store_id = s.id) AS pages,
	(SELECT min(sp.price) FROM store_products sp JOIN campaign_products p ON p.id = sp.product_id
		WHERE sp.store_id = s.id AND p.product_type = 'tshirt') AS shirt,
	(SELECT count(*) FROM task_outbox WHERE task_type = 'render:export') AS exports,
	(SELECT count(*) FROM campaign_designs d JOIN store_products sp ON sp.product_id = d.product_id WHERE sp.store_id = s.id) AS designs
FROM stores s JOIN users u ON u.id = s.owner_id WHERE lower(u.email) = 'seller@example.com'`
	if err := db.Get(&got, q); err != nil {
		t.Fatal(err)
	}
	if got.Slug != DemoStoreSlug || got.Products == 0 || got.Unsold != 0 || got.Pages != 2 || got.Shirt != 1999 ||
		got.Designs == 0 || got.Exports != got.Designs {
		t.Errorf("demo store %+v", got)
	}
}
