package shop

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/stripe/stripe-go/v84"

	"github.com/pressroom/pressroom/commerce/checkout"
	"github.com/pressroom/pressroom/commerce/gateways"
	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/seal"
	"github.com/pressroom/pressroom/platform/testinfra"
)

// fixture is a store "demo" selling one campaign with a T-shirt (19.99, sizes S..2XL, 2XL +2.00)
// and a mug (14.00) whose names try to smuggle a script into the pages.
type fixture struct {
	db       *sqlx.DB
	blobs    blob.Store
	srv      *httptest.Server
	storeID  int64
	campaign int64
	shirt    int64
	mug      int64
	checkout *checkout.Service
	gateways *gateways.Resolver
	box      *seal.Box
	mailer   *mail.Mailer
	shop     *Server
	// blobDir is the local blob store's folder.
	blobDir string
}

const evil = `<script>alert(1)</script>`

func setup(t testing.TB) fixture {
	t.Helper()
	gw, err := payments.NewTest("test")
	if err != nil {
		t.Fatal(err)
	}
	return setupWith(t, gw)
}

// setupUI is setup with the UI build in dir.
func setupUI(t testing.TB, dir string) fixture {
	t.Helper()
	gw, err := payments.NewTest("test")
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.UIDir = dir
	return setupGateways(t, gw, stripe.APIURL, cfg)
}

// setupWith is setup with the gateway gw as the platform's.
func setupWith(t testing.TB, gw payments.Gateway) fixture {
	t.Helper()
	return setupGateways(t, gw, stripe.APIURL, DefaultConfig())
}

// setupGateways is setupWith where sellers' own gateways reach Stripe at apiBase, with the
// configuration cfg.
func setupGateways(t testing.TB, gw payments.Gateway, apiBase string, cfg Config) fixture {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	f := fixture{db: db}
	var seller int64
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.Get(&seller, `INSERT INTO users (name, email, password_hash, roles) VALUES ('S', 's@example.com', 'x', '{seller}') RETURNING id`))
	must(db.Get(&f.storeID, `INSERT INTO stores (owner_id, name, domain, slug, currency) VALUES ($1, $2, 'demo.example', 'demo', 'USD') RETURNING id`,
		seller, "Demo "+evil))
	must(db.Get(&f.campaign, `INSERT INTO campaigns (user_id, name) VALUES ($1, $2) RETURNING id`, seller, "Cats "+evil))
	var tshirt, mug int64
	must(db.Get(&tshirt, `INSERT INTO product_templates (name, product_type, print_spaces, options, base_cost)
		VALUES ('T-shirt', 'tshirt', '[{"name":"front","width":4500,"height":5400}]', '{"colors":[{"name":"Black","hex":"#111111"},{"name":"White","hex":"#ffffff"}]}', 8.50) RETURNING id`))
	must(db.Get(&mug, `INSERT INTO product_templates (name, product_type, print_spaces, options, base_cost)
		VALUES ('Mug', 'mug', '[{"name":"wrap","width":2700,"height":1050}]', '{"colors":[{"name":"White","hex":"#ffffff"}]}', 5.50) RETURNING id`))
	for _, p := range []struct {
		tmpl  int64
		dst   *int64
		price int64
	}{{tshirt, &f.shirt, 1999}, {mug, &f.mug, 1400}} {
		must(db.Get(p.dst, `INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, options)
			SELECT $1, id, name, product_type, print_spaces, options FROM product_templates WHERE id = $2 RETURNING id`, f.campaign, p.tmpl))
		_, err := db.Exec(`INSERT INTO store_products (store_id, product_id, campaign_id, price, currency) VALUES ($1, $2, $3, $4, 'USD')`,
			f.storeID, *p.dst, f.campaign, p.price)
		must(err)
	}
	doc := `{"version":1,"printSpace":{"name":"front","width":4500,"height":5400,"dpi":300,"minDpi":150,"printType":0},"objects":[]}`
	_, err := db.Exec(`INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json, revision) VALUES ($1, $2, 'front', $3, 3)`,
		f.campaign, f.shirt, doc)
	must(err)

	box, err := seal.New(seal.DevPaymentKey)
	must(err)
	f.box = box
	f.gateways, err = gateways.New(gateways.Deps{DB: db, Box: box, Platform: gw, APIBase: apiBase})
	must(err)
	co, err := checkout.New(checkout.Deps{DB: db, Gateways: f.gateways})
	must(err)
	mailer, err := mail.New(mail.DefaultConfig(), db)
	must(err)
	f.mailer = mailer
	f.checkout = co
	bcfg := blob.DefaultConfig()
	bcfg.Dir, bcfg.SigningKey = t.TempDir(), strings.Repeat("k", 32)
	f.blobDir = bcfg.Dir
	blobs, err := blob.New(bcfg, false)
	must(err)
	f.blobs = blobs
	h, err := New(cfg, Deps{DB: db, Blobs: blobs, Checkout: co, Gateways: f.gateways, Mailer: mailer, Log: slog.New(slog.DiscardHandler)})
	must(err)
	f.shop = h
	f.srv = httptest.NewServer(h)
	t.Cleanup(f.srv.Close)
	return f
}

