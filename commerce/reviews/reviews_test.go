package reviews

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/orders"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/worker/tasks"
)

// fixture is a seller with two stores (north, south) selling one campaign, and an order in north
// of two items: the shirt delivered, the mug shipped only.
type fixture struct {
	db                 *sqlx.DB
	seller             int64
	north, south       int64
	campaign           int64
	order              int64
	shirtItem, mugItem int64
	otherSellersStore  int64
}

func setup(t *testing.T) fixture {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	f := fixture{db: db}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.Get(&f.seller, `INSERT INTO users (name, email, password_hash, roles) VALUES ('S', 's@example.com', 'x', '{seller}') RETURNING id`))
	must(db.Get(&f.north, `INSERT INTO stores (owner_id, name, domain, slug, review_setting) VALUES ($1, 'North', 'n.example', 'north', 'enable-only-store') RETURNING id`, f.seller))
	must(db.Get(&f.south, `INSERT INTO stores (owner_id, name, domain, slug, review_setting) VALUES ($1, 'South', 's.example', 'south', 'enable-share-review') RETURNING id`, f.seller))
	var other int64
	must(db.Get(&other, `INSERT INTO users (name, email, password_hash, roles) VALUES ('O', 'o@example.com', 'x', '{seller}') RETURNING id`))
	must(db.Get(&f.otherSellersStore, `INSERT INTO stores (owner_id, name, domain, slug, review_setting) VALUES ($1, 'Other', 'o.example', 'other', 'enable-share-review') RETURNING id`, other))
	must(db.Get(&f.campaign, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'Cats') RETURNING id`, f.seller))
	usd := func(a int64) money.Money { return money.Money{Amount: a, Currency: money.USD} }
	tx := db.MustBeginTx(ctx, nil)
	c, items, err := orders.Create(ctx, tx, orders.New{SellerID: f.seller, StoreID: f.north, Email: "jo@example.com", CustomerName: "Jo  buyer",
		Subtotal: usd(3400), Total: usd(3400), Items: []orders.Item{
			{CampaignID: f.campaign, ProductName: "T-shirt", Color: "Black", Size: "M", Quantity: 1, UnitPrice: usd(2000)},
			{CampaignID: f.campaign, ProductName: "Mug", Color: "White", Size: "11oz", Quantity: 1, UnitPrice: usd(1400)},
		}}, orders.PendingPayment, "test")
	must(err)
	f.order, f.shirtItem, f.mugItem = c.ID, items[0], items[1]
	tx.MustExec(`INSERT INTO payments (order_id, gateway, intent_id, idempotency_key, amount, currency, status)
		VALUES ($1, 'test', 'pi_r', 'kr', 3400, 'USD', 'succeeded')`, c.ID)
	_, err = orders.Refresh(ctx, tx, c.ID)
	must(err)
	_, err = orders.Apply(ctx, tx, c.ID, orders.ActionPay, "test", "")
	must(err)
	_, err = orders.Ship(ctx, tx, c.ID, orders.Parcel{Carrier: "DHL", Tracking: "JD1"}, "test")
	must(err)
	_, err = orders.Deliver(ctx, tx, c.ID, []int64{f.shirtItem}, "test")
	must(err)
	must(tx.Commit())
	return f
}

func good() Input { return Input{Rating: 5, Author: "Jo B.", Body: "Soft and the print is sharp."} }

// TestWhoMayReview: only the buyer's delivered item of this store, of an order neither cancelled
// nor refunded, in a store that takes reviews, and only once.
func TestWhoMayReview(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		store   int64
		item    int64
		prepare string
		want    error
	}{
		{"the mug has not arrived", f.north, f.mugItem, "", ErrNotDelivered},
		{"the item of another store", f.south, f.shirtItem, "", ErrNotFound},
		{"another seller's store", f.otherSellersStore, f.shirtItem, "", ErrNotFound},
		{"no such item", f.north, 1 << 40, "", ErrNotFound},
		{"the store takes no reviews", f.north, f.shirtItem, `UPDATE stores SET review_setting = 'disable' WHERE slug = 'north'`, ErrReviewsOff},
		{"a refunded order", f.north, f.shirtItem, `UPDATE orders SET status = 'refunded'`, ErrClosed},
		{"a cancelled order", f.north, f.shirtItem, `UPDATE orders SET status = 'cancelled'`, ErrClosed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tx := f.db.MustBeginTx(ctx, nil)
			defer tx.Rollback()
			if tc.prepare != "" {
				tx.MustExec(tc.prepare)
			}
			it, err := LoadItem(ctx, tx, tc.store, tc.item)
			if err == nil {
				err = it.Check()
			}
			if !errors.Is(err, tc.want) || Message(err) == "" {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
	var reviews int
	f.db.Get(&reviews, `SELECT count(*) FROM product_reviews`)
	if reviews != 0 {
		t.Fatalf("%d reviews written by the refusals", reviews)
	}

	// The delivered shirt: reviewed once, even by 10 submits at once; the review waits for the seller.
	var wg sync.WaitGroup
	errs := make([]error, 10)
	for i := range errs {
		wg.Go(func() { _, errs[i] = Submit(ctx, f.db, f.north, f.shirtItem, good()) })
	}
	wg.Wait()
	ok, already := 0, 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, ErrAlreadyReviewed):
			already++
		default:
			t.Fatalf("submit: %v", err)
		}
	}
	var row struct {
		N      int    `db:"n"`
		Status string `db:"status"`
		Store  int64  `db:"store_id"`
	}
	if err := f.db.Get(&row, `SELECT count(*) OVER () AS n, status, store_id FROM product_reviews`); err != nil {
		t.Fatal(err)
	}
	if ok != 1 || already != 9 || row.N != 1 || row.Status != StatusPending || row.Store != f.north {
		t.Fatalf("%d written, %d refused; rows %+v", ok, already, row)
	}
	it, err := LoadItem(ctx, f.db, f.north, f.shirtItem)
	if err != nil || !errors.Is(it.Check(), ErrAlreadyReviewed) {
		t.Fatalf("after the review: %+v %v", it, err)
	}
}

// TestInput: each field is checked and named; the text is stored as plain text.
func TestInput(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		change func(*Input)
		field  string
	}{
		{"no rating", func(in *Input) { in.Rating = 0 }, "rating"},
		{"six stars", func(in *Input) { in.Rating = 6 }, "rating"},
		{"no text", func(in *Input) { in.Body = "  \n " }, "body"},
		{"only markup", func(in *Input) { in.Body = "<script>alert(1)</script>" }, "body"},
		{"too long", func(in *Input) { in.Body = strings.Repeat("é", MaxBody+1) }, "body"},
		{"no name", func(in *Input) { in.Author = "<b></b>" }, "author"},
		{"long name", func(in *Input) { in.Author = strings.Repeat("n", MaxAuthor+1) }, "author"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := good()
			tc.change(&in)
			_, err := Submit(ctx, f.db, f.north, f.shirtItem, in)
			if errs := Invalid(err); len(errs) != 1 || errs[0].Field != tc.field || errs[0].Message == "" {
				t.Fatalf("%v, want one problem on %s", err, tc.field)
			}
		})
	}
	in := good()
	in.Body = "<b>Great</b> shirt <img src=x onerror=alert(1)>\r\n\r\n\r\n\r\nI <3 it\u202e  !"
	in.Author = "  Jo\tB. "
	if _, err := Submit(ctx, f.db, f.north, f.shirtItem, in); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Body   string `db:"body"`
		Author string `db:"author_name"`
	}
	f.db.Get(&got, `SELECT body, author_name FROM product_reviews`)
	if got.Body != "Great shirt\n\nI <3 it !" || got.Author != "Jo B." {
		t.Fatalf("stored %q by %q", got.Body, got.Author)
	}
}

// TestPhoto: the photo's upload is recorded pending with its check queued, in the review's
// transaction; a refused review keeps neither.
func TestPhoto(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	key, ct, err := PhotoKey(f.north, "My Cat.JPG")
	if err != nil || ct != "image/jpeg" || !strings.HasPrefix(key, "reviews/") || !strings.HasSuffix(key, ".jpg") {
		t.Fatalf("PhotoKey: %q %q %v", key, ct, err)
	}
	if _, _, err := PhotoKey(f.north, "cat.svg"); err == nil {
		t.Fatal("an SVG photo was taken")
	}
	bad := good()
	bad.Rating, bad.Photo = 0, &Photo{Key: key, FileName: "My Cat.JPG"}
	if _, err := Submit(ctx, f.db, f.north, f.shirtItem, bad); Invalid(err) == nil {
		t.Fatalf("bad review with a photo: %v", err)
	}
	in := good()
	in.Photo = &Photo{Key: key, FileName: "My Cat.JPG"}
	s, err := Submit(ctx, f.db, f.north, f.shirtItem, in)
	if err != nil || s.OutboxID == 0 {
		t.Fatalf("%+v %v", s, err)
	}
	var n struct{ Uploads, Checks int }
	f.db.QueryRow(`SELECT (SELECT count(*) FROM uploads u JOIN product_reviews r ON r.photo_upload_id = u.id
		WHERE u.status = 'pending' AND u.owner_id IS NULL AND u.kind = 'review' AND u.blob_key = $1),
		(SELECT count(*) FROM task_outbox WHERE task_type = $2)`, key, tasks.TypeDeliveryMail).Scan(&n.Uploads, &n.Checks)
	var checks int
	f.db.Get(&checks, `SELECT count(*) FROM task_outbox WHERE task_type = 'render:sanitize'`)
	if n.Uploads != 1 || checks != 1 {
		t.Fatalf("uploads %d, sanitize tasks %d", n.Uploads, checks)
	}
	// The delivery queued the buyer's delivery e-mail once, for the shirt only.
	if n.Checks != 1 {
		t.Fatalf("%d delivery mails queued", n.Checks)
	}
}

// TestWhatStoresShow: disable shows nothing, enable-only-store the reviews of the store's own sales,
// enable-share-review those of every store of the seller; only published reviews count, and another
// seller's store shows none of them.
func TestWhatStoresShow(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	if _, err := Submit(ctx, f.db, f.north, f.shirtItem, Input{Rating: 4, Author: "Jo B.", Body: "Nice."}); err != nil {
		t.Fatal(err)
	}
	// A second review, of a sale in south, rated 1.
	var southItem int64
	f.db.Get(&southItem, `WITH o AS (INSERT INTO orders (seller_id, store_id, number, status) VALUES ($1, $2, 'S1', 'completed') RETURNING id),
		i AS (INSERT INTO order_items (order_id, campaign_id, product_name, quantity, unit_price) SELECT id, $3, 'Mug', 1, 1400 FROM o RETURNING id)
		INSERT INTO shipments (order_item_id, delivered_at) SELECT id, now() FROM i RETURNING order_item_id`, f.seller, f.south, f.campaign)
	if _, err := Submit(ctx, f.db, f.south, southItem, Input{Rating: 1, Author: "Al", Body: "Broke."}); err != nil {
		t.Fatal(err)
	}
	shown := func(store int64) (int, string) {
		t.Helper()
		s, err := ForCampaign(ctx, f.db, store, f.campaign, 20)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Reviews) != s.Count {
			t.Fatalf("%d reviews listed of %d", len(s.Reviews), s.Count)
		}
		return s.Count, s.AverageText()
	}
	if n, _ := shown(f.north); n != 0 {
		t.Fatalf("pending reviews shown: %d", n)
	}
	f.db.MustExec(`UPDATE product_reviews SET status = 'published', published_at = now()`)
	for _, tc := range []struct {
		name    string
		setting string
		store   int64
		count   int
		average string
	}{
		{"north, only its own", SettingOnlyStore, f.north, 1, "4.0"},
		{"north, shared", SettingShare, f.north, 2, "2.5"},
		{"north, disabled", SettingDisable, f.north, 0, "0.0"},
		{"south, shared", SettingShare, f.south, 2, "2.5"},
		{"south, only its own", SettingOnlyStore, f.south, 1, "1.0"},
		{"another seller's store", SettingShare, f.otherSellersStore, 0, "0.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f.db.MustExec(`UPDATE stores SET review_setting = $2 WHERE id = $1`, tc.store, tc.setting)
			if n, avg := shown(tc.store); n != tc.count || avg != tc.average {
				t.Fatalf("%d reviews, average %s; want %d, %s", n, avg, tc.count, tc.average)
			}
		})
	}
	f.db.MustExec(`UPDATE product_reviews SET status = 'hidden' WHERE rating = 1`)
	f.db.MustExec(`UPDATE stores SET review_setting = 'enable-share-review' WHERE id = $1`, f.north)
	if n, avg := shown(f.north); n != 1 || avg != "4.0" {
		t.Fatalf("a hidden review counted: %d %s", n, avg)
	}
}

// TestClean: markup out (text kept, scripts dropped), control and bidi characters out, spaces and
// blank lines shortened; what a buyer means to write stays.
func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"  plain  ":                    "plain",
		"<b>bold</b> & <i>it</i>":      "bold & it",
		"a < b > c":                    "a < b > c",
		"<script>x()</script>ok":       "ok",
		"line\r\nline":                 "line\nline",
		"a\n\n\n\n\nb":                 "a\n\nb",
		"tab\there":                    "tab here",
		"bell\x07\u202egone":           "bellgone",
		"bad \xff utf8":                "bad utf8",
		"&lt;not a tag&gt;":            "<not a tag>",
		"émoji 🐈 kept":                 "émoji 🐈 kept",
		`<a href="javascript:x">l</a>`: "l",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"Jo Buyer": "Jo B.", "jo  van buyer": "jo B.", "Cher": "Cher", "  ": ""} {
		if got := ShownName(in); got != want {
			t.Errorf("ShownName(%q) = %q, want %q", in, got, want)
		}
	}
}
