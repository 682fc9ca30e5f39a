package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/bff/seed"
	"github.com/pressroom/pressroom/bff/stores"
)

type pageList struct {
	Data []struct {
		ID        int64  `json:"id"`
		StoreID   int64  `json:"store_id"`
		StoreName string `json:"store_name"`
		Title     string `json:"title"`
		Slug      string `json:"slug"`
		Published bool   `json:"published"`
	} `json:"data"`
	Total int `json:"total"`
}

func (s *stack) storePages(token, query string) (pageList, reply) {
	s.t.Helper()
	r := s.do("GET", "/api/seller/store-pages"+query, token, nil)
	var out pageList
	if r.status == 200 {
		if err := json.Unmarshal(r.raw, &out); err != nil {
			s.t.Fatal(err)
		}
	}
	return out, r
}

// storesOfSellers are the seeded seller's store, a second store of the seller's, and a store of the
// veteran's.
func (s *stack) storesOfSellers() (demo, second, foreign int64) {
	s.t.Helper()
	if err := s.app.DB.Get(&demo, `SELECT id FROM stores WHERE slug = $1`, seed.DemoStoreSlug); err != nil {
		s.t.Fatal(err)
	}
	if err := s.app.DB.Get(&second, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'Second', 'second.example', 'second')
		RETURNING id`, s.userID("seller@example.com")); err != nil {
		s.t.Fatal(err)
	}
	if err := s.app.DB.Get(&foreign, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'Vic', 'vic.example', 'vic') RETURNING id`,
		s.userID("veteran@example.com")); err != nil {
		s.t.Fatal(err)
	}
	return demo, second, foreign
}

