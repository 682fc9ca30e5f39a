package checkout

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEachOffer: reading a store's offers a batch at a time gives what Offers gives, whatever the
// batch size, and keeps to the chosen campaigns.
func TestEachOffer(t *testing.T) {
	_, db, storeID, product := newShop(t)
	ctx := context.Background()
	var seller, tmpl int64
	db.QueryRow(`SELECT (SELECT owner_id FROM stores WHERE id = $1), (SELECT template_id FROM campaign_products WHERE id = $2)`, storeID, product).Scan(&seller, &tmpl)
	var second int64
	for i := range 7 {
		var campaign int64
		if err := db.Get(&campaign, `INSERT INTO campaigns (user_id, name) VALUES ($1, $2) RETURNING id`, seller, fmt.Sprint("C", i)); err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			second = campaign
		}
		for pos := range 2 {
			db.MustExec(`WITH p AS (INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, options, position)
				SELECT $1, id, name, product_type, print_spaces, options, $3 FROM product_templates WHERE id = $2 RETURNING id, campaign_id)
				INSERT INTO store_products (store_id, product_id, campaign_id, price, currency) SELECT $4, id, campaign_id, 1500 + $3, 'USD' FROM p`,
				campaign, tmpl, 1-pos, storeID)
		}
	}
	setStock(t, db, "M", false)
	all, err := Offers(ctx, db, storeID, 0, 0)
	if err != nil || len(all) != 15 {
		t.Fatalf("%d offers: %v", len(all), err)
	}
	for _, batch := range []int{1, 2, 4, 15, 100} {
		var got []Offer
		if err := EachOffer(ctx, db, storeID, nil, batch, func(b []Offer) error {
			if len(b) > batch {
				t.Fatalf("a batch of %d offers, want at most %d", len(b), batch)
			}
			got = append(got, b...)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(all, got); d != "" {
			t.Fatalf("batch %d (-Offers +EachOffer):\n%s", batch, d)
		}
	}
	var chosen []Offer
	if err := EachOffer(ctx, db, storeID, []int64{second}, 1, func(b []Offer) error { chosen = append(chosen, b...); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(chosen) != 2 || chosen[0].CampaignID != second || chosen[0].Price.Amount != 1500 || !chosen[0].OutOfStock.Has("Black", "M") {
		t.Fatalf("one campaign: %+v", chosen)
	}
}
