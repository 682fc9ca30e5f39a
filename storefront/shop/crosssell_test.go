package shop

import (
	"net/url"
	"strings"
	"testing"
)

// TestCrossSelling: a campaign's product page and a cart holding it show the campaigns the seller's
// rule suggests, when they are on sale in the store, and never a campaign already in the cart.
func TestCrossSelling(t *testing.T) {
	f := setup(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	var seller, dogs, birds, dogMug, rule int64
	must(f.db.Get(&seller, `SELECT owner_id FROM stores WHERE id = $1`, f.storeID))
	must(f.db.Get(&dogs, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'Dogs') RETURNING id`, seller))
	must(f.db.Get(&birds, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'Birds') RETURNING id`, seller)) // not on sale here
	must(f.db.Get(&dogMug, `INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, options)
		SELECT $1, template_id, name, product_type, print_spaces, options FROM campaign_products WHERE id = $2 RETURNING id`, dogs, f.mug))
	_, err := f.db.Exec(`INSERT INTO store_products (store_id, product_id, campaign_id, price, currency) VALUES ($1, $2, $3, 1250, 'USD')`, f.storeID, dogMug, dogs)
	must(err)
	must(f.db.Get(&rule, `INSERT INTO cross_sell_rules (seller_id, campaign_id) VALUES ($1, $2) RETURNING id`, seller, f.campaign))
	_, err = f.db.Exec(`INSERT INTO cross_sell_targets (rule_id, campaign_id, position) VALUES ($1, $2, 1), ($1, $3, 2)`, rule, birds, dogs)
	must(err)

	c := client(t)
	base := f.srv.URL + "/s/demo"
	dogsLink := `href="/s/demo/c/` + itoa(dogs) + `"`
	_, body := get(t, c, base+"/c/"+itoa(f.campaign))
	if !strings.Contains(body, "Buyers of this also like") || !strings.Contains(body, dogsLink) || !strings.Contains(body, "from $12.50") ||
		strings.Contains(body, "/c/"+itoa(birds)) {
		t.Fatalf("product page suggestions\n%s", body)
	}
	// The rule's order, not the campaigns' ids: a campaign made later but placed first comes first.
	var cats, catMug int64
	must(f.db.Get(&cats, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'Cats') RETURNING id`, seller))
	must(f.db.Get(&catMug, `INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, options)
		SELECT $1, template_id, name, product_type, print_spaces, options FROM campaign_products WHERE id = $2 RETURNING id`, cats, f.mug))
	_, err = f.db.Exec(`INSERT INTO store_products (store_id, product_id, campaign_id, price, currency) VALUES ($1, $2, $3, 900, 'USD')`, f.storeID, catMug, cats)
	must(err)
	_, err = f.db.Exec(`INSERT INTO cross_sell_targets (rule_id, campaign_id, position) VALUES ($1, $2, 0)`, rule, cats)
	must(err)
	catsLink := `href="/s/demo/c/` + itoa(cats) + `"`
	_, body = get(t, c, base+"/c/"+itoa(f.campaign)+"?color=Black") // another address than the cached page
	if i, j := strings.Index(body, catsLink), strings.Index(body, dogsLink); i < 0 || j < 0 || i > j {
		t.Fatalf("suggestions not in the rule's order (Cats at %d, Dogs at %d)\n%s", i, j, body)
	}
	_, err = f.db.Exec(`DELETE FROM cross_sell_targets WHERE rule_id = $1 AND campaign_id = $2`, rule, cats)
	must(err)
	if _, body := get(t, c, base+"/c/"+itoa(dogs)); strings.Contains(body, "Buyers of this also like") {
		t.Fatalf("a campaign without a rule suggests nothing\n%s", body)
	}

	post(t, c, base+"/cart/items", url.Values{"product_id": {itoa(f.shirt)}, "color": {"Black"}, "size": {"M"}, "quantity": {"1"}})
	if _, body := get(t, c, base+"/cart"); !strings.Contains(body, "Buyers of this also like") || !strings.Contains(body, dogsLink) {
		t.Fatalf("cart suggestions\n%s", body)
	}
	post(t, c, base+"/cart/items", url.Values{"product_id": {itoa(dogMug)}, "color": {"White"}, "size": {"11oz"}, "quantity": {"1"}})
	if _, body := get(t, c, base+"/cart"); strings.Contains(body, "Buyers of this also like") {
		t.Fatalf("a campaign already in the cart is not suggested\n%s", body)
	}
}
