package shop

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestCampaignAddressAndSizePrices: a campaign's page answers at its address (its slug) as at its
// id, and a product priced size by size (custom_price) shows and sells each size at its own price.
func TestCampaignAddressAndSizePrices(t *testing.T) {
	f := setup(t)
	c := client(t)
	base := f.srv.URL + "/s/demo"
	f.db.MustExec(`UPDATE campaigns SET slug = 'cats' WHERE id = $1`, f.campaign)
	f.db.MustExec(`UPDATE store_products SET price_mode = 'custom_price', price = 1800 WHERE product_id = $1`, f.shirt)
	f.db.MustExec(`INSERT INTO store_product_sizes (store_id, product_id, size, price)
SELECT $1, $2, size, 1800 + 100 * position FROM product_sizes WHERE product_type = 'tshirt'`, f.storeID, f.shirt)

	res, body := get(t, c, base+"/c/cats?product="+itoa(f.shirt))
	if res.StatusCode != http.StatusOK || !strings.Contains(body, "S — $19.00") || !strings.Contains(body, "2XL — $23.00") {
		t.Fatalf("by address %d\n%s", res.StatusCode, body)
	}
	if res, _ := get(t, c, base+"/c/dogs"); res.StatusCode != http.StatusNotFound {
		t.Errorf("an address no campaign has: %d", res.StatusCode)
	}
	post(t, c, base+"/cart/items", url.Values{"product_id": {itoa(f.shirt)}, "color": {"Black"}, "size": {"2XL"}, "quantity": {"2"}})
	if _, body := get(t, c, base+"/cart"); !strings.Contains(body, "$46.00") {
		t.Errorf("cart of two 2XL at 23.00\n%s", body)
	}
}
