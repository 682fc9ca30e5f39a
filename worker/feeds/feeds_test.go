package feeds

import (
	"context"
	"encoding/csv"
	"encoding/xml"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/storelink"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/worker/tasks"
)

// shop is a store "demo" of one seller selling campaigns of T-shirts (Black and White, S to 2XL, 2XL
// 2.00 more), each product with a finished mockup.
type shop struct {
	db     *sqlx.DB
	blobs  blob.Store
	seller int64
	store  int64
	tmpl   int64
}

func newShop(tb testing.TB) shop {
	tb.Helper()
	db, _ := testinfra.Postgres(tb)
	s := shop{db: db}
	must := func(err error) {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
	}
	must(db.Get(&s.seller, `INSERT INTO users (name, email, password_hash, roles) VALUES ('S', 's@example.com', 'x', '{seller}') RETURNING id`))
	must(db.Get(&s.store, `INSERT INTO stores (owner_id, name, domain, slug, currency) VALUES ($1, 'Demo & <Co>', 'demo.example', 'demo', 'USD') RETURNING id`, s.seller))
	must(db.Get(&s.tmpl, `INSERT INTO product_templates (name, product_type, print_spaces, options, base_cost)
		VALUES ('T-shirt', 'tshirt', '[{"name":"front","width":4500,"height":5400}]', '{"colors":[{"name":"Black","hex":"#111111"},{"name":"White","hex":"#ffffff"}]}', 8.50) RETURNING id`))
	db.MustExec(`INSERT INTO mockup_templates (template_id, print_space, file_url, design_json) VALUES ($1, 'front', 'mockup-templates/t.json', '{}')`, s.tmpl)
	bcfg := blob.DefaultConfig()
	bcfg.Dir, bcfg.SigningKey = tb.TempDir(), strings.Repeat("k", 32)
	blobs, err := blob.New(bcfg, false)
	must(err)
	s.blobs = blobs
	return s
}

// campaigns adds n campaigns named prefix-1..n, each with a T-shirt on sale at 24.00 with a
// finished mockup, in one statement, and answers their ids.
func (s shop) campaigns(tb testing.TB, prefix string, n int) []int64 {
	tb.Helper()
	var ids []int64
	err := s.db.Select(&ids, `
WITH c AS (INSERT INTO campaigns (user_id, name, status) SELECT $1, $3 || '-' || g, 'active' FROM generate_series(1, $4) g RETURNING id),
p AS (INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, options)
	SELECT c.id, t.id, t.name, t.product_type, t.print_spaces, t.options FROM c, product_templates t WHERE t.id = $2 RETURNING id, campaign_id),
d AS (INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json)
	SELECT campaign_id, id, 'front', '{}' FROM p RETURNING id, campaign_id, product_id),
m AS (INSERT INTO campaign_mockups (campaign_id, product_id, print_space, mockup_template_id, design_id, design_revision, status, file_url)
	SELECT d.campaign_id, d.product_id, 'front', mt.id, d.id, 1, 'done', 'p/x.png' FROM d, mockup_templates mt WHERE mt.template_id = $2),
sp AS (INSERT INTO store_products (store_id, product_id, campaign_id, price, currency) SELECT $5, id, campaign_id, 2400, 'USD' FROM p)
SELECT id FROM c ORDER BY id`, s.seller, s.tmpl, prefix, n, s.store)
	if err != nil {
		tb.Fatal(err)
	}
	return ids
}

// feed adds a feed of the store in format, of the chosen campaigns (all when none).
func (s shop) feed(tb testing.TB, format string, chosen ...int64) int64 {
	tb.Helper()
	var id int64
	if err := s.db.Get(&id, `INSERT INTO social_feeds (seller_id, store_id, name, format, all_campaigns) VALUES ($1, $2, 'Feed', $3, $4) RETURNING id`,
		s.seller, s.store, format, len(chosen) == 0); err != nil {
		tb.Fatal(err)
	}
	for _, c := range chosen {
		s.db.MustExec(`INSERT INTO social_feed_campaigns (feed_id, campaign_id) VALUES ($1, $2)`, id, c)
	}
	return id
}

