package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/collections"
)

type collectionReply struct {
	ID        int64   `json:"id"`
	Slug      string  `json:"slug"`
	AllStores bool    `json:"all_stores"`
	StoreIDs  []int64 `json:"store_ids"`
	Campaigns []struct {
		ID               int64 `json:"id"`
		FeaturedPosition *int  `json:"featured_position"`
	} `json:"campaigns"`
	CampaignsCount int `json:"campaigns_count"`
	FeaturedCount  int `json:"featured_count"`
}

func (s *stack) collection(token string, id int64) (collectionReply, reply) {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/seller/collections/%d", id), token, nil)
	var out struct{ Data collectionReply }
	if r.status == 200 {
		if err := json.Unmarshal(r.raw, &out); err != nil {
			s.t.Fatal(err)
		}
	}
	return out.Data, r
}

// featuredOrder is the collection's featured campaigns in their order.
func (c collectionReply) featuredOrder() []int64 {
	out := []int64{}
	for _, m := range c.Campaigns {
		if m.FeaturedPosition != nil {
			if *m.FeaturedPosition != len(out)+1 {
				panic(fmt.Sprintf("featured positions have a gap: %+v", c.Campaigns))
			}
			out = append(out, m.ID)
		}
	}
	return out
}

// TestCollections: a collection is checked field by field, its address is unique in the account (not
// across accounts), it holds only the seller's campaigns, its featured campaigns keep the order the
// seller gives and only its own campaigns can be featured; another seller's ids answer 404.
func TestCollections(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	veteran := s.login("seller", "veteran@example.com")
	sellerID, veteranID := s.userID("seller@example.com"), s.userID("veteran@example.com")
	var store, foreignStore, foreignCampaign int64
	if err := s.app.DB.Get(&store, `SELECT id FROM stores WHERE owner_id = $1 ORDER BY id LIMIT 1`, sellerID); err != nil {
		t.Fatal(err)
	}
	if err := s.app.DB.Get(&foreignStore, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'Vic', 'vic.example', 'vic') RETURNING id`, veteranID); err != nil {
		t.Fatal(err)
	}
	if err := s.app.DB.Get(&foreignCampaign, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'Not yours') RETURNING id`, veteranID); err != nil {
		t.Fatal(err)
	}
	var mine []int64
	for _, name := range []string{"Alpha", "Bravo", "Charlie", "Delta"} {
		var id int64
		if err := s.app.DB.Get(&id, `INSERT INTO campaigns (user_id, name) VALUES ($1, $2) RETURNING id`, sellerID, name); err != nil {
			t.Fatal(err)
		}
		mine = append(mine, id)
	}
	good := func(change map[string]any) map[string]any {
		in := map[string]any{"name": "Summer", "slug": "summer", "description": "Hot days.", "campaign_ids": mine}
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
		{"no name", good(map[string]any{"name": "  "}), "name", collections.MsgName},
		{"long name", good(map[string]any{"name": strings.Repeat("n", 101)}), "name", "The name may not be longer than 100 characters."},
		{"no address", good(map[string]any{"slug": ""}), "slug", collections.MsgSlug},
		{"spaces in the address", good(map[string]any{"slug": "hot days"}), "slug", collections.MsgSlug},
		{"double hyphen", good(map[string]any{"slug": "hot--days"}), "slug", collections.MsgSlug},
		{"long description", good(map[string]any{"description": strings.Repeat("d", 2001)}), "description", "The description may not be longer than 2000 characters."},
		{"chosen stores, none chosen", good(map[string]any{"all_stores": false}), "store_ids", collections.MsgStores},
		{"another seller's store", good(map[string]any{"all_stores": false, "store_ids": []int64{store, foreignStore}}), "store_ids", collections.MsgStores},
		{"another seller's campaign", good(map[string]any{"campaign_ids": append([]int64{foreignCampaign}, mine...)}), "campaign_ids", collections.MsgCampaigns},
		{"no such campaign", good(map[string]any{"campaign_ids": []int64{mine[0], 1 << 40}}), "campaign_ids", collections.MsgCampaigns},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := s.do("POST", "/api/seller/collections", seller, tc.in)
			if r.status != 422 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != tc.field || r.body.Errors[0].Message != tc.msg {
				t.Fatalf("%d %s", r.status, r.raw)
			}
		})
	}
	if n := collectionRows(s, `SELECT count(*) FROM collections`); n != 0 {
		t.Fatalf("refused input stored %d collections", n)
	}

	r := s.do("POST", "/api/seller/collections", seller, good(map[string]any{"slug": " Summer "}))
	if r.status != 201 || r.body.Message != collections.MsgCreated {
		t.Fatalf("create %d %s", r.status, r.raw)
	}
	id := int64(r.body.Data.(map[string]any)["id"].(float64))
	c, _ := s.collection(seller, id)
	if c.Slug != "summer" || !c.AllStores || len(c.Campaigns) != 4 || len(c.featuredOrder()) != 0 {
		t.Fatalf("created %+v", c)
	}

	t.Run("address unique per seller", func(t *testing.T) {
		r := s.do("POST", "/api/seller/collections", seller, good(map[string]any{"name": "Other"}))
		if r.status != 422 || r.body.Errors[0].Field != "slug" || r.body.Errors[0].Message != collections.MsgSlugTaken {
			t.Fatalf("same address: %d %s", r.status, r.raw)
		}
		r = s.do("GET", "/api/seller/collections/slug-availability?slug=summer", seller, nil)
		if d := r.body.Data.(map[string]any); d["available"] != false || d["message"] != collections.MsgSlugTaken {
			t.Fatalf("availability %s", r.raw)
		}
		r = s.do("GET", fmt.Sprintf("/api/seller/collections/slug-availability?slug=summer&except=%d", id), seller, nil)
		if d := r.body.Data.(map[string]any); d["available"] != true {
			t.Fatalf("availability of its own address %s", r.raw)
		}
		r = s.do("GET", "/api/seller/collections/slug-availability?slug=summer", veteran, nil)
		if d := r.body.Data.(map[string]any); d["available"] != true {
			t.Fatalf("another seller's address %s", r.raw)
		}
		if r := s.do("POST", "/api/seller/collections", veteran, good(map[string]any{"campaign_ids": []int64{foreignCampaign}})); r.status != 201 {
			t.Fatalf("another seller, same address: %d %s", r.status, r.raw)
		}
	})

	path := fmt.Sprintf("/api/seller/collections/%d", id)
	t.Run("featured order", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			ids  []int64
			msg  string
		}{
			{"a campaign outside the collection", []int64{mine[0], foreignCampaign}, collections.MsgFeatured},
			{"twice", []int64{mine[0], mine[0]}, collections.MsgFeaturedRepeat},
			{"too many", make([]int64, collections.MaxFeatured+1), collections.MsgTooManyFeature},
		} {
			r := s.do("PUT", path+"/featured-campaigns", seller, map[string]any{"campaign_ids": tc.ids})
			if r.status != 422 || r.body.Errors[0].Field != "campaign_ids" || r.body.Errors[0].Message != tc.msg {
				t.Fatalf("%s: %d %s", tc.name, r.status, r.raw)
			}
		}
		want := []int64{mine[2], mine[0], mine[3]}
		r := s.do("PUT", path+"/featured-campaigns", seller, map[string]any{"campaign_ids": want})
		if r.status != 200 || r.body.Message != collections.MsgFeaturedSaved {
			t.Fatalf("feature %d %s", r.status, r.raw)
		}
		c, _ := s.collection(seller, id)
		if got := c.featuredOrder(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("featured %v, want %v", got, want)
		}
		// Reversed in one call: no two campaigns ever share a position.
		rev := []int64{mine[3], mine[0], mine[2]}
		if r := s.do("PUT", path+"/featured-campaigns", seller, map[string]any{"campaign_ids": rev}); r.status != 200 {
			t.Fatalf("reverse %d %s", r.status, r.raw)
		}
		// Taking a featured campaign out of the collection closes the gap; the rest keep their order.
		r = s.do("PUT", path, seller, good(map[string]any{"name": "Summer sale", "campaign_ids": []int64{mine[1], mine[2], mine[3]}}))
		if r.status != 200 || r.body.Message != collections.MsgSaved {
			t.Fatalf("update %d %s", r.status, r.raw)
		}
		c, _ = s.collection(seller, id)
		if got := c.featuredOrder(); fmt.Sprint(got) != fmt.Sprint([]int64{mine[3], mine[2]}) || len(c.Campaigns) != 3 {
			t.Fatalf("after removing one: %v of %+v", got, c.Campaigns)
		}
	})

	t.Run("concurrent reorders leave one whole order", func(t *testing.T) {
		orders := [][]int64{{mine[1], mine[2], mine[3]}, {mine[3], mine[2], mine[1]}, {mine[2], mine[1]}, {mine[1]}}
		var wg sync.WaitGroup
		for i := 0; i < 12; i++ {
			wg.Add(1)
			go func(ids []int64) {
				defer wg.Done()
				if r := s.do("PUT", path+"/featured-campaigns", seller, map[string]any{"campaign_ids": ids}); r.status != 200 {
					t.Errorf("reorder %d %s", r.status, r.raw)
				}
			}(orders[i%len(orders)])
		}
		wg.Wait()
		c, _ := s.collection(seller, id)
		got := fmt.Sprint(c.featuredOrder()) // panics on a gap
		found := false
		for _, o := range orders {
			found = found || got == fmt.Sprint(o)
		}
		if !found {
			t.Fatalf("featured %s is none of the orders sent", got)
		}
	})

	t.Run("chosen stores", func(t *testing.T) {
		r := s.do("PUT", path, seller, good(map[string]any{"name": "Summer sale", "campaign_ids": []int64{mine[1], mine[2], mine[3]},
			"all_stores": false, "store_ids": []int64{store}}))
		if r.status != 200 {
			t.Fatalf("%d %s", r.status, r.raw)
		}
		c, _ := s.collection(seller, id)
		if c.AllStores || len(c.StoreIDs) != 1 || c.StoreIDs[0] != store {
			t.Fatalf("stores %+v", c)
		}
	})

	t.Run("another seller's ids answer 404", func(t *testing.T) {
		for _, m := range []string{"GET", "PUT", "DELETE"} {
			if r := s.do(m, path, veteran, good(nil)); r.status != 404 || r.body.Message != collections.MsgNotFound {
				t.Errorf("%s: %d %s", m, r.status, r.raw)
			}
		}
		if r := s.do("PUT", path+"/featured-campaigns", veteran, map[string]any{"campaign_ids": []int64{}}); r.status != 404 {
			t.Errorf("featured: %d %s", r.status, r.raw)
		}
		r := s.do("GET", "/api/seller/collections", veteran, nil)
		if !strings.Contains(string(r.raw), `"total":1`) || strings.Contains(string(r.raw), "Summer sale") {
			t.Errorf("another seller lists %s", r.raw)
		}
	})

	t.Run("list and delete", func(t *testing.T) {
		r := s.do("GET", "/api/seller/collections?q=sale", seller, nil)
		var l struct {
			Data  []collectionReply
			Total int
		}
		json.Unmarshal(r.raw, &l)
		if r.status != 200 || l.Total != 1 || l.Data[0].ID != id || l.Data[0].CampaignsCount != 3 || l.Data[0].FeaturedCount != len(mustGet(s, seller, id).featuredOrder()) {
			t.Fatalf("list %d %s", r.status, r.raw)
		}
		if r := s.do("DELETE", path, seller, nil); r.status != 200 || r.body.Message != collections.MsgDeleted {
			t.Fatalf("delete %d %s", r.status, r.raw)
		}
		if _, r := s.collection(seller, id); r.status != 404 {
			t.Fatalf("after delete %d", r.status)
		}
		if n := collectionRows(s, `SELECT count(*) FROM collection_campaigns WHERE collection_id = $1`, id); n != 0 {
			t.Fatalf("%d campaigns left behind", n)
		}
	})
}

