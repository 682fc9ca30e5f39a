package app

import (
	"fmt"
	"sync"
	"testing"

	"github.com/pressroom/pressroom/bff/campaigns"
)

// TestCampaignProductsAreBounded: a campaign takes at most MaxProducts products, at creation and
// when one is added, and the refusal says so.
func TestCampaignProductsAreBounded(t *testing.T) {
	e := newEditor(t)
	poster := e.templates["Poster"]
	many := make([]int64, campaigns.MaxProducts+1)
	for i := range many {
		many[i] = poster
	}
	var before int
	e.app.DB.Get(&before, `SELECT count(*) FROM campaigns`)
	r := e.do("POST", "/api/seller/campaigns", e.token, obj{"name": "Too many", "template_ids": many})
	if r.status != 422 || r.body.Message != campaigns.MsgTooManyProducts || r.body.Errors[0].Field != "template_ids" {
		t.Fatalf("create with %d templates: %d %s", len(many), r.status, r.raw)
	}
	var after int
	e.app.DB.Get(&after, `SELECT count(*) FROM campaigns`)
	if after != before {
		t.Fatalf("a refused campaign was stored: %d campaigns, were %d", after, before)
	}
	r = e.do("POST", "/api/seller/campaigns", e.token, obj{"name": "Full", "template_ids": many[:campaigns.MaxProducts]})
	if r.status != 200 {
		t.Fatalf("create with %d templates: %d %s", campaigns.MaxProducts, r.status, r.raw)
	}
	c := r.body.Data.(obj)
	r = e.do("POST", path(c, "products"), e.token, obj{"template_id": poster})
	if r.status != 422 || r.body.Message != campaigns.MsgTooManyProducts {
		t.Fatalf("adding a product to a full campaign: %d %s", r.status, r.raw)
	}
}

// TestCampaignLimit: an account with a campaign_limit cannot create more campaigns, even in a
// parallel burst; 0 means no limit.
func TestCampaignLimit(t *testing.T) {
	e := newEditor(t)
	var have int
	e.app.DB.Get(&have, `SELECT count(*) FROM campaigns WHERE user_id = $1`, e.sellerID)
	const room = 2
	if _, err := e.app.DB.Exec(`UPDATE users SET campaign_limit = $1 WHERE id = $2`, have+room, e.sellerID); err != nil {
		t.Fatal(err)
	}
	const burst = 6
	statuses := make([]int, burst)
	messages := make([]string, burst)
	var wg sync.WaitGroup
	for i := range burst {
		wg.Go(func() {
			r := e.do("POST", "/api/seller/campaigns", e.token, obj{"name": fmt.Sprint("Burst ", i), "template_ids": []int64{e.templates["Poster"]}})
			statuses[i], messages[i] = r.status, r.body.Message
		})
	}
	wg.Wait()
	created := 0
	want := fmt.Sprintf("Your account can have at most %d campaigns. Delete a campaign to create a new one.", have+room)
	for i, st := range statuses {
		switch {
		case st == 200:
			created++
		case st != 422 || messages[i] != want:
			t.Errorf("create %d: %d %q, want 200 or 422 %q", i, st, messages[i], want)
		}
	}
	var now int
	e.app.DB.Get(&now, `SELECT count(*) FROM campaigns WHERE user_id = $1`, e.sellerID)
	if created != room || now != have+room {
		t.Fatalf("%d of a burst of %d created, %d campaigns in all; want %d and %d", created, burst, now, room, have+room)
	}
	if _, err := e.app.DB.Exec(`UPDATE users SET campaign_limit = 0 WHERE id = $1`, e.sellerID); err != nil {
		t.Fatal(err)
	}
	if r := e.do("POST", "/api/seller/campaigns", e.token, obj{"name": "Unlimited", "template_ids": []int64{e.templates["Poster"]}}); r.status != 200 {
		t.Fatalf("create without a limit: %d %s", r.status, r.raw)
	}
}
