package app

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/stores"
)

// TestStores: a seller creates, lists, edits and deletes a store, checks a slug while typing and
// publishes a campaign at base cost plus a margin (its pages: TestStorePages); a team member
// without update_campaign reads but cannot change; another seller sees nothing of it.
func TestStores(t *testing.T) {
	s := newStack(t)
	seller := s.mint("seller@example.com", "own", "", false)
	team := s.mint("seller@example.com", "switched", "team@example.com", true)
	s.addUser("other@example.com", []string{"seller"}, []string{}, true, false)
	other := s.mint("other@example.com", "own", "", false)

	r := s.do("GET", "/api/seller/stores/slug-availability?slug=demo", seller, nil)
	if r.status != 200 || r.body.Data.(map[string]any)["available"] != false {
		t.Fatalf("demo is the seeded store's: %d %s", r.status, r.raw)
	}
	r = s.do("GET", "/api/seller/stores/slug-availability?slug=Bad--Slug", seller, nil)
	if r.body.Data.(map[string]any)["message"] == "" {
		t.Errorf("bad slug has no message: %s", r.raw)
	}
	body := map[string]any{"name": "Cat Shirts", "slug": "cat-shirts", "currency": "EUR", "target_market": "Europe",
		"review_setting": "enable-only-store", "primary_color": "#112233"}
	if r := s.do("POST", "/api/seller/stores", team, body); r.status != 403 {
		t.Fatalf("team member without update_campaign creates: %d", r.status)
	}
	r = s.do("POST", "/api/seller/stores", seller, body)
	if r.status != 200 {
		t.Fatalf("create: %d %s", r.status, r.raw)
	}
	id := strconv.Itoa(int(r.body.Data.(map[string]any)["id"].(float64)))
	if r := s.do("POST", "/api/seller/stores", seller, body); r.status != 422 || r.body.Message != stores.MsgSlugTaken {
		t.Fatalf("same slug again: %d %s", r.status, r.raw)
	}
	bad := map[string]any{"name": "", "slug": "x", "currency": "GBP", "target_market": "Mars", "review_setting": "maybe", "primary_color": "red"}
	r = s.do("POST", "/api/seller/stores", seller, bad)
	if r.status != 422 || len(r.body.Errors) != 6 {
		t.Fatalf("bad store: %d %s", r.status, r.raw)
	}
	r = s.do("GET", "/api/seller/stores?per_page=1", team, nil)
	var list envelope.Page[map[string]any]
	if err := json.Unmarshal(r.raw, &list); err != nil || r.status != 200 || list.Total != 2 || len(list.Data) != 1 || list.LastPage != 2 {
		t.Fatalf("list: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", "/api/seller/stores/"+id, other, nil); r.status != 404 {
		t.Fatalf("another seller reads the store: %d", r.status)
	}
	body["name"] = "Cat Shirts EU"
	if r := s.do("PUT", "/api/seller/stores/"+id, seller, body); r.status != 200 || r.body.Data.(map[string]any)["name"] != "Cat Shirts EU" {
		t.Fatalf("update: %d %s", r.status, r.raw)
	}

	var campaign int64
	if err := s.app.DB.Get(&campaign, `SELECT c.id FROM campaigns c JOIN users u ON u.id = c.user_id WHERE u.email = 'seller@example.com' LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	pub := map[string]any{"campaign_id": campaign, "margin": "10.005"}
	if r := s.do("POST", "/api/seller/stores/"+id+"/campaigns", seller, pub); r.status != 422 || r.body.Errors[0].Field != "margin" {
		t.Fatalf("fraction of a cent margin: %d %s", r.status, r.raw)
	}
	pub["margin"] = "11.49"
	r = s.do("POST", "/api/seller/stores/"+id+"/campaigns", seller, pub)
	if r.status != 200 {
		t.Fatalf("publish: %d %s", r.status, r.raw)
	}
	p := r.body.Data.([]any)[0].(map[string]any)
	if p["price"] != float64(1999) || p["currency"] != "EUR" || p["status"] != "active" {
		t.Errorf("published product %v", p)
	}
	if r := s.do("POST", "/api/seller/stores/"+id+"/campaigns", other, pub); r.status != 404 {
		t.Errorf("another seller publishes to the store: %d", r.status)
	}
	if r := s.do("DELETE", "/api/seller/stores/"+id+"/campaigns/"+strconv.FormatInt(campaign, 10), seller, nil); r.status != 200 {
		t.Errorf("unpublish: %d %s", r.status, r.raw)
	}
	if r := s.do("DELETE", "/api/seller/stores/"+id, seller, nil); r.status != 200 {
		t.Fatalf("delete: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", "/api/seller/stores/"+id, seller, nil); r.status != 404 {
		t.Fatalf("deleted store: %d", r.status)
	}
}