func (s shop) builder(tb testing.TB) *Builder {
	tb.Helper()
	b, err := NewBuilder(DefaultConfig(), s.db, s.blobs, storelink.DefaultConfig(), nil)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// read is the feed's stored file.
func (s shop) read(t *testing.T, id int64, format string) io.ReadCloser {
	t.Helper()
	r, _, err := s.blobs.Get(context.Background(), tasks.FeedKey(id, format))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// rss is a Google Merchant feed as a reader sees it.
type rss struct {
	XMLName xml.Name `xml:"rss"`
	Version string   `xml:"version,attr"`
	Channel struct {
		Title string `xml:"title"`
		Link  string `xml:"link"`
		Items []struct {
			ID           string `xml:"http://base.google.com/ns/1.0 id"`
			Title        string `xml:"title"`
			Link         string `xml:"link"`
			ImageLink    string `xml:"http://base.google.com/ns/1.0 image_link"`
			Availability string `xml:"http://base.google.com/ns/1.0 availability"`
			Price        string `xml:"http://base.google.com/ns/1.0 price"`
			SalePrice    string `xml:"http://base.google.com/ns/1.0 sale_price"`
			Condition    string `xml:"http://base.google.com/ns/1.0 condition"`
			Brand        string `xml:"http://base.google.com/ns/1.0 brand"`
			Group        string `xml:"http://base.google.com/ns/1.0 item_group_id"`
			Color        string `xml:"http://base.google.com/ns/1.0 color"`
			Size         string `xml:"http://base.google.com/ns/1.0 size"`
		} `xml:"item"`
	} `xml:"channel"`
}

// TestGoogleFeed builds a Google Merchant feed and reads it back with an XML reader: an item per
// product, colour and size with the store's prices (the size's extra, the compare-at price as the
// price and the selling price as the sale price), stock, product link and mockup; a product with no
// mockup yet is left out and counted; names are escaped.
func TestGoogleFeed(t *testing.T) {
	s := newShop(t)
	ids := s.campaigns(t, `Cats <&> "Dogs"`, 3)
	s.db.MustExec(`UPDATE store_products SET compare_at_price = 3000 WHERE campaign_id = $1`, ids[0])
	s.db.MustExec(`UPDATE campaign_mockups SET status = 'pending' WHERE campaign_id = $1`, ids[2])
	s.db.MustExec(`INSERT INTO out_of_stock_variants (template_id, color, size) VALUES ($1, 'Black', 'M')`, s.tmpl)
	id := s.feed(t, tasks.FeedGoogle)
	out, err := s.builder(t).Build(context.Background(), id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if out.Items != 20 || out.Skipped != 1 || out.Bytes == 0 {
		t.Fatalf("built %+v, want 20 items and 1 product left out", out)
	}
	r := s.read(t, id, tasks.FeedGoogle)
	defer r.Close()
	var feed rss
	if err := xml.NewDecoder(r).Decode(&feed); err != nil {
		t.Fatal(err)
	}
	if feed.Version != "2.0" || feed.Channel.Title != "Demo & <Co>" || feed.Channel.Link != "http://127.0.0.1:8082/s/demo/" || len(feed.Channel.Items) != 20 {
		t.Fatalf("channel %q %q, %d items", feed.Channel.Title, feed.Channel.Link, len(feed.Channel.Items))
	}
	byID := map[string]int{}
	for i, it := range feed.Channel.Items {
		byID[it.ID] = i
		if it.Condition != "new" || it.Brand != "Demo & <Co>" || !strings.HasPrefix(it.ImageLink, "http://127.0.0.1:8082/s/demo/img/") ||
			!strings.HasPrefix(it.Link, "http://127.0.0.1:8082/s/demo/c/") || it.Group == "" {
			t.Fatalf("item %+v", it)
		}
	}
	var shirt string
	s.db.Get(&shirt, `SELECT id::text FROM campaign_products WHERE campaign_id = $1`, ids[0])
	on := feed.Channel.Items[byID[shirt+"-black-m"]]
	if on.Availability != "out_of_stock" || on.Price != "30.00 USD" || on.SalePrice != "24.00 USD" || on.Color != "Black" || on.Size != "M" ||
		on.Title != `Cats <&> "Dogs"-1 — T-shirt (Black, M)` || on.Link != "http://127.0.0.1:8082/s/demo/c/"+itoaID(ids[0])+"?product="+shirt+"&color=Black" {
		t.Fatalf("Black M of the first campaign: %+v", on)
	}
	if big := feed.Channel.Items[byID[shirt+"-white-2xl"]]; big.Availability != "in_stock" || big.Price != "32.00 USD" || big.SalePrice != "26.00 USD" {
		t.Fatalf("White 2XL: %+v", big)
	}
	var second string
	s.db.Get(&second, `SELECT id::text FROM campaign_products WHERE campaign_id = $1`, ids[1])
	if plain := feed.Channel.Items[byID[second+"-white-s"]]; plain.Price != "24.00 USD" || plain.SalePrice != "" {
		t.Fatalf("a product without compare-at price: %+v", plain)
	}
	var row struct {
		Built, Wanted, Items, Skipped int64
		FP                            string
	}
	s.db.QueryRow(`SELECT built_seq, wanted_seq, item_count, skipped_count, fingerprint FROM social_feeds WHERE id = $1`, id).
		Scan(&row.Built, &row.Wanted, &row.Items, &row.Skipped, &row.FP)
	if row.Built != 1 || row.Wanted != 1 || row.Items != 20 || row.Skipped != 1 || row.FP == "" {
		t.Fatalf("recorded %+v", row)
	}
}

// TestFacebookFeed builds a Facebook catalogue of chosen campaigns and reads it back with a CSV
// reader: the catalogue's columns, an item per colour and size of the chosen campaigns only. A feed
// whose chosen campaigns are all gone is empty, not the whole store.
func TestFacebookFeed(t *testing.T) {
	s := newShop(t)
	ids := s.campaigns(t, "Birds", 4)
	id := s.feed(t, tasks.FeedFacebook, ids[1], ids[3])
	if _, err := s.builder(t).Build(context.Background(), id, 1); err != nil {
		t.Fatal(err)
	}
	r := s.read(t, id, tasks.FeedFacebook)
	rows, err := csv.NewReader(r).ReadAll()
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != strings.Join(FacebookColumns, ",") || len(rows) != 1+20 {
		t.Fatalf("header %q, %d rows", rows[0], len(rows))
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	for _, r := range rows[1:] {
		if !strings.Contains(r[col["title"]], "Birds-2") && !strings.Contains(r[col["title"]], "Birds-4") {
			t.Fatalf("an item of a campaign not chosen: %q", r)
		}
		if r[col["availability"]] != "in stock" || r[col["condition"]] != "new" || !strings.HasSuffix(r[col["price"]], " USD") {
			t.Fatalf("row %q", r)
		}
	}
	s.db.MustExec(`DELETE FROM social_feed_campaigns WHERE feed_id = $1`, id)
	s.db.MustExec(`UPDATE social_feeds SET wanted_seq = 2 WHERE id = $1`, id)
	out, err := s.builder(t).Build(context.Background(), id, 2)
	if err != nil || out.Items != 0 {
		t.Fatalf("a feed of no campaign: %+v %v", out, err)
	}
}

// TestBuildOnce: a build for a change already built does nothing, and a build records the latest
// change it read, so the builds queued for earlier changes find nothing left to do.
func TestBuildOnce(t *testing.T) {
	s := newShop(t)
	s.campaigns(t, "Fish", 1)
	id := s.feed(t, tasks.FeedGoogle)
	s.db.MustExec(`UPDATE social_feeds SET wanted_seq = 3 WHERE id = $1`, id)
	b := s.builder(t)
	ctx := context.Background()
	if out, err := b.Build(ctx, id, 2); err != nil || out.Items != 10 {
		t.Fatalf("first build: %+v %v", out, err)
	}
	for _, seq := range []int64{1, 2, 3} {
		if out, err := b.Build(ctx, id, seq); err != nil || out.Items != 0 {
			t.Fatalf("a build for change %d after change 3 was built: %+v %v", seq, out, err)
		}
	}
	var built int64
	s.db.Get(&built, `SELECT built_seq FROM social_feeds WHERE id = $1`, id)
	if built != 3 {
		t.Fatalf("built_seq %d", built)
	}
}

// TestWatch: a built feed whose catalogue did not change is left alone; a price change queues one
// build through the outbox, and no second one while it is pending.
func TestWatch(t *testing.T) {
	s := newShop(t)
	ids := s.campaigns(t, "Owls", 2)
	id := s.feed(t, tasks.FeedGoogle)
	ctx := context.Background()
	if _, err := s.builder(t).Build(ctx, id, 1); err != nil {
		t.Fatal(err)
	}
	relay := testRelay(t, s.db)
	w, err := NewWatcher(DefaultConfig(), s.db, relay, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := w.Pass(ctx); err != nil || n != 0 {
		t.Fatalf("unchanged catalogue: %d queued, %v", n, err)
	}
	s.db.MustExec(`UPDATE store_products SET price = 2600, updated_at = now() WHERE campaign_id = $1`, ids[0])
	for i, want := range []int{1, 0} {
		if n, err := w.Pass(ctx); err != nil || n != want {
			t.Fatalf("pass %d after a price change: %d queued, %v", i+1, n, err)
		}
	}
	var queued []string
	s.db.Select(&queued, `SELECT task_id FROM task_outbox WHERE task_type = $1`, tasks.TypeBuildFeed)
	if len(queued) != 1 || queued[0] != "feed-build-"+itoaID(id)+"-2" {
		t.Fatalf("queued %q", queued)
	}
	if _, err := s.builder(t).Build(ctx, id, 2); err != nil {
		t.Fatal(err)
	}
	if n, _ := w.Pass(ctx); n != 0 {
		t.Fatalf("after the rebuild: %d queued", n)
	}
}

// testRelay is an outbox relay to the test Redis.
func testRelay(t *testing.T, db *sqlx.DB) *outbox.Relay {
	t.Helper()
	addr, n := testinfra.Redis(t)
	client := asynq.NewClient(asynq.RedisClientOpt{Addr: addr, DB: n})
	t.Cleanup(func() { client.Close() })
	relay, err := outbox.NewRelay(outbox.DefaultConfig(), db, client, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return relay
}

func itoaID(id int64) string { return strconv.FormatInt(id, 10) }
