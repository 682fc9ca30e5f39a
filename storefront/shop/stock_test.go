package shop

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/commerce/stock"
)

// TestOutOfStock: the product page disables a size out of stock in the colour shown and lists what is
// out; adding it is refused on the page, and a cart holding a line that went out of stock since is
// refused at checkout with the line named, the cart kept.
func TestOutOfStock(t *testing.T) {
	f := setup(t)
	c := client(t)
	base := f.srv.URL + "/s/demo"
	var tmpl, seller int64
	if err := f.db.QueryRow(`SELECT template_id, (SELECT min(id) FROM users) FROM campaign_products WHERE id = $1`, f.shirt).Scan(&tmpl, &seller); err != nil {
		t.Fatal(err)
	}
	set := func(size string, in bool) {
		t.Helper()
		if _, err := stock.Set(context.Background(), f.db, seller, []stock.Change{{TemplateID: tmpl, Color: "Black", Size: size, InStock: in}}); err != nil {
			t.Fatal(err)
		}
	}
	// In the cart while in stock.
	if res, _ := post(t, c, base+"/cart/items", url.Values{"product_id": {itoa(f.shirt)}, "color": {"Black"}, "size": {"M"}, "quantity": {"1"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add M: %d", res.StatusCode)
	}
	set("XL", false)
	set("M", false)

	_, body := get(t, c, base+"/c/"+itoa(f.campaign)+"?product="+itoa(f.shirt)+"&color=Black")
	for _, want := range []string{`<option value="XL" disabled>XL — out of stock</option>`, `<option value="L">L — $19.99</option>`,
		`Out of stock: Black in M, Black in XL.`} {
		if !strings.Contains(body, want) {
			t.Fatalf("product page lacks %q\n%s", want, body)
		}
	}
	_, body = get(t, c, base+"/c/"+itoa(f.campaign)+"?product="+itoa(f.shirt)+"&color=White")
	if !strings.Contains(body, `<option value="XL">XL — $19.99</option>`) {
		t.Fatalf("White XL is in stock\n%s", body)
	}

	res, body := post(t, c, base+"/cart/items", url.Values{"campaign_id": {itoa(f.campaign)}, "product_id": {itoa(f.shirt)}, "color": {"Black"}, "size": {"XL"}, "quantity": {"1"}})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "Black in size XL is out of stock: choose another colour or size.") {
		t.Fatalf("add XL: %d\n%s", res.StatusCode, body)
	}

	_, body = get(t, c, base+"/cart")
	if !strings.Contains(body, `M <span class="error">out of stock</span>`) {
		t.Fatalf("cart does not mark the line\n%s", body)
	}
	res, body = post(t, c, base+"/checkout", address())
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "T-shirt in Black, size M, is out of stock: remove it from your cart to check out.") {
		t.Fatalf("checkout: %d\n%s", res.StatusCode, body)
	}
	var checkouts int
	f.db.Get(&checkouts, `SELECT count(*) FROM checkouts`)
	if checkouts != 0 {
		t.Fatalf("%d checkouts stored", checkouts)
	}
}
