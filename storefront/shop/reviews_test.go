package shop

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/orders"
	"github.com/pressroom/pressroom/commerce/reviews"
)

// delivered makes a paid order of the shirt and the mug in the fixture's store, both shipped and
// the shirt delivered, and answers the review links of both items.
func (f fixture) delivered(t *testing.T) (shirt, mug string) {
	t.Helper()
	ctx := context.Background()
	usd := func(a int64) money.Money { return money.Money{Amount: a, Currency: money.USD} }
	var seller int64
	if err := f.db.Get(&seller, `SELECT owner_id FROM stores WHERE id = $1`, f.storeID); err != nil {
		t.Fatal(err)
	}
	tx := f.db.MustBeginTx(ctx, nil)
	c, items, err := orders.Create(ctx, tx, orders.New{SellerID: seller, StoreID: f.storeID, Email: "jo@example.com", CustomerName: "Jo Buyer",
		Subtotal: usd(3399), Total: usd(3399), Items: []orders.Item{
			{CampaignID: f.campaign, ProductID: f.shirt, ProductName: "T-shirt", Color: "Black", Size: "M", Quantity: 1, UnitPrice: usd(1999)},
			{CampaignID: f.campaign, ProductID: f.mug, ProductName: "Mug", Color: "White", Size: "11oz", Quantity: 1, UnitPrice: usd(1400)},
		}}, orders.PendingPayment, "test")
	if err != nil {
		t.Fatal(err)
	}
	tx.MustExec(`INSERT INTO payments (order_id, gateway, intent_id, idempotency_key, amount, currency, status)
		VALUES ($1, 'test', 'pi_rv', 'krv', 3399, 'USD', 'succeeded')`, c.ID)
	for _, step := range []func() error{
		func() error { _, err := orders.Refresh(ctx, tx, c.ID); return err },
		func() error { _, err := orders.Apply(ctx, tx, c.ID, orders.ActionPay, "test", ""); return err },
		func() error {
			_, err := orders.Ship(ctx, tx, c.ID, orders.Parcel{Carrier: "DHL", Tracking: "R1"}, "test")
			return err
		},
		func() error { _, err := orders.Deliver(ctx, tx, c.ID, []int64{items[0]}, "test"); return err },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	key := DefaultConfig().SigningKey
	return f.srv.URL + "/s/demo" + reviews.Path(key, f.storeID, items[0]), f.srv.URL + "/s/demo" + reviews.Path(key, f.storeID, items[1])
}

// pngBytes is a 1x1 PNG: the storefront stores it for the renderer to check.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

// sendReview posts the review form as a browser does, with the photo (name, bytes) when name is set.
func sendReview(t *testing.T, c *http.Client, link string, fields url.Values, name string, photo []byte) (*http.Response, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for k, vs := range fields {
		for _, v := range vs {
			mw.WriteField(k, v)
		}
	}
	if name != "" {
		fw, _ := mw.CreateFormFile("photo", name)
		fw.Write(photo)
	}
	mw.Close()
	res, err := c.Post(link, mw.FormDataContentType(), &b)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

// TestReviews walks a buyer's review from the delivery e-mail's link to the product page: a forged
// or undelivered link shows no form, every bad field is named on the form with nothing kept (the
// photo's file included), a good review with a photo waits for the seller, a second one is refused,
// and once published the store shows it, escaped, with its average, as its review setting says.
func TestReviews(t *testing.T) {
	f := setup(t)
	f.db.MustExec(`UPDATE stores SET review_setting = 'enable-only-store' WHERE id = $1`, f.storeID)
	shirt, mug := f.delivered(t)
	c := client(t)
	page := f.srv.URL + "/s/demo/c/" + itoa(f.campaign)
	if res, body := get(t, c, shirt[:len(shirt)-4]+"0000"); res.StatusCode != 404 || !strings.Contains(body, "This review link is not valid.") {
		t.Fatalf("a forged link: %d\n%s", res.StatusCode, body)
	}
	if res, body := get(t, c, mug); res.StatusCode != 200 || !strings.Contains(body, reviews.MsgNotDelivered) || strings.Contains(body, "<form method=\"post\" action=\"/s/demo/reviews") {
		t.Fatalf("the mug's link: %d\n%s", res.StatusCode, body)
	}
	res, body := get(t, c, shirt)
	if res.StatusCode != 200 || !strings.Contains(body, "Review your T-shirt") || !strings.Contains(body, `value="Jo B."`) ||
		res.Header.Get("Cache-Control") != cachePrivate || res.Header.Get("X-Robots-Tag") != "noindex" {
		t.Fatalf("the shirt's page: %d %v\n%s", res.StatusCode, res.Header, body)
	}
	if _, body := get(t, c, page); !strings.Contains(body, "No reviews yet.") {
		t.Fatalf("product page before any review\n%s", body)
	}

	good := url.Values{"rating": {"4"}, "author": {"Jo B."}, "body": {"Soft <b>shirt</b>, sharp print. " + evil}}
	for _, tc := range []struct {
		name   string
		fields url.Values
		photo  string
		bytes  []byte
		status int
		want   string
	}{
		{"no rating", url.Values{"author": {"Jo"}, "body": {"Nice"}}, "", nil, 422, reviews.MsgRating},
		{"only a script", url.Values{"rating": {"5"}, "author": {"Jo"}, "body": {evil}}, "cat.png", pngBytes, 422, reviews.MsgBody},
		{"a vector drawing", good, "cat.svg", []byte("<svg/>"), 422, reviews.MsgPhotoType},
		{"a photo over 5 MiB", good, "cat.png", bytes.Repeat([]byte{1}, reviews.MaxPhotoBytes+1), 0, reviews.MsgPhotoTooBig},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := sendReview(t, c, shirt, tc.fields, tc.photo, tc.bytes)
			if (tc.status != 0 && res.StatusCode != tc.status) || res.StatusCode < 400 || !strings.Contains(body, `class="error"`) ||
				!strings.Contains(body, strings.ReplaceAll(tc.want, "'", "&#39;")) {
				t.Fatalf("%d, want %d with %q\n%s", res.StatusCode, tc.status, tc.want, body)
			}
			if strings.Contains(body, evil) {
				t.Fatal("the form shows the buyer's text unescaped")
			}
		})
	}
	var rows struct{ Reviews, Uploads int }
	f.db.QueryRow(`SELECT (SELECT count(*) FROM product_reviews), (SELECT count(*) FROM uploads)`).Scan(&rows.Reviews, &rows.Uploads)
	if rows.Reviews != 0 || rows.Uploads != 0 || len(f.reviewPhotoKeys(t)) != 0 {
		t.Fatalf("refused reviews left %+v and files %q", rows, f.reviewPhotoKeys(t))
	}

	res, _ = sendReview(t, c, shirt, good, "My cat.PNG", pngBytes)
	if res.StatusCode != http.StatusSeeOther || !strings.HasSuffix(res.Header.Get("Location"), "?thanks=1") {
		t.Fatalf("a good review: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	if _, body := get(t, c, f.srv.URL+res.Header.Get("Location")); !strings.Contains(body, "Thank you! Your review was received.") {
		t.Fatalf("thanks\n%s", body)
	}
	var stored struct {
		Status, Body, Key, Upload string
	}
	if err := f.db.QueryRow(`SELECT r.status, r.body, u.blob_key, u.status FROM product_reviews r JOIN uploads u ON u.id = r.photo_upload_id`).
		Scan(&stored.Status, &stored.Body, &stored.Key, &stored.Upload); err != nil {
		t.Fatal(err)
	}
	if stored.Status != reviews.StatusPending || stored.Body != "Soft shirt, sharp print." || stored.Upload != "pending" || len(f.reviewPhotoKeys(t)) != 1 {
		t.Fatalf("stored %+v, files %q", stored, f.reviewPhotoKeys(t))
	}
	// Once is all: the page says so, a second post is refused and keeps nothing of its photo.
	if res, body := sendReview(t, c, shirt, good, "again.png", pngBytes); res.StatusCode != http.StatusConflict || !strings.Contains(body, reviews.MsgAlready) {
		t.Fatalf("a second review: %d\n%s", res.StatusCode, body)
	}
	if n := len(f.reviewPhotoKeys(t)); n != 1 {
		t.Fatalf("%d photo files after the refused second review", n)
	}
	if _, body := get(t, c, page); strings.Contains(body, "Soft shirt") {
		t.Fatal("a pending review is shown")
	}

	// The seller publishes it and replies; the renderer passed the photo.
	f.db.MustExec(`UPDATE product_reviews SET status = 'published', published_at = now(), reply = $1`, "Thanks "+evil)
	f.db.MustExec(`UPDATE uploads SET status = 'ready', content_type = 'image/png'`)
	f.shop.cache = nil // read the page anew
	_, body = get(t, c, page)
	if !strings.Contains(body, "Soft shirt, sharp print.") || !strings.Contains(body, "4.0 out of 5") || !strings.Contains(body, "★★★★☆") ||
		!strings.Contains(body, "Reply from Demo &lt;script&gt;") || strings.Contains(body, evil) {
		t.Fatalf("product page with the review\n%s", body)
	}
	var reviewID int64
	f.db.Get(&reviewID, `SELECT id FROM product_reviews`)
	photo := page + "/reviews/" + itoa(reviewID) + "/photo"
	if !strings.Contains(body, `src="/s/demo/c/`+itoa(f.campaign)+"/reviews/"+itoa(reviewID)+`/photo"`) {
		t.Fatal("the review's photo is not on the page")
	}
	if res, got := get(t, c, photo); res.StatusCode != 200 || got != string(pngBytes) || res.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("photo: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	// A store that takes no reviews shows none, nor their photos.
	f.db.MustExec(`UPDATE stores SET review_setting = 'disable' WHERE id = $1`, f.storeID)
	if _, body := get(t, c, page); strings.Contains(body, "Soft shirt") || strings.Contains(body, `id="reviews"`) {
		t.Fatal("a store without reviews shows them")
	}
	if res, _ := get(t, c, photo); res.StatusCode != 404 {
		t.Fatalf("photo of a store without reviews: %d", res.StatusCode)
	}
}

// reviewPhotoKeys are the files stored under the fixture's store's review photos, in the local blob
// store's folder (any file: a half-written one counts too).
func (f fixture) reviewPhotoKeys(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(f.blobDir, "reviews", itoa(f.storeID)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
