package storesite

import (
	"context"
	"fmt"
	"testing"

	"github.com/pressroom/pressroom/platform/testinfra"
)

// TestMapSplitsLargeSections: a section of more than MaxURLs addresses is split into files of at
// most MaxURLs, each listing its own addresses in the section's order; an empty section has no
// file; drafts are left out.
func TestMapSplitsLargeSections(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	var seller, store int64
	if err := db.Get(&seller, `INSERT INTO users (name, email, password_hash, roles) VALUES ('S', 's@example.com', 'x', '{seller}') RETURNING id`); err != nil {
		t.Fatal(err)
	}
	if err := db.Get(&store, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'Big', 'big.example', 'big') RETURNING id`, seller); err != nil {
		t.Fatal(err)
	}
	// The home and MaxURLs pages: one address too many for one file. One more page is a draft.
	if _, err := db.Exec(`INSERT INTO store_pages (store_id, title, slug, published)
		SELECT $1, 'Page ' || n, 'page-' || n, n <= $2 FROM generate_series(1, $2 + 1) n`, store, MaxURLs); err != nil {
		t.Fatal(err)
	}
	maps, err := Map(ctx, db, store)
	if err != nil {
		t.Fatal(err)
	}
	got := map[Section]string{}
	for _, m := range maps {
		got[m.Section] = fmt.Sprint(m.URLs, m.Files)
	}
	want := map[Section]string{
		Pages:       fmt.Sprint(MaxURLs+1, []File{{ID: "pages-1", Section: Pages, Number: 1, URLs: MaxURLs}, {ID: "pages-2", Section: Pages, Number: 2, URLs: 1}}),
		Campaigns:   "0 []",
		Collections: "0 []",
		Blog:        "0 []",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || maps[0].Section != Pages || maps[0].LastModified == nil {
		t.Fatalf("map\n got %v\nwant %v", got, want)
	}
	second, ok := FindFile(maps, "pages-2.xml")
	if !ok || second.Path() != "/sitemaps/pages-2.xml" {
		t.Fatalf("pages-2: %+v %v", second, ok)
	}
	if _, ok := FindFile(maps, "campaigns-1"); ok {
		t.Errorf("an empty section has a file")
	}
	urls, err := URLs(ctx, db, store, Pages, second.Offset(), MaxURLs)
	if err != nil || len(urls) != 1 || urls[0].Path != fmt.Sprintf("/p/page-%d", MaxURLs) {
		t.Fatalf("second file %v %v", urls, err)
	}
	first, err := URLs(ctx, db, store, Pages, 0, 2)
	if err != nil || len(first) != 2 || first[0].Path != "/" || first[0].LastModified != nil || first[1].Path != "/p/page-1" || first[1].LastModified == nil {
		t.Fatalf("first file %+v %v", first, err)
	}
}

func TestAddress(t *testing.T) {
	dev := Address{StoreDomain: "localhost", StorefrontAddr: "127.0.0.1:8082"}
	prod := Address{StoreDomain: "shops.example.com", StorefrontAddr: "0.0.0.0:8082"}
	for _, tc := range []struct{ got, want string }{
		{dev.Origin("demo"), "http://demo.localhost:8082"},
		{dev.DomainOrigin("Shop.Example.test"), "http://shop.example.test:8082"},
		{prod.Origin("demo"), "https://demo.shops.example.com"},
		{prod.DomainOrigin("shop.example.org"), "https://shop.example.org"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
}
