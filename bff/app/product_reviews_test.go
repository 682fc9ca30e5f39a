package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/bff/reviews"
	rules "github.com/pressroom/pressroom/commerce/reviews"
	"github.com/pressroom/pressroom/platform/blob"
)

type reviewList struct {
	Data []struct {
		ID       int64  `json:"id"`
		Rating   int    `json:"rating"`
		Body     string `json:"body"`
		Status   string `json:"status"`
		Reply    string `json:"reply"`
		Author   string `json:"author"`
		OrderNum string `json:"order_number"`
		Store    struct {
			ID int64 `json:"id"`
		} `json:"store"`
		Campaign *struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"campaign"`
		Photo *struct {
			Status string `json:"status"`
			URL    string `json:"url"`
		} `json:"photo"`
	} `json:"data"`
	Total int `json:"total"`
}

func (s *stack) productReviews(token, query string) (reviewList, reply) {
	s.t.Helper()
	r := s.do("GET", "/api/seller/product-reviews?"+query, token, nil)
	var out reviewList
	if r.status == 200 {
		if err := json.Unmarshal(r.raw, &out); err != nil {
			s.t.Fatal(err)
		}
	}
	return out, r
}

// delivered buys an order in the demo store, ships and delivers it through the seller's actions,
// and answers its item.
func (s *stack) delivered(seller, email string) int64 {
	s.t.Helper()
	order, _ := s.buy(email, "Rae Reviewer", 1)
	if r := s.do("POST", fmt.Sprintf("/api/seller/orders/%d/actions/ship", order), seller,
		map[string]any{"carrier": "DHL", "tracking_number": "RV" + email[:3]}); r.status != 200 {
		s.t.Fatalf("ship: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", fmt.Sprintf("/api/seller/orders/%d/actions/deliver", order), seller, map[string]any{}); r.status != 200 {
		s.t.Fatalf("deliver: %d %s", r.status, r.raw)
	}
	var item int64
	if err := s.app.DB.Get(&item, `SELECT id FROM order_items WHERE order_id = $1`, order); err != nil {
		s.t.Fatal(err)
	}
	return item
}

// TestProductReviews: the seller lists the reviews of the account's stores with the filters (each
// bad one named), publishes, hides and replies (the reply cleaned and bounded); the store then
// shows what its setting says. A team member without update_campaign reads but cannot answer;
// another seller sees none of them.
func TestProductReviews(t *testing.T) {
	s := newStack(t)
	ctx := context.Background()
	seller := s.login("seller", "seller@example.com")
	veteran := s.login("seller", "veteran@example.com")
	var store int64
	if err := s.app.DB.Get(&store, `SELECT id FROM stores WHERE slug = 'demo'`); err != nil {
		t.Fatal(err)
	}
	s.app.DB.MustExec(`UPDATE stores SET review_setting = 'enable-only-store' WHERE id = $1`, store)
	loved, disliked := s.delivered(seller, "one@example.com"), s.delivered(seller, "two@example.com")
	for _, in := range []struct {
		item   int64
		rating int
		body   string
	}{{loved, 5, "Lovely print."}, {disliked, 2, "Faded after one wash."}} {
		if _, err := rules.Submit(ctx, s.app.DB, store, in.item, rules.Input{Rating: in.rating, Author: "Rae R.", Body: in.body}); err != nil {
			t.Fatal(err)
		}
	}
	// The delivery e-mail of each order was queued with the delivery.
	var mails int
	s.app.DB.Get(&mails, `SELECT count(*) FROM task_outbox WHERE task_type = 'orders:delivery-mail'`)
	if mails != 2 {
		t.Fatalf("%d delivery mails queued", mails)
	}

	for _, tc := range []struct {
		query string
		ids   []int64
	}{
		{"", []int64{disliked, loved}},
		{"rating=2", []int64{disliked}},
		{"status=pending", []int64{disliked, loved}},
		{"status=published", nil},
		{"date_range=today", []int64{disliked, loved}},
		{"date_range=last_month", nil},
		{fmt.Sprintf("store_id=%d", store), []int64{disliked, loved}},
		{fmt.Sprintf("store_id=%d", store+1000), nil},
		{"q=faded", []int64{disliked}},
	} {
		t.Run("filter "+tc.query, func(t *testing.T) {
			list, r := s.productReviews(seller, tc.query)
			if r.status != 200 || list.Total != len(tc.ids) {
				t.Fatalf("%d %s", r.status, r.raw)
			}
			for i, want := range tc.ids {
				var item int64
				s.app.DB.Get(&item, `SELECT order_item_id FROM product_reviews WHERE id = $1`, list.Data[i].ID)
				if item != want || list.Data[i].Campaign == nil || list.Data[i].OrderNum == "" {
					t.Fatalf("row %d: %+v", i, list.Data[i])
				}
			}
		})
	}
	for _, tc := range []struct{ query, field string }{
		{"rating=6", "rating"}, {"rating=x", "rating"}, {"status=deleted", "status"}, {"store_id=-1", "store_id"},
		{"date_range=fortnight", "date_range"},
	} {
		if _, r := s.productReviews(seller, tc.query); r.status != 422 || r.body.Errors[0].Field != tc.field {
			t.Errorf("%s: %d %s", tc.query, r.status, r.raw)
		}
	}
	var id int64
	s.app.DB.Get(&id, `SELECT id FROM product_reviews WHERE order_item_id = $1`, loved)
	path := fmt.Sprintf("/api/seller/product-reviews/%d", id)

	// Another seller: nothing to see, nothing to answer.
	if list, _ := s.productReviews(veteran, ""); list.Total != 0 {
		t.Fatalf("another seller sees %d reviews", list.Total)
	}
	if r := s.do("POST", path+"/publish", veteran, nil); r.status != 404 {
		t.Fatalf("another seller publishes: %d", r.status)
	}
	// A team member with get_campaigns only reads.
	team := s.switchInto("support@example.com")
	if list, _ := s.productReviews(team, ""); list.Total != 2 {
		t.Fatalf("the team member sees %d reviews", list.Total)
	}
	if r := s.do("POST", path+"/publish", team, nil); r.status != 403 {
		t.Fatalf("a team member without update_campaign publishes: %d", r.status)
	}

	shown := func() int {
		t.Helper()
		sh, err := rules.ForCampaign(ctx, s.app.DB, store, s.campaignOf(loved), 20)
		if err != nil {
			t.Fatal(err)
		}
		return sh.Count
	}
	r := s.do("POST", path+"/publish", seller, nil)
	if r.status != 200 || r.body.Message != reviews.MsgPublished || r.body.Data.(map[string]any)["status"] != "published" || shown() != 1 {
		t.Fatalf("publish: %d %s (shown %d)", r.status, r.raw, shown())
	}
	if r := s.do("POST", path+"/publish", seller, nil); r.status != 200 {
		t.Fatalf("publish again: %d", r.status)
	}
	for _, tc := range []struct {
		reply  string
		status int
		want   string
		msg    string
	}{
		{strings.Repeat("x", rules.MaxReply+1), 422, "", ""},
		{"  <b>Thank you</b>, Rae!<script>x()</script> ", 200, "Thank you, Rae!", reviews.MsgReplied},
		{"  ", 200, "", reviews.MsgUnreplied},
	} {
		r := s.do("PUT", path+"/reply", seller, map[string]any{"reply": tc.reply})
		if r.status != tc.status {
			t.Fatalf("reply %q: %d %s", tc.reply, r.status, r.raw)
		}
		if tc.status == 422 {
			if r.body.Errors[0].Field != "reply" {
				t.Fatalf("reply too long: %s", r.raw)
			}
			continue
		}
		if got := r.body.Data.(map[string]any)["reply"]; got != tc.want || r.body.Message != tc.msg {
			t.Fatalf("reply %q stored %q (%s)", tc.reply, got, r.body.Message)
		}
	}
	if r := s.do("POST", path+"/hide", seller, nil); r.status != 200 || r.body.Message != reviews.MsgHidden || shown() != 0 {
		t.Fatalf("hide: %d %s", r.status, r.raw)
	}
	// No photo: the photo route says so. A photo shows once the renderer passed it.
	if r := s.do("GET", path+"/photo", seller, nil); r.status != 404 {
		t.Fatalf("photo of a review without one: %d", r.status)
	}
	blobs, err := blob.New(s.cfg.Blob, false)
	if err != nil {
		t.Fatal(err)
	}
	key := "reviews/photo-test.png"
	if err := blobs.Put(ctx, key, strings.NewReader("png bytes"), -1, "image/png"); err != nil {
		t.Fatal(err)
	}
	s.app.DB.MustExec(`WITH u AS (INSERT INTO uploads (blob_key, file_name, kind) VALUES ($1, 'cat.png', 'review') RETURNING id)
		UPDATE product_reviews SET photo_upload_id = (SELECT id FROM u) WHERE id = $2`, key, id)
	if r := s.do("GET", path+"/photo", seller, nil); r.status != 404 {
		t.Fatalf("a photo not checked yet: %d", r.status)
	}
	if list, _ := s.productReviews(seller, "rating=5"); list.Data[0].Photo == nil || list.Data[0].Photo.Status != "pending" {
		t.Fatalf("the list's photo: %+v", list.Data[0].Photo)
	}
	s.app.DB.MustExec(`UPDATE uploads SET status = 'ready', content_type = 'image/png' WHERE blob_key = $1`, key)
	if r := s.do("GET", path+"/photo", seller, nil); r.status != 200 || string(r.raw) != "png bytes" || r.header.Get("Content-Type") != "image/png" {
		t.Fatalf("photo: %d %q", r.status, r.raw)
	}
	if r := s.do("GET", path+"/photo", veteran, nil); r.status != 404 {
		t.Fatalf("another seller's photo: %d", r.status)
	}
}

// campaignOf is the campaign of an order item.
func (s *stack) campaignOf(item int64) int64 {
	s.t.Helper()
	var id int64
	if err := s.app.DB.Get(&id, `SELECT campaign_id FROM order_items WHERE id = $1`, item); err != nil {
		s.t.Fatal(err)
	}
	return id
}
