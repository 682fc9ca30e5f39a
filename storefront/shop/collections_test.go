package shop

import (
	"strings"
	"testing"
)

// TestCollections: a store's menu lists the seller's collections shown in it that have something on
// sale; the home page shows each one's featured campaigns in the seller's order; /collections/{slug}
// lists its campaigns on sale, featured first; another seller's collection and one for other stores
// show nowhere, and names are escaped.
func TestCollections(t *testing.T) {
	f := setup(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	exec := func(q string, args ...any) {
		t.Helper()
		_, err := f.db.Exec(q, args...)
		must(err)
	}
	var seller, other, otherStore, dogs, birds, summer, hidden, foreign, elsewhere int64
	must(f.db.Get(&seller, `SELECT owner_id FROM stores WHERE id = $1`, f.storeID))
	must(f.db.Get(&other, `INSERT INTO users (name, email, password_hash, roles) VALUES ('O', 'o@example.com', 'x', '{seller}') RETURNING id`))
	must(f.db.Get(&otherStore, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'Second', 'second.example', 'second') RETURNING id`, seller))
	// Dogs is on sale (a mug at 12.50); Birds is not.
	for _, c := range []struct {
		dst  *int64
		name string
	}{{&dogs, "Dogs"}, {&birds, "Birds"}} {
		must(f.db.Get(c.dst, `INSERT INTO campaigns (user_id, name) VALUES ($1, $2) RETURNING id`, seller, c.name))
	}
	var dogMug int64
	must(f.db.Get(&dogMug, `INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, options)
		SELECT $1, template_id, name, product_type, print_spaces, options FROM campaign_products WHERE id = $2 RETURNING id`, dogs, f.mug))
	exec(`INSERT INTO store_products (store_id, product_id, campaign_id, price, currency) VALUES ($1, $2, $3, 1250, 'USD')`, f.storeID, dogMug, dogs)

	collection := func(owner int64, name, slug string, all bool) int64 {
		var id int64
		must(f.db.Get(&id, `INSERT INTO collections (seller_id, name, slug, description, all_stores) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			owner, name, slug, "Warm "+evil, all))
		return id
	}
	summer = collection(seller, "Summer "+evil, "summer", true)
	exec(`INSERT INTO collection_campaigns (collection_id, campaign_id, featured_position) VALUES ($1, $2, 2), ($1, $3, 1), ($1, $4, NULL)`,
		summer, f.campaign, dogs, birds)
	hidden = collection(seller, "Only birds", "only-birds", true) // nothing on sale
	exec(`INSERT INTO collection_campaigns (collection_id, campaign_id, featured_position) VALUES ($1, $2, 1)`, hidden, birds)
	elsewhere = collection(seller, "Second store only", "second-only", false)
	exec(`INSERT INTO collection_stores (collection_id, store_id) VALUES ($1, $2)`, elsewhere, otherStore)
	exec(`INSERT INTO collection_campaigns (collection_id, campaign_id, featured_position) VALUES ($1, $2, 1)`, elsewhere, dogs)
	foreign = collection(other, "Theirs", "theirs", true)
	exec(`INSERT INTO collection_campaigns (collection_id, campaign_id) VALUES ($1, $2)`, foreign, dogs)

	c := client(t)
	base := f.srv.URL + "/s/demo"
	summerLink := `href="/s/demo/collections/summer"`
	dogsCard, catsCard := `href="/s/demo/c/`+itoa(dogs)+`"`, `href="/s/demo/c/`+itoa(f.campaign)+`"`
	res, body := get(t, c, base+"/")
	if res.StatusCode != 200 || !strings.Contains(body, `aria-label="Collections"`) || !strings.Contains(body, summerLink) {
		t.Fatalf("home menu %d\n%s", res.StatusCode, body)
	}
	for _, absent := range []string{"only-birds", "second-only", "theirs", evil} {
		if strings.Contains(body, absent) {
			t.Errorf("home shows %q\n%s", absent, body)
		}
	}
	// The featured section: Dogs (1) before Cats (2), both ahead of the full list.
	section := body[strings.Index(body, `<section class="featured"`):strings.Index(body, `id="all-products"`)]
	if i, j := strings.Index(section, dogsCard), strings.Index(section, catsCard); i < 0 || j < 0 || i > j {
		t.Fatalf("featured not in the seller's order (Dogs at %d, Cats at %d)\n%s", i, j, section)
	}
	if !strings.Contains(section, "Summer &lt;script&gt;") || strings.Contains(section, "/c/"+itoa(birds)) {
		t.Errorf("featured section\n%s", section)
	}

	res, body = get(t, c, base+"/collections/summer")
	if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Cache-Control"), "public") || !strings.Contains(body, "Warm &lt;script&gt;") {
		t.Fatalf("collection page %d\n%s", res.StatusCode, body)
	}
	if i, j := strings.Index(body, dogsCard), strings.Index(body, catsCard); i < 0 || j < 0 || i > j || strings.Contains(body, "/c/"+itoa(birds)) {
		t.Fatalf("collection page lists\n%s", body)
	}
	if !strings.Contains(body, "from $12.50") {
		t.Errorf("collection page prices\n%s", body)
	}
	// Kept like the other catalogue pages: a rename shows once the page cache's time has passed.
	exec(`UPDATE collections SET name = 'Autumn' WHERE id = $1`, summer)
	if _, body := get(t, c, base+"/collections/summer"); !strings.Contains(body, "Summer &lt;script&gt;") {
		t.Errorf("the collection page was not kept for the cache's time")
	}
	if _, body := get(t, c, base+"/collections/summer?page=1"); !strings.Contains(body, "<h1>Autumn</h1>") {
		t.Errorf("another address was answered from the kept page")
	}
	for _, slug := range []string{"theirs", "second-only", "nope"} {
		if res, _ := get(t, c, base+"/collections/"+slug); res.StatusCode != 404 {
			t.Errorf("/collections/%s: %d", slug, res.StatusCode)
		}
	}
	if res, body := get(t, c, base+"/collections/only-birds"); res.StatusCode != 200 || !strings.Contains(body, "Nothing in this collection is on sale here yet.") {
		t.Errorf("empty collection %d\n%s", res.StatusCode, body)
	}
	// The other store shows its own collection and the seller's collections for all stores.
	exec(`INSERT INTO store_products (store_id, product_id, campaign_id, price, currency) VALUES ($1, $2, $3, 1300, 'USD')`, otherStore, dogMug, dogs)
	if _, body := get(t, c, f.srv.URL+"/s/second/"); !strings.Contains(body, `href="/s/second/collections/second-only"`) ||
		!strings.Contains(body, `href="/s/second/collections/summer"`) || strings.Contains(body, "theirs") {
		t.Errorf("second store's menu\n%s", body)
	}
	if _, body := get(t, c, base+"/sitemaps/collections-1.xml"); !strings.Contains(body, "/collections/summer</loc>") || strings.Contains(body, "only-birds") {
		t.Errorf("sitemap\n%s", body)
	}
}