// TestStorePages: a store page is checked field by field (every problem named, nothing stored), its
// body loses its scripts, its address is unique in its store (not across stores) and checked while
// typed; the list covers every store the caller sees, by store and by text; another seller's ids,
// and a team member's stores outside their list, answer 404; without update_campaign nothing
// changes.
func TestStorePages(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	veteran := s.login("seller", "veteran@example.com")
	demo, second, foreign := s.storesOfSellers()
	var seeded int
	if err := s.app.DB.Get(&seeded, `SELECT count(*) FROM store_pages`); err != nil {
		t.Fatal(err)
	}
	good := func(change map[string]any) map[string]any {
		in := map[string]any{"store_id": demo, "title": "Size guide", "slug": "size-guide", "menu_position": "side_column",
			"body": `<h2>Sizes</h2><p onclick="steal()">Measure twice.</p><script>alert(1)</script>`}
		for k, v := range change {
			in[k] = v
		}
		return in
	}
	for _, tc := range []struct {
		name  string
		in    map[string]any
		field string
		msg   string
	}{
		{"no store", good(map[string]any{"store_id": 0}), "store_id", stores.MsgPageStore},
		{"another seller's store", good(map[string]any{"store_id": foreign}), "store_id", stores.MsgPageStore},
		{"no title", good(map[string]any{"title": "  "}), "title", stores.MsgPageTitle},
		{"long title", good(map[string]any{"title": strings.Repeat("t", 201)}), "title", "The title may not be longer than 200 characters."},
		{"no address", good(map[string]any{"slug": ""}), "slug", stores.MsgPageSlug},
		{"spaces in the address", good(map[string]any{"slug": "size guide"}), "slug", stores.MsgPageSlug},
		{"long address", good(map[string]any{"slug": strings.Repeat("a", 81)}), "slug", stores.MsgPageSlug},
		{"long body", good(map[string]any{"body": strings.Repeat("b", stores.MaxBody+1)}), "body", "The body may not be longer than 100000 characters."},
		{"unknown menu", good(map[string]any{"menu_position": "sidebar"}), "menu_position", stores.MsgMenuPosition},
		{"negative order", good(map[string]any{"position": -1}), "position", stores.MsgPosition},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := s.do("POST", "/api/seller/store-pages", seller, tc.in)
			if r.status != 422 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != tc.field || r.body.Errors[0].Message != tc.msg {
				t.Fatalf("%d %s", r.status, r.raw)
			}
		})
	}
	if r := s.do("POST", "/api/seller/store-pages", seller, map[string]any{"title": 7}); r.status != 400 {
		t.Errorf("a title that is not text: %d %s", r.status, r.raw)
	}
	var n int
	if err := s.app.DB.Get(&n, `SELECT count(*) FROM store_pages`); err != nil || n != seeded {
		t.Fatalf("refused input stored pages: %d (was %d) %v", n, seeded, err)
	}

	r := s.do("POST", "/api/seller/store-pages", seller, good(map[string]any{"slug": " Size-Guide "}))
	if r.status != 201 || r.body.Message != stores.MsgPageCreated {
		t.Fatalf("create %d %s", r.status, r.raw)
	}
	page := r.body.Data.(map[string]any)
	id := int64(page["id"].(float64))
	if page["body"] != "<h2>Sizes</h2><p>Measure twice.</p>" || page["slug"] != "size-guide" || page["published"] != true ||
		page["store_id"] != float64(demo) || page["store_slug"] != seed.DemoStoreSlug {
		t.Fatalf("created %v", page)
	}
	path := fmt.Sprintf("/api/seller/store-pages/%d", id)

	t.Run("address unique per store", func(t *testing.T) {
		r := s.do("POST", "/api/seller/store-pages", seller, good(map[string]any{"title": "Other"}))
		if r.status != 422 || r.body.Errors[0].Field != "slug" || r.body.Errors[0].Message != stores.MsgPageSlugTaken {
			t.Fatalf("same address: %d %s", r.status, r.raw)
		}
		check := func(query string) map[string]any {
			r := s.do("GET", "/api/seller/store-pages/slug-availability?"+query, seller, nil)
			return r.body.Data.(map[string]any)
		}
		if d := check(fmt.Sprintf("store_id=%d&slug=size-guide", demo)); d["available"] != false || d["message"] != stores.MsgPageSlugTaken {
			t.Errorf("taken %v", d)
		}
		if d := check(fmt.Sprintf("store_id=%d&slug=size-guide&except=%d", demo, id)); d["available"] != true {
			t.Errorf("its own address %v", d)
		}
		if d := check(fmt.Sprintf("store_id=%d&slug=Size--Guide", demo)); d["available"] != false || d["message"] != stores.MsgPageSlug {
			t.Errorf("bad address %v", d)
		}
		if d := check(fmt.Sprintf("store_id=%d&slug=size-guide", foreign)); d["available"] != false || d["message"] != stores.MsgPageStore {
			t.Errorf("another seller's store %v", d)
		}
		if r := s.do("POST", "/api/seller/store-pages", seller, good(map[string]any{"store_id": second})); r.status != 201 {
			t.Fatalf("same address in another store: %d %s", r.status, r.raw)
		}
	})

	t.Run("list, by store and text", func(t *testing.T) {
		all, r := s.storePages(seller, "")
		if r.status != 200 || all.Total != seeded+2 {
			t.Fatalf("all %d %s", r.status, r.raw)
		}
		one, _ := s.storePages(seller, fmt.Sprintf("?store_id=%d", second))
		if one.Total != 1 || one.Data[0].StoreID != second || one.Data[0].StoreName != "Second" {
			t.Errorf("one store %+v", one)
		}
		found, _ := s.storePages(seller, "?q=SIZE&per_page=1")
		if found.Total != 2 || len(found.Data) != 1 || found.Data[0].Title != "Size guide" {
			t.Errorf("search %+v", found)
		}
		if _, r := s.storePages(seller, fmt.Sprintf("?store_id=%d", foreign)); r.status != 404 {
			t.Errorf("another seller's store: %d", r.status)
		}
	})

	t.Run("saved as a draft, moved to another store", func(t *testing.T) {
		r := s.do("PUT", path, seller, good(map[string]any{"published": false, "title": "Sizes"}))
		if r.status != 200 || r.body.Message != stores.MsgPageSaved || r.body.Data.(map[string]any)["published"] != false {
			t.Fatalf("draft %d %s", r.status, r.raw)
		}
		if r := s.do("PUT", path, seller, good(map[string]any{"store_id": second})); r.status != 422 || r.body.Errors[0].Field != "slug" {
			t.Fatalf("moved onto a taken address: %d %s", r.status, r.raw)
		}
		if r := s.do("PUT", path, seller, good(map[string]any{"store_id": foreign})); r.status != 422 || r.body.Errors[0].Field != "store_id" {
			t.Fatalf("moved to another seller's store: %d %s", r.status, r.raw)
		}
	})

	t.Run("another seller's ids answer 404", func(t *testing.T) {
		for _, method := range []string{"GET", "PUT", "DELETE"} {
			if r := s.do(method, path, veteran, good(map[string]any{"store_id": foreign})); r.status != 404 || r.body.Message != stores.MsgPageNotFound {
				t.Errorf("%s %d %s", method, r.status, r.raw)
			}
		}
		if list, _ := s.storePages(veteran, ""); list.Total != 0 {
			t.Errorf("the veteran lists %+v", list)
		}
		if r := s.do("GET", "/api/seller/store-pages/999999999", seller, nil); r.status != 404 {
			t.Errorf("no such page %d", r.status)
		}
	})

	t.Run("team members", func(t *testing.T) {
		team := s.teamMember(t, path, good(nil), second)
		if list, _ := s.storePages(team, ""); list.Total != 1 || list.Data[0].StoreID != second {
			t.Errorf("the member lists %+v", list)
		}
	})

	if r := s.do("DELETE", path, seller, nil); r.status != 200 || r.body.Message != stores.MsgPageDeleted {
		t.Fatalf("delete %d %s", r.status, r.raw)
	}
	if r := s.do("GET", path, seller, nil); r.status != 404 {
		t.Fatalf("deleted page %d", r.status)
	}
}

