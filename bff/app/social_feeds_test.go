package app

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/bff/socialfeeds"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/storelink"
	"github.com/pressroom/pressroom/worker/feeds"
	"github.com/pressroom/pressroom/worker/tasks"
)

type feedReply struct {
	ID           int64   `json:"id"`
	Format       string  `json:"format"`
	URL          string  `json:"url"`
	State        string  `json:"state"`
	BuiltAt      *string `json:"built_at"`
	Items        int     `json:"item_count"`
	Skipped      int     `json:"skipped_count"`
	AllCampaigns bool    `json:"all_campaigns"`
	Campaigns    []struct {
		ID int64 `json:"id"`
	} `json:"campaigns"`
}

func (s *stack) feed(token string, id int64) (feedReply, reply) {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/seller/social-feeds/%d", id), token, nil)
	var out struct{ Data feedReply }
	if r.status == 200 {
		if err := json.Unmarshal(r.raw, &out); err != nil {
			s.t.Fatal(err)
		}
	}
	return out.Data, r
}

// buildQueued runs, as the worker does, every feed build queued through the outbox and not run yet.
func (s *stack) buildQueued(b *feeds.Builder) {
	s.t.Helper()
	var payloads [][]byte
	if err := s.app.DB.Select(&payloads, `UPDATE task_outbox SET last_error = 'run by the test' WHERE task_type = $1 AND last_error = ''
		RETURNING payload`, tasks.TypeBuildFeed); err != nil {
		s.t.Fatal(err)
	}
	for _, p := range payloads {
		if err := b.ProcessTask(context.Background(), asynq.NewTask(tasks.TypeBuildFeed, p)); err != nil {
			s.t.Fatal(err)
		}
	}
}