// client keeps cookies and does not follow redirects, so tests see each answer.
func client(t *testing.T) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func get(t *testing.T, c *http.Client, u string) (*http.Response, string) {
	t.Helper()
	res, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func post(t *testing.T, c *http.Client, u string, form url.Values) (*http.Response, string) {
	t.Helper()
	res, err := c.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func address() url.Values {
	return url.Values{"email": {"buyer@example.com"}, "name": {"Jo Buyer"}, "line1": {"1 Main St"}, "city": {"Springfield"},
		"country": {"US"}, "state_US": {"US-IL"}, "postal_code": {"62701"}, "tip": {"5"}}
}

// TestBuy walks a buyer through the pages by path: home, product page, cart, checkout, payment and
// the order status page; the totals are the server's, a forged price in the form is ignored, and
// the order, its event, its payment and its print-file task exist once.
func TestBuy(t *testing.T) {
	f := setup(t)
	c := client(t)
	base := f.srv.URL + "/s/demo"

	res, body := get(t, c, base+"/")
	if res.StatusCode != 200 || !strings.Contains(body, "/s/demo/c/") || !strings.Contains(res.Header.Get("Cache-Control"), "public") {
		t.Fatalf("home %d %q\n%s", res.StatusCode, res.Header.Get("Cache-Control"), body)
	}
	if strings.Contains(body, evil) || !strings.Contains(body, "&lt;script&gt;") {
		t.Errorf("home does not escape the store and campaign names")
	}
	if !strings.Contains(body, `<link rel="canonical" href="http://demo.localhost:`) {
		t.Errorf("home lacks its canonical URL on the store's host")
	}
	res, body = get(t, c, base+"/c/"+itoa(f.campaign)+"?product="+itoa(f.shirt))
	if res.StatusCode != 200 || !strings.Contains(body, "$19.99") || !strings.Contains(body, `value="Black"`) ||
		!strings.Contains(body, "2XL — $21.99") || !strings.Contains(body, `property="og:title"`) {
		t.Fatalf("product page %d\n%s", res.StatusCode, body)
	}

	// Two 2XL shirts with a forged price and total: the server's 21.99 stands.
	res, _ = post(t, c, base+"/cart/items", url.Values{"product_id": {itoa(f.shirt)}, "color": {"Black"}, "size": {"2XL"},
		"quantity": {"2"}, "price": {"0.01"}, "unit_price": {"1"}, "total": {"0"}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/s/demo/cart" {
		t.Fatalf("add to cart %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	post(t, c, base+"/cart/items", url.Values{"product_id": {itoa(f.mug)}, "color": {"White"}, "size": {"11oz"}, "quantity": {"1"}})
	res, body = get(t, c, base+"/cart")
	if !strings.Contains(body, "$43.98") || !strings.Contains(body, "$57.98") || res.Header.Get("Cache-Control") != cachePrivate {
		t.Fatalf("cart totals\n%s", body)
	}

	res, _ = post(t, c, base+"/checkout", address())
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("checkout %d", res.StatusCode)
	}
	review := res.Header.Get("Location")
	_, body = get(t, c, f.srv.URL+review)
	// subtotal 57.98; shipping US: shirts 4.99 + 2.00, mug 6.99 = 13.98; tip 5% of 57.98 = 2.90 (2.899)
	for _, want := range []string{"$57.98", "$13.98", "$2.90", "$74.86", "Test mode — no money moves."} {
		if !strings.Contains(body, want) {
			t.Errorf("review lacks %q\n%s", want, body)
		}
	}
	res, _ = post(t, c, f.srv.URL+review+"/pay", url.Values{"total": {"1"}})
	if res.StatusCode != http.StatusSeeOther || !strings.Contains(res.Header.Get("Location"), "/s/demo/orders/") {
		t.Fatalf("pay %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	orderURL := res.Header.Get("Location")
	_, body = get(t, c, f.srv.URL+orderURL)
	if !strings.Contains(body, "Thank you! Order 1001 is confirmed.") || !strings.Contains(body, "$74.86") ||
		!strings.Contains(body, "Payment: <strong>Paid</strong>") || !strings.Contains(body, "Test mode") {
		t.Errorf("confirmation\n%s", body)
	}
	// The link is signed: another token shows nothing.
	forged := regexp.MustCompile(`/[0-9a-f]{32}\?`).ReplaceAllString(orderURL, "/00000000000000000000000000000000?")
	if res, _ := get(t, c, f.srv.URL+forged); res.StatusCode != 404 {
		t.Errorf("forged order link: %d", res.StatusCode)
	}

	var got struct {
		Orders, Events, Payments, Tasks, ReviewItems int
		Total                                        int64
		Status, Payment                              string
		Revision                                     int
	}
	row := f.db.QueryRow(`SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM order_events),
		(SELECT count(*) FROM payments WHERE status = 'succeeded'), (SELECT count(*) FROM task_outbox WHERE task_type = 'render:order-export'),
		(SELECT count(*) FROM design_order_items WHERE order_item_id IS NOT NULL),
		(SELECT total FROM orders), (SELECT status FROM orders), (SELECT payment_status FROM orders),
		(SELECT design_revision FROM order_items WHERE product_id = $1)`, f.shirt)
	if err := row.Scan(&got.Orders, &got.Events, &got.Payments, &got.Tasks, &got.ReviewItems, &got.Total, &got.Status, &got.Payment, &got.Revision); err != nil {
		t.Fatal(err)
	}
	if got.Orders != 1 || got.Events != 2 || got.Payments != 1 || got.Tasks != 1 || got.ReviewItems != 1 || got.Total != 7486 ||
		got.Status != "pending" || got.Payment != "paid" || got.Revision != 3 {
		t.Errorf("after paying: %+v", got)
	}
	// Paying again (a double click) makes nothing new.
	res, _ = post(t, c, f.srv.URL+review+"/pay", nil)
	if res.StatusCode != http.StatusSeeOther {
		t.Errorf("second pay %d", res.StatusCode)
	}
	var orders int
	f.db.Get(&orders, `SELECT count(*) FROM orders`)
	if orders != 1 {
		t.Errorf("%d orders after paying twice", orders)
	}
}

// TestConcurrentPay confirms one checkout 20 times at once: one order, one payment, one event pair, and
// the tasks of one order.
func TestConcurrentPay(t *testing.T) {
	f := setup(t)
	c := client(t)
	base := f.srv.URL + "/s/demo"
	post(t, c, base+"/cart/items", url.Values{"product_id": {itoa(f.shirt)}, "color": {"White"}, "size": {"M"}, "quantity": {"1"}})
	res, _ := post(t, c, base+"/checkout", address())
	review := f.srv.URL + res.Header.Get("Location")
	var wg sync.WaitGroup
	locations := make([]string, 20)
	for i := range locations {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := c.Post(review+"/pay", "application/x-www-form-urlencoded", nil)
			if err != nil {
				t.Error(err)
				return
			}
			r.Body.Close()
			locations[i] = strings.TrimSuffix(r.Header.Get("Location"), "?new=1")
		}()
	}
	wg.Wait()
	for _, l := range locations {
		if l == "" || l != locations[0] {
			t.Fatalf("answers differ: %q", locations)
		}
	}
	var n struct{ Orders, Payments, Events, Tasks int }
	f.db.QueryRow(`SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM payments), (SELECT count(*) FROM order_events),
		(SELECT count(*) FROM task_outbox)`).Scan(&n.Orders, &n.Payments, &n.Events, &n.Tasks)
	// Tasks queued once each: the order's own and its invoice's PDF.
	if n != (struct{ Orders, Payments, Events, Tasks int }{1, 1, 2, 2}) {
		t.Errorf("after 20 concurrent confirms: %+v", n)
	}
}

// TestBadInput: every refusal names its field, on the page the buyer is on, and stores nothing.
func TestBadInput(t *testing.T) {
	f := setup(t)
	c := client(t)
	base := f.srv.URL + "/s/demo"
	item := func(product int64, color, size, qty string) url.Values {
		return url.Values{"product_id": {itoa(product)}, "campaign_id": {itoa(f.campaign)}, "color": {color}, "size": {size}, "quantity": {qty}}
	}
	cases := []struct {
		name string
		form url.Values
		want string
	}{
		{"unknown product", item(999999, "Black", "M", "1"), "This product is not on sale in this store."},
		{"unknown colour", item(f.shirt, "Purple", "M", "1"), "Choose one of the product&#39;s colours."},
		{"unknown size", item(f.shirt, "Black", "XXXL", "1"), "Choose one of the product&#39;s sizes."},
		{"mug size on a shirt", item(f.shirt, "Black", "11oz", "1"), "Choose one of the product&#39;s sizes."},
		{"quantity 0", item(f.shirt, "Black", "M", "0"), "Choose a quantity from 1 to 100."},
		{"quantity 10000", item(f.shirt, "Black", "M", "10000"), "Choose a quantity from 1 to 100."},
		{"quantity words", item(f.shirt, "Black", "M", "two"), "Choose a quantity from 1 to 100."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, body := post(t, c, base+"/cart/items", tc.form)
			if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `class="error"`) || !strings.Contains(body, tc.want) {
				t.Errorf("%d, want 422 with %q\n%s", res.StatusCode, tc.want, body)
			}
		})
	}
	var lines int
	f.db.Get(&lines, `SELECT count(*) FROM cart_items`)
	if lines != 0 {
		t.Fatalf("%d cart lines after refusals", lines)
	}

	post(t, c, base+"/cart/items", item(f.shirt, "Black", "M", "1"))
	addr := func(change map[string]string) url.Values {
		v := address()
		for k, val := range change {
			if val == "" {
				v.Del(k)
			} else {
				v.Set(k, val)
			}
		}
		return v
	}
	checkoutCases := []struct {
		name   string
		form   url.Values
		field  string
		expect string
	}{
		{"missing US state", addr(map[string]string{"state_US": ""}), "state", "Choose the state or province."},
		{"bad US postal code", addr(map[string]string{"postal_code": "1234"}), "postal_code", "Enter a valid postal code for this country."},
		{"bad Canadian postal code", addr(map[string]string{"country": "CA", "state_CA": "CA-ON", "postal_code": "12345"}), "postal_code", "Enter a valid postal code for this country."},
		{"bad e-mail", addr(map[string]string{"email": "nobody"}), "email", "Enter an e-mail address like name@example.com."},
		{"unknown country", addr(map[string]string{"country": "XX"}), "country", "Choose the country to ship to."},
		{"tip not offered", addr(map[string]string{"tip": "7"}), "tip_percent", "Choose no tip, or a tip of 0, 2, 5 or 10 %."},
		{"unknown discount", addr(map[string]string{"discount_code": "FREE100"}), "discount_code", "This discount code does not exist. Check its spelling."},
	}
	for _, tc := range checkoutCases {
		t.Run(tc.name, func(t *testing.T) {
			res, body := post(t, c, base+"/checkout", tc.form)
			if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, tc.expect) {
				t.Errorf("%d, want 422 with %q\n%s", res.StatusCode, tc.expect, body)
			}
		})
	}
	var checkouts int
	f.db.Get(&checkouts, `SELECT count(*) FROM checkouts`)
	if checkouts != 0 {
		t.Errorf("%d checkouts stored from bad input", checkouts)
	}
	// A name with a script is kept as text and shown escaped.
	res, _ := post(t, c, base+"/checkout", addr(map[string]string{"name": evil}))
	_, body := get(t, c, f.srv.URL+res.Header.Get("Location"))
	if strings.Contains(body, evil) || !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("review page does not escape the buyer's name\n%s", body)
	}
}

// TestResolve finds the store by host and by path, and answers robots.txt, sitemap.xml and unknown stores.
func TestResolve(t *testing.T) {
	f := setup(t)
	if _, err := f.db.Exec(`INSERT INTO store_pages (store_id, title, slug, body, menu_position) VALUES ($1, 'About', 'about', $2, 'header')`,
		f.storeID, `<p>We print.</p>`+evil); err != nil {
		t.Fatal(err)
	}
	do := func(host, path string) (*http.Response, string) {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, f.srv.URL+path, nil)
		req.Host = host
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, string(b)
	}
	res, body := do("demo.localhost:8082", "/")
	if res.StatusCode != 200 || !strings.Contains(body, `href="/c/`) || !strings.Contains(body, `<link rel="canonical" href="http://demo.localhost:8082/">`) {
		t.Errorf("by host: %d\n%s", res.StatusCode, body)
	}
	res, body = do("demo.localhost:8082", "/p/about")
	if res.StatusCode != 200 || !strings.Contains(body, "<p>We print.</p>") || strings.Contains(body, "<script>") {
		t.Errorf("page body not sanitized: %d\n%s", res.StatusCode, body)
	}
	if res, _ := do("nope.localhost:8082", "/"); res.StatusCode != 404 {
		t.Errorf("unknown store by host: %d", res.StatusCode)
	}
	if res, _ := do("127.0.0.1", "/s/nope/"); res.StatusCode != 404 {
		t.Errorf("unknown store by path: %d", res.StatusCode)
	}
	if res, _ := do("127.0.0.1", "/s/demo"); res.StatusCode != http.StatusMovedPermanently {
		t.Errorf("/s/demo: %d", res.StatusCode)
	}
	_, body = do("127.0.0.1:8082", "/s/demo/robots.txt")
	if !strings.Contains(body, "Disallow: /s/demo/checkout") || !strings.Contains(body, "Sitemap: http://demo.localhost:8082/sitemap.xml") {
		t.Errorf("robots.txt\n%s", body)
	}
	_, body = do("demo.localhost:8082", "/sitemap.xml")
	if !strings.Contains(body, "<loc>http://demo.localhost:8082/sitemaps/campaigns-1.xml</loc>") || !strings.Contains(body, "<loc>http://demo.localhost:8082/sitemaps/pages-1.xml</loc>") {
		t.Errorf("sitemap.xml\n%s", body)
	}
	if _, body = do("127.0.0.1:8082", "/s/demo/sitemaps/campaigns-1.xml"); !strings.Contains(body, "<loc>http://demo.localhost:8082/c/"+itoa(f.campaign)+"</loc>") {
		t.Errorf("campaigns sitemap\n%s", body)
	}
	if _, body = do("demo.localhost:8082", "/sitemaps/pages-1.xml"); !strings.Contains(body, "<loc>http://demo.localhost:8082/p/about</loc>") {
		t.Errorf("pages sitemap\n%s", body)
	}
	// A product no longer active leaves the store.
	f.db.Exec(`UPDATE store_products SET status = 'inactive' WHERE store_id = $1`, f.storeID)
	if res, _ := do("demo.localhost", "/c/"+itoa(f.campaign)); res.StatusCode != 404 {
		t.Errorf("inactive campaign page: %d", res.StatusCode)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestJSONAPI: the cart and checkout calls answer the envelope; a price in the body is refused as an
// unknown field, a bad field is named, and paying answers the order's signed status URL.
func TestJSONAPI(t *testing.T) {
	f := setup(t)
	c := client(t)
	base := f.srv.URL + "/s/demo/api"
	send := func(path, body string) (int, string) {
		res, err := c.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	item := `{"product_id": ` + itoa(f.shirt) + `, "color": "Black", "size": "M", "quantity": 1`
	if code, body := send("/cart/items", item+`, "unit_price": {"amount": 1, "currency": "USD"}}`); code != 400 || !strings.Contains(body, `"success":false`) {
		t.Errorf("forged price: %d %s", code, body)
	}
	if code, body := send("/cart/items", `{"product_id": `+itoa(f.shirt)+`, "color": "Pink", "size": "M", "quantity": 1}`); code != 422 ||
		!strings.Contains(body, `"field":"color"`) {
		t.Errorf("bad colour: %d %s", code, body)
	}
	if code, body := send("/cart/items", item+`}`); code != 200 || !strings.Contains(body, `"subtotal":{"amount":1999,"currency":"USD"}`) {
		t.Fatalf("add: %d %s", code, body)
	}
	code, body := send("/checkout", `{"email": "b@example.com", "address": {"name": "B", "line1": "1 St", "city": "NYC", "country": "US", "postal_code": "10001"}}`)
	if code != 422 || !strings.Contains(body, `"field":"state"`) {
		t.Fatalf("missing state: %d %s", code, body)
	}
	code, body = send("/checkout", `{"email": "b@example.com", "address": {"name": "B", "line1": "1 St", "city": "NYC", "state": "US-NY", "country": "US", "postal_code": "10001"}, "tip_percent": 10}`)
	// 19.99 + 4.99 shipping + 10 % tip (2.00) = 26.98
	if code != 200 || !strings.Contains(body, `"total":{"amount":2698,"currency":"USD"}`) {
		t.Fatalf("checkout: %d %s", code, body)
	}
	id := regexp.MustCompile(`"id":"([0-9a-f-]{36})"`).FindStringSubmatch(body)[1]
	code, body = send("/checkout/"+id+"/pay", ``)
	if code != 200 || !strings.Contains(body, `"status_url":"http://demo.localhost:`) {
		t.Errorf("pay: %d %s", code, body)
	}
}

// TestPostLimit: posts beyond the cap answer 429 with Retry-After; pages still answer.
func TestPostLimit(t *testing.T) {
	f := setup(t)
	h := f.srv.Config.Handler.(*Server)
	h.limit = newLimiter(2)
	c := client(t)
	base := f.srv.URL + "/s/demo"
	form := url.Values{"product_id": {itoa(f.shirt)}, "color": {"Black"}, "size": {"M"}, "quantity": {"1"}}
	for i := range 2 {
		if res, _ := post(t, c, base+"/cart/items", form); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("post %d: %d", i+1, res.StatusCode)
		}
	}
	res, body := post(t, c, base+"/cart/items", form)
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" || !strings.Contains(body, "Too many requests") {
		t.Fatalf("third post: %d %q %s", res.StatusCode, res.Header.Get("Retry-After"), body)
	}
	if res, _ := get(t, c, base+"/cart"); res.StatusCode != 200 {
		t.Errorf("a page after the cap: %d", res.StatusCode)
	}
	var qty int
	f.db.Get(&qty, `SELECT coalesce(sum(quantity), 0) FROM cart_items`)
	if qty != 2 {
		t.Errorf("the refused post changed the cart: %d items", qty)
	}
}

// TestImages: the home page and the product page show the default mockup through /img/{id}, served
// from the blob store with a long cache; a mockup of a product not on sale here is not served.
func TestImages(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	png := []byte("\x89PNG\r\n\x1a\nnot really")
	if err := f.blobs.Put(ctx, "p/1/design_1_1.png", strings.NewReader(string(png)), int64(len(png)), "image/png"); err != nil {
		t.Fatal(err)
	}
	var tmpl, design, mockup int64
	f.db.Get(&tmpl, `SELECT template_id FROM campaign_products WHERE id = $1`, f.shirt)
	f.db.Get(&design, `SELECT id FROM campaign_designs WHERE product_id = $1`, f.shirt)
	var mt int64
	if err := f.db.Get(&mt, `INSERT INTO mockup_templates (template_id, print_space, file_url, design_json) VALUES ($1, 'front', 'm/1.json', '{}') RETURNING id`, tmpl); err != nil {
		t.Fatal(err)
	}
	if err := f.db.Get(&mockup, `INSERT INTO campaign_mockups (campaign_id, product_id, print_space, mockup_template_id, design_id, design_revision,
		is_default_mockup, file_url, status, rendered_at) VALUES ($1, $2, 'front', $3, $4, 3, true, 'p/1/design_1_1.png', 'done', now()) RETURNING id`,
		f.campaign, f.shirt, mt, design); err != nil {
		t.Fatal(err)
	}
	c := client(t)
	base := f.srv.URL + "/s/demo"
	img := "/s/demo/img/" + itoa(mockup)
	if _, body := get(t, c, base+"/"); !strings.Contains(body, `src="`+img+`"`) {
		t.Errorf("home does not show the mockup\n%s", body)
	}
	if _, body := get(t, c, base+"/c/"+itoa(f.campaign)); !strings.Contains(body, `src="`+img+`"`) ||
		!strings.Contains(body, `property="og:image" content="http://demo.localhost:`) {
		t.Errorf("product page does not show the mockup\n%s", body)
	}
	res, body := get(t, c, f.srv.URL+img)
	if res.StatusCode != 200 || body != string(png) || res.Header.Get("Content-Type") != "image/png" || res.Header.Get("Cache-Control") != cacheImage {
		t.Errorf("image: %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Cache-Control"))
	}
	f.db.MustExec(`UPDATE store_products SET status = 'blocked' WHERE product_id = $1`, f.shirt)
	if res, _ := get(t, c, f.srv.URL+img); res.StatusCode != 404 {
		t.Errorf("mockup of a blocked product: %d", res.StatusCode)
	}
}