// teamMember checks what the seeded team member (get_campaigns, not update_campaign) may do with
// the thing at path: read it, not change it (PUT body), and, once limited to the store limitedTo
// only (the store filter), not even see it. It answers the limited member's session.
func (s *stack) teamMember(t *testing.T, path string, body any, limitedTo int64) string {
	t.Helper()
	team := s.switchInto("team@example.com")
	if r := s.do("GET", path, team, nil); r.status != 200 {
		t.Fatalf("team member reads %d %s", r.status, r.raw)
	}
	if r := s.do("PUT", path, team, body); r.status != 403 {
		t.Errorf("team member without update_campaign saves: %d", r.status)
	}
	if _, err := s.app.DB.Exec(`UPDATE team_members SET store_ids = $1::bigint[] WHERE member_id = $2`,
		fmt.Sprintf("{%d}", limitedTo), s.userID("team@example.com")); err != nil {
		t.Fatal(err)
	}
	team = s.switchInto("team@example.com")
	if r := s.do("GET", path, team, nil); r.status != 404 {
		t.Errorf("%s, of a store outside the member's list: %d", path, r.status)
	}
	return team
}

type sitemapReply struct {
	Addresses []struct {
		Origin, Sitemap, Robots string
		Custom                  bool
	} `json:"addresses"`
	Sections []struct {
		Section string `json:"section"`
		URLs    int    `json:"urls"`
		Files   []struct {
			ID   string `json:"id"`
			URLs int    `json:"urls"`
			URL  string `json:"url"`
		} `json:"files"`
	} `json:"sections"`
}