// TestSocialFeeds: a feed is checked field by field (nothing stored when refused), saving it queues
// its build, which the worker writes; the screen then shows the stable address, the build time and
// the item count, and the download parses as Google's RSS, or as the Facebook CSV once the format
// changes (the old file gone). Another seller's feed answers 404; a team member without
// update_campaign reads but cannot change.
func TestSocialFeeds(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	veteran := s.login("seller", "veteran@example.com")
	sellerID, veteranID := s.userID("seller@example.com"), s.userID("veteran@example.com")
	var demo, theirs, theirCampaign int64
	s.app.DB.Get(&demo, `SELECT id FROM stores WHERE slug = 'demo'`)
	s.app.DB.Get(&theirs, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'Vic', 'vic.example', 'vic') RETURNING id`, veteranID)
	s.app.DB.Get(&theirCampaign, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'Not yours') RETURNING id`, veteranID)
	// The demo store's campaigns (the first with mockups below; the personalized mug's are the
	// renderer's, which this stack does not run), and a second one on sale with no mockup yet.
	var onSale []int64
	s.app.DB.Select(&onSale, `SELECT DISTINCT campaign_id FROM store_products WHERE store_id = $1 ORDER BY campaign_id`, demo)
	var second int64
	if err := s.app.DB.Get(&second, `WITH c AS (INSERT INTO campaigns (user_id, name, status) VALUES ($1, 'Second', 'active') RETURNING id),
		p AS (INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, options)
			SELECT c.id, p.template_id, p.name, p.product_type, p.print_spaces, p.options FROM c,
			(SELECT * FROM campaign_products WHERE campaign_id = $2 ORDER BY id LIMIT 1) p RETURNING id, campaign_id)
		INSERT INTO store_products (store_id, product_id, campaign_id, price, currency) SELECT $3, id, campaign_id, 2500, 'USD' FROM p
		RETURNING campaign_id`, sellerID, onSale[0], demo); err != nil {
		t.Fatal(err)
	}
	onSale = append(onSale, second)
	// The renderer made the demo campaign's mockups (the test stack runs none).
	res := s.app.DB.MustExec(`INSERT INTO campaign_mockups (campaign_id, product_id, print_space, mockup_template_id, design_id, design_revision, status, file_url)
		SELECT d.campaign_id, d.product_id, d.print_space, mt.id, d.id, d.revision, 'done', 'p/test.png' FROM campaign_designs d
		JOIN campaign_products p ON p.id = d.product_id JOIN mockup_templates mt ON mt.template_id = p.template_id AND mt.print_space = d.print_space
		WHERE d.campaign_id = $1
		ON CONFLICT (product_id, mockup_template_id) DO UPDATE SET status = 'done'`, onSale[0])
	if n, _ := res.RowsAffected(); n == 0 {
		t.Fatal("the demo campaign has no mockups")
	}
	good := func(change map[string]any) map[string]any {
		in := map[string]any{"name": "Google Shopping", "store_id": demo, "format": "google"}
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
		{"no name", good(map[string]any{"name": " "}), "name", socialfeeds.MsgName},
		{"long name", good(map[string]any{"name": strings.Repeat("n", 101)}), "name", "The name may not be longer than 100 characters."},
		{"no store", good(map[string]any{"store_id": 0}), "store_id", socialfeeds.MsgStore},
		{"another seller's store", good(map[string]any{"store_id": theirs}), "store_id", socialfeeds.MsgStore},
		{"an unknown format", good(map[string]any{"format": "pinterest"}), "format", socialfeeds.MsgFormat},
		{"chosen campaigns, none chosen", good(map[string]any{"all_campaigns": false}), "campaign_ids", socialfeeds.MsgCampaigns},
		{"another seller's campaign", good(map[string]any{"all_campaigns": false, "campaign_ids": []int64{onSale[0], theirCampaign}}), "campaign_ids", socialfeeds.MsgCampaigns},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := s.do("POST", "/api/seller/social-feeds", seller, tc.in)
			if r.status != 422 || r.body.Errors[0].Field != tc.field || r.body.Errors[0].Message != tc.msg {
				t.Fatalf("%d %s", r.status, r.raw)
			}
		})
	}
	var stored int
	s.app.DB.Get(&stored, `SELECT count(*) FROM social_feeds`)
	if stored != 0 {
		t.Fatalf("refused feeds stored: %d", stored)
	}
	if r := s.do("POST", "/api/seller/social-feeds", s.switchInto("support@example.com"), good(nil)); r.status != 403 {
		t.Fatalf("a team member without update_campaign creates: %d", r.status)
	}

	r := s.do("POST", "/api/seller/social-feeds", seller, good(map[string]any{"all_campaigns": false, "campaign_ids": onSale[:1]}))
	if r.status != 201 || r.body.Message != socialfeeds.MsgCreated {
		t.Fatalf("create: %d %s", r.status, r.raw)
	}
	id := int64(r.body.Data.(map[string]any)["id"].(float64))
	f, _ := s.feed(seller, id)
	if f.State != "building" || f.BuiltAt != nil || f.URL != fmt.Sprintf("http://127.0.0.1:8082/s/demo/feeds/%d.xml", id) || len(f.Campaigns) != 1 {
		t.Fatalf("new feed: %+v", f)
	}
	if r := s.do("GET", fmt.Sprintf("/api/seller/social-feeds/%d/download", id), seller, nil); r.status != 409 {
		t.Fatalf("download before the build: %d", r.status)
	}
	blobs, err := blob.New(s.cfg.Blob, false)
	if err != nil {
		t.Fatal(err)
	}
	builder, err := feeds.NewBuilder(feeds.DefaultConfig(), s.app.DB, blobs, storelink.DefaultConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s.buildQueued(builder)
	f, _ = s.feed(seller, id)
	if f.State != "ready" || f.BuiltAt == nil || f.Items == 0 {
		t.Fatalf("built feed: %+v", f)
	}
	r = s.do("GET", fmt.Sprintf("/api/seller/social-feeds/%d/download", id), seller, nil)
	var rss struct {
		Items []struct {
			ID   string `xml:"http://base.google.com/ns/1.0 id"`
			Link string `xml:"link"`
		} `xml:"channel>item"`
	}
	if r.status != 200 || !strings.Contains(r.header.Get("Content-Disposition"), `filename="Google-Shopping.xml"`) {
		t.Fatalf("download: %d %v", r.status, r.header)
	}
	if err := xml.Unmarshal(r.raw, &rss); err != nil || len(rss.Items) != f.Items {
		t.Fatalf("%d items read of %d: %v", len(rss.Items), f.Items, err)
	}
	for _, it := range rss.Items {
		if !strings.Contains(it.Link, fmt.Sprintf("/s/demo/c/%d?", onSale[0])) {
			t.Fatalf("an item of another campaign: %+v", it)
		}
	}
	if _, r := s.feed(veteran, id); r.status != 404 {
		t.Fatalf("another seller's feed: %d", r.status)
	}
	if r := s.do("PUT", fmt.Sprintf("/api/seller/social-feeds/%d", id), veteran, good(nil)); r.status != 404 {
		t.Fatalf("another seller saves the feed: %d", r.status)
	}

	// All campaigns, as a Facebook catalogue: the XML file is gone, the CSV comes with the build.
	r = s.do("PUT", fmt.Sprintf("/api/seller/social-feeds/%d", id), seller, good(map[string]any{"format": "facebook", "name": "Catalogue"}))
	if f := r.body.Data.(map[string]any); r.status != 200 || f["state"] != "building" || f["built_at"] != nil || r.body.Message != socialfeeds.MsgSaved {
		t.Fatalf("save: %d %s", r.status, r.raw)
	}
	if _, err := blobs.Stat(context.Background(), tasks.FeedKey(id, "google")); err == nil {
		t.Fatal("the Google file outlived the format change")
	}
	s.buildQueued(builder)
	r = s.do("GET", fmt.Sprintf("/api/seller/social-feeds/%d/download", id), seller, nil)
	rows, err := csv.NewReader(strings.NewReader(string(r.raw))).ReadAll()
	if err != nil || len(rows) < 2 || strings.Join(rows[0], ",") != strings.Join(feeds.FacebookColumns, ",") {
		t.Fatalf("the CSV: %v %q", err, rows)
	}
	f, _ = s.feed(seller, id)
	if f.Items != len(rows)-1 || f.Skipped != len(onSale)-1 || f.URL != fmt.Sprintf("http://127.0.0.1:8082/s/demo/feeds/%d.csv", id) {
		t.Fatalf("%d items recorded, %d rows read, %d products left out; url %s", f.Items, len(rows)-1, f.Skipped, f.URL)
	}
	campaignsIn := map[string]bool{}
	for _, row := range rows[1:] {
		campaignsIn[row[7][:strings.Index(row[7], "?")]] = true
	}
	if len(campaignsIn) != 1 {
		t.Fatalf("the catalogue lists %d campaigns of %d on sale, only the first has mockups", len(campaignsIn), len(onSale))
	}

	r = s.do("POST", fmt.Sprintf("/api/seller/social-feeds/%d/rebuild", id), seller, nil)
	if r.status != 200 || r.body.Message != socialfeeds.MsgRebuild || r.body.Data.(map[string]any)["state"] != "building" {
		t.Fatalf("rebuild: %d %s", r.status, r.raw)
	}
	s.buildQueued(builder)
	if r := s.do("DELETE", fmt.Sprintf("/api/seller/social-feeds/%d", id), seller, nil); r.status != 200 {
		t.Fatalf("delete: %d %s", r.status, r.raw)
	}
	if _, r := s.feed(seller, id); r.status != 404 {
		t.Fatalf("a deleted feed: %d", r.status)
	}
	if _, err := blobs.Stat(context.Background(), tasks.FeedKey(id, "facebook")); err == nil {
		t.Fatal("the deleted feed's file is still stored")
	}
}