func mustGet(s *stack, token string, id int64) collectionReply {
	c, r := s.collection(token, id)
	if r.status != 200 {
		s.t.Fatalf("get collection %d: %d %s", id, r.status, r.raw)
	}
	return c
}

// collectionRows counts the rows of a query on the collection tables.
func collectionRows(s *stack, q string, args ...any) int {
	s.t.Helper()
	var n int
	if err := s.app.DB.Get(&n, q, args...); err != nil {
		s.t.Fatal(err)
	}
	return n
}

// TestCollectionRoutesDeclareTheirPermissions pins what the collection routes demand: reads
// get_campaigns, changes update_campaign; TestEveryAPIRouteIsDeclaredAndEnforced checks each is
// enforced as declared.
func TestCollectionRoutesDeclareTheirPermissions(t *testing.T) {
	s := newStack(t)
	read, write := access.Permitted(access.GetCampaigns), access.Permitted(access.UpdateCampaign)
	for route, need := range map[string]access.Need{
		"GET /api/seller/collections":                        read,
		"GET /api/seller/collections/slug-availability":      read,
		"GET /api/seller/collections/:id":                    read,
		"POST /api/seller/collections":                       write,
		"PUT /api/seller/collections/:id":                    write,
		"DELETE /api/seller/collections/:id":                 write,
		"PUT /api/seller/collections/:id/featured-campaigns": write,
	} {
		method, path, _ := strings.Cut(route, " ")
		if got, ok := s.app.Auth.Declared(method, path); !ok || got.String() != need.String() {
			t.Errorf("%s declares %q (%v), want %q", route, got, ok, need)
		}
	}
}