// TestSitemapScreens: the sitemap screen names where to submit the store's sitemap (its own address
// and its verified domains), its sections with their counts, and pages through a file's addresses,
// as the storefront lists them; another seller's store answers 404.
func TestSitemapScreens(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	veteran := s.login("seller", "veteran@example.com")
	demo, _, _ := s.storesOfSellers()
	if _, err := s.app.DB.Exec(`INSERT INTO store_domains (store_id, domain, verified_at) VALUES ($1, 'shop.example.com', now()),
		($1, 'pending.example.com', NULL)`, demo); err != nil {
		t.Fatal(err)
	}
	path := fmt.Sprintf("/api/seller/stores/%d/sitemap", demo)
	r := s.do("GET", path, seller, nil)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	var m struct{ Data sitemapReply }
	if err := json.Unmarshal(r.raw, &m); err != nil {
		t.Fatal(err)
	}
	// The store's own address first, then its verified domains (the seeded one and ours), not the pending one.
	var verified int
	if err := s.app.DB.Get(&verified, `SELECT count(*) FROM store_domains WHERE store_id = $1 AND verified_at IS NOT NULL`, demo); err != nil {
		t.Fatal(err)
	}
	addrs := m.Data.Addresses
	if len(addrs) != 1+verified || addrs[0].Sitemap != "http://demo.localhost:8082/sitemap.xml" || addrs[0].Custom ||
		addrs[0].Robots != "http://demo.localhost:8082/robots.txt" || !strings.Contains(string(r.raw), `"sitemap":"http://shop.example.com:8082/sitemap.xml","robots":"http://shop.example.com:8082/robots.txt","custom":true`) ||
		strings.Contains(string(r.raw), "pending.example.com") {
		t.Fatalf("addresses %+v", addrs)
	}
	var onSale int
	if err := s.app.DB.Get(&onSale, `SELECT count(DISTINCT campaign_id) FROM store_products WHERE store_id = $1 AND status = 'active'`, demo); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, sec := range m.Data.Sections {
		counts[sec.Section] = sec.URLs
		if (sec.URLs == 0) != (len(sec.Files) == 0) {
			t.Errorf("section %s: %d addresses in %d files", sec.Section, sec.URLs, len(sec.Files))
		}
	}
	// The home and the two seeded pages; the campaigns on sale; no collection, no post.
	if fmt.Sprint(counts) != fmt.Sprint(map[string]int{"pages": 3, "campaigns": onSale, "collections": 0, "blog": 0}) || onSale == 0 {
		t.Fatalf("sections %v (on sale %d)", counts, onSale)
	}
	if f := m.Data.Sections[0].Files[0]; f.ID != "pages-1" || f.URL != "http://demo.localhost:8082/sitemaps/pages-1.xml" {
		t.Errorf("pages file %+v", f)
	}

	type urlPage struct {
		Data []struct {
			URL string `json:"url"`
		} `json:"data"`
		Total    int `json:"total"`
		LastPage int `json:"last_page"`
	}
	urls := func(file, query string) (urlPage, reply) {
		r := s.do("GET", path+"/"+file+"/urls"+query, seller, nil)
		var p urlPage
		if r.status == 200 {
			if err := json.Unmarshal(r.raw, &p); err != nil {
				t.Fatal(err)
			}
		}
		return p, r
	}
	p1, r := urls("pages-1", "?per_page=2")
	if r.status != 200 || p1.Total != 3 || p1.LastPage != 2 || len(p1.Data) != 2 || p1.Data[0].URL != "http://demo.localhost:8082/" ||
		!strings.HasPrefix(p1.Data[1].URL, "http://demo.localhost:8082/p/") {
		t.Fatalf("first page %d %s", r.status, r.raw)
	}
	if p2, _ := urls("pages-1", "?per_page=2&page=2"); len(p2.Data) != 1 {
		t.Errorf("second page %+v", p2)
	}
	if p3, r := urls("pages-1", "?per_page=2&page=3"); r.status != 200 || len(p3.Data) != 0 || p3.Total != 3 {
		t.Errorf("past the end %d %s", r.status, r.raw)
	}
	for _, file := range []string{"pages-2", "blog-1", "nope"} {
		if _, r := urls(file, ""); r.status != 404 || r.body.Message != "This sitemap has no such file: its sections may have changed since the page was loaded." {
			t.Errorf("%s: %d %s", file, r.status, r.raw)
		}
	}
	if r := s.do("GET", path, veteran, nil); r.status != 404 {
		t.Errorf("another seller's sitemap: %d", r.status)
	}
	if r := s.do("GET", path+"/pages-1/urls", veteran, nil); r.status != 404 {
		t.Errorf("another seller's sitemap urls: %d", r.status)
	}
}