// TestDiscountCode: Apply on the checkout form shows the discount line and the new total; the
// order is paid at that total; a second buyer with the same single-use code is sent back to the
// form with the reason, charged nothing.
func TestDiscountCode(t *testing.T) {
	f := setup(t)
	f.db.MustExec(`INSERT INTO discount_codes (seller_id, code, kind, percent, usage_limit, applies_to)
		SELECT owner_id, 'Cats10', 'discount_with_percent', 10, 1, 'stores' FROM stores WHERE id = $1`, f.storeID)
	f.db.MustExec(`INSERT INTO discount_code_stores (discount_code_id, store_id) SELECT id, $1 FROM discount_codes`, f.storeID)
	base := f.srv.URL + "/s/demo"
	buyer := func() (*http.Client, string) {
		c := client(t)
		post(t, c, base+"/cart/items", url.Values{"product_id": {itoa(f.shirt)}, "color": {"Black"}, "size": {"M"}, "quantity": {"1"}})
		form := address()
		form.Set("tip", "none")
		form.Set("discount_code", "cats10")
		form.Set("apply", "1")
		res, body := post(t, c, base+"/checkout", form)
		// 19.99 - 2.00 (10%, rounded) + 4.99 shipping = 22.98
		if res.StatusCode != http.StatusOK || !strings.Contains(body, `id="discount-line"`) || !strings.Contains(body, "−$2.00") || !strings.Contains(body, "$22.98") {
			t.Fatalf("apply %d\n%s", res.StatusCode, body)
		}
		form.Del("apply")
		res, _ = post(t, c, base+"/checkout", form)
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("continue %d", res.StatusCode)
		}
		return c, f.srv.URL + res.Header.Get("Location")
	}
	first, firstReview := buyer()
	second, secondReview := buyer()
	if res, _ := post(t, first, firstReview+"/pay", nil); res.StatusCode != http.StatusSeeOther || !strings.Contains(res.Header.Get("Location"), "/orders/") {
		t.Fatalf("first pay %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	res, body := post(t, second, secondReview+"/pay", nil)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "This discount code has been used up.") ||
		!strings.Contains(body, `value="Jo Buyer"`) {
		t.Fatalf("second pay %d\n%s", res.StatusCode, body)
	}
	var got struct{ Orders, Payments int }
	f.db.QueryRow(`SELECT (SELECT count(*) FROM orders WHERE discount = 200 AND total = 2298), (SELECT count(*) FROM payments)`).Scan(&got.Orders, &got.Payments)
	if got.Orders != 1 || got.Payments != 1 {
		t.Errorf("%+v", got)
	}
}
