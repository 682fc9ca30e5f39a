package webhooks

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/orders"
	"github.com/pressroom/pressroom/commerce/webhooks"
	"github.com/pressroom/pressroom/platform/testinfra"
)

// hit is one request a receiver got.
type hit struct {
	path, eventID, eventType, signature string
	body                                []byte
	status                              int
}

// receiver is a local HTTP server recording what it gets and answering what answer says.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	hits   []hit
	answer func(h hit, n int) int // n counts earlier requests with the same event id
}

func newReceiver(t *testing.T, answer func(h hit, n int) int) *receiver {
	rc := &receiver{answer: answer}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h := hit{path: r.URL.Path, eventID: r.Header.Get(webhooks.EventIDHeader), eventType: r.Header.Get(webhooks.EventHeader),
			signature: r.Header.Get(webhooks.SignatureHeader), body: b}
		rc.mu.Lock()
		n := 0
		for _, p := range rc.hits {
			if p.eventID == h.eventID {
				n++
			}
		}
		h.status = http.StatusOK
		if rc.answer != nil {
			h.status = rc.answer(h, n)
		}
		rc.hits = append(rc.hits, h)
		rc.mu.Unlock()
		w.WriteHeader(h.status)
		io.WriteString(w, "ok "+strconv.Itoa(h.status))
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) got() []hit {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]hit(nil), rc.hits...)
}

// testConfig reaches loopback receivers and retries at once.
func testConfig() Config {
	cfg := DefaultConfig()
	cfg.Hooks.Allow = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	cfg.RetryBase, cfg.RetryMax = time.Millisecond, 5*time.Millisecond
	cfg.Timeout = 5 * time.Second
	return cfg
}

type fixture struct {
	db            *sqlx.DB
	seller, store int64
}

func setup(t testing.TB) fixture {
	db, _ := testinfra.Postgres(t)
	f := fixture{db: db}
	if err := db.Get(&f.seller, `INSERT INTO users (name, email, password_hash) VALUES ('S', 's@example.com', 'x') RETURNING id`); err != nil {
		t.Fatal(err)
	}
	if err := db.Get(&f.store, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'Shop', 's.example', 'shop') RETURNING id`, f.seller); err != nil {
		t.Fatal(err)
	}
	return f
}

// order creates an order through commerce/orders, which writes its order.created event, and
// answers the order id and the event id.
func (f fixture) order(t *testing.T) (int64, int64) {
	ctx := context.Background()
	usd := money.Money{Amount: 1500, Currency: money.USD}
	tx := f.db.MustBeginTx(ctx, nil)
	c, _, err := orders.Create(ctx, tx, orders.New{SellerID: f.seller, StoreID: f.store, Email: "buyer@example.com", Subtotal: usd, Total: usd,
		Items: []orders.Item{{ProductName: "Mug", Quantity: 1, UnitPrice: usd}}}, orders.PendingPayment, "test")
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var ev int64
	if err := f.db.Get(&ev, `SELECT id FROM event_outbox WHERE order_id = $1 AND event_type = 'order.created'`, c.ID); err != nil {
		t.Fatal(err)
	}
	return c.ID, ev
}

// statusEvent writes a further event of an order, as orders.Apply would.
func (f fixture) statusEvent(t *testing.T, orderID int64, status string) int64 {
	var id int64
	if err := f.db.Get(&id, `INSERT INTO event_outbox (seller_id, order_id, event_type, payload)
		VALUES ($1, $2, 'order.status_changed', jsonb_build_object('event', 'order.status_changed', 'order_id', $2::bigint, 'status', $3::text))
		RETURNING id`, f.seller, orderID, status); err != nil {
		t.Fatal(err)
	}
	return id
}

func (f fixture) endpoint(t *testing.T, cfg Config, in webhooks.Input) webhooks.Endpoint {
	if len(in.Events) == 0 {
		in.Events = webhooks.Events
	}
	if err := cfg.Hooks.Check(&in); err != nil {
		t.Fatal(err)
	}
	e, err := webhooks.Create(context.Background(), f.db, f.seller, in)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// drain runs passes until done says so, failing after many.
func drain(t *testing.T, r *Runner, done func() bool) {
	t.Helper()
	for range 500 {
		if _, err := r.Pass(context.Background()); err != nil {
			t.Fatal(err)
		}
		if done() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("deliveries did not settle")
}

func (f fixture) statuses(t *testing.T, endpoint int64) map[int64]string {
	var rows []struct {
		Event  int64  `db:"event_id"`
		Status string `db:"status"`
	}
	if err := f.db.Select(&rows, `SELECT event_id, status FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id IS NOT NULL`, endpoint); err != nil {
		t.Fatal(err)
	}
	out := map[int64]string{}
	for _, r := range rows {
		out[r.Event] = r.Status
	}
	return out
}

// TestRetriesThenSuccessOnce: a receiver failing twice gets the event a third time, then never
// again; every try is signed and logged, and fanning the event out again creates no second delivery.
func TestRetriesThenSuccessOnce(t *testing.T) {
	f := setup(t)
	cfg := testConfig()
	rc := newReceiver(t, func(_ hit, n int) int {
		if n < 2 {
			return http.StatusInternalServerError
		}
		return http.StatusNoContent
	})
	ep := f.endpoint(t, cfg, webhooks.Input{Kind: webhooks.KindCustom, URL: rc.URL + "/hook"})
	_, ev := f.order(t)
	r, err := New(cfg, f.db, nil)
	if err != nil {
		t.Fatal(err)
	}
	drain(t, r, func() bool { return f.statuses(t, ep.ID)[ev] == webhooks.StatusSucceeded })
	for range 5 {
		if _, err := r.Pass(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	// The event is taken by the fan-out again as if a crash had lost the mark: still one delivery.
	f.db.MustExec(`UPDATE event_outbox SET delivered_at = NULL WHERE id = $1`, ev)
	if _, err := webhooks.FanOut(context.Background(), f.db, time.Hour, 10); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Pass(context.Background()); err != nil {
		t.Fatal(err)
	}
	hits := rc.got()
	if len(hits) != 3 {
		t.Fatalf("%d requests, want 3", len(hits))
	}
	want := "evt_" + strconv.FormatInt(ev, 10)
	for _, h := range hits {
		if h.eventID != want || h.eventType != "order.created" || h.path != "/hook" {
			t.Fatalf("request %+v", h)
		}
		ts, _, _ := strings.Cut(strings.TrimPrefix(h.signature, "t="), ",")
		sec, _ := strconv.ParseInt(ts, 10, 64)
		if webhooks.Sign(ep.Secret, time.Unix(sec, 0), h.body) != h.signature {
			t.Fatalf("signature %q does not verify", h.signature)
		}
		var body struct {
			ID   string          `json:"id"`
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(h.body, &body); err != nil || body.ID != want || !strings.Contains(string(body.Data), `"number":"1001"`) {
			t.Fatalf("body %s: %v", h.body, err)
		}
	}
	var n int
	f.db.Get(&n, `SELECT count(*) FROM webhook_deliveries WHERE event_id = $1`, ev)
	var log []struct {
		Code     int    `db:"status_code"`
		Response string `db:"response"`
	}
	if err := f.db.Select(&log, `SELECT a.status_code, a.response FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
		WHERE d.event_id = $1 ORDER BY a.id`, ev); err != nil {
		t.Fatal(err)
	}
	if n != 1 || len(log) != 3 || log[0].Code != 500 || log[2].Code != 204 || log[0].Response != "ok 500" {
		t.Fatalf("%d deliveries, attempts %+v", n, log)
	}
}

// TestOrderPerOrder: while an order's first event fails, its later events wait and another
// order's event goes through; afterwards they arrive in order.
func TestOrderPerOrder(t *testing.T) {
	f := setup(t)
	cfg := testConfig()
	var blocked string
	rc := newReceiver(t, func(h hit, n int) int {
		if h.eventID == blocked && n < 4 {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	})
	ep := f.endpoint(t, cfg, webhooks.Input{Kind: webhooks.KindCustom, URL: rc.URL})
	a, a1 := f.order(t)
	blocked = "evt_" + strconv.FormatInt(a1, 10)
	a2 := f.statusEvent(t, a, "pending")
	a3 := f.statusEvent(t, a, "processing")
	_, b1 := f.order(t)
	r, err := New(cfg, f.db, nil)
	if err != nil {
		t.Fatal(err)
	}
	drain(t, r, func() bool {
		s := f.statuses(t, ep.ID)
		return s[a1] == webhooks.StatusSucceeded && s[a2] == webhooks.StatusSucceeded && s[a3] == webhooks.StatusSucceeded &&
			s[b1] == webhooks.StatusSucceeded
	})
	id := func(ev int64) string { return "evt_" + strconv.FormatInt(ev, 10) }
	var seq []string
	firstOK := map[string]int{}
	for i, h := range rc.got() {
		seq = append(seq, h.eventID)
		if _, ok := firstOK[h.eventID]; !ok && h.status == http.StatusOK {
			firstOK[h.eventID] = i
		}
	}
	// a2 and a3 are never sent before a1 succeeded, each exactly once; b1 is not held back by a1.
	count := map[string]int{}
	for i, s := range seq {
		count[s]++
		if (s == id(a2) || s == id(a3)) && i < firstOK[id(a1)] {
			t.Fatalf("%s sent before %s succeeded: %v", s, id(a1), seq)
		}
	}
	if !(firstOK[id(a1)] < firstOK[id(a2)] && firstOK[id(a2)] < firstOK[id(a3)]) {
		t.Fatalf("order %v", seq)
	}
	if firstOK[id(b1)] > firstOK[id(a1)] {
		t.Fatalf("another order's event waited for a failing one: %v", seq)
	}
	if count[id(a1)] != 5 || count[id(a2)] != 1 || count[id(a3)] != 1 || count[id(b1)] != 1 {
		t.Fatalf("counts %v", count)
	}
}

// TestAddressRefused: an endpoint that points at loopback without the test allowance (as a name
// resolving there at delivery time would) is refused at dial time, and a redirect is not followed.
func TestAddressRefused(t *testing.T) {
	f := setup(t)
	rc := newReceiver(t, nil)
	var ep int64
	if err := f.db.Get(&ep, `INSERT INTO webhook_endpoints (seller_id, kind, url, secret, events) VALUES ($1, 'custom', $2, 's', $3) RETURNING id`,
		f.seller, "http://localhost:"+rc.URL[strings.LastIndexByte(rc.URL, ':')+1:]+"/x", "{order.created}"); err != nil {
		t.Fatal(err)
	}
	_, ev := f.order(t)
	cfg := testConfig()
	cfg.Hooks.Allow = nil
	r, err := New(cfg, f.db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Pass(context.Background()); err != nil {
		t.Fatal(err)
	}
	var a webhooks.Attempt
	if err := f.db.Get(&a, `SELECT a.id, a.delivery_id, a.attempted_at, a.status_code, a.latency_ms, a.response, a.error
		FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1`, ev); err != nil {
		t.Fatal(err)
	}
	if a.StatusCode != nil || !strings.Contains(a.Error, "refused") || len(rc.got()) != 0 {
		t.Fatalf("attempt %+v, %d requests", a, len(rc.got()))
	}

	// A redirect to another receiver is a failed try; the target never hears of it.
	target := newReceiver(t, nil)
	redirect := httptest.NewServer(http.RedirectHandler(target.URL, http.StatusTemporaryRedirect))
	defer redirect.Close()
	cfg = testConfig()
	e := f.endpoint(t, cfg, webhooks.Input{Kind: webhooks.KindCustom, URL: redirect.URL})
	_, ev2 := f.order(t)
	r, _ = New(cfg, f.db, nil)
	if _, err := r.Pass(context.Background()); err != nil {
		t.Fatal(err)
	}
	var code int
	if err := f.db.Get(&code, `SELECT last_status FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = $2 AND status = 'pending'`, e.ID, ev2); err != nil {
		t.Fatal(err)
	}
	if code != http.StatusTemporaryRedirect || len(target.got()) != 0 {
		t.Fatalf("status %d, %d requests to the redirect's target", code, len(target.got()))
	}
}

// TestSlowAndHugeReceivers: a receiver that never answers costs one timeout; one answering 10 MB
// is read for a kilobyte; the pass ends and both tries are logged.
func TestSlowAndHugeReceivers(t *testing.T) {
	f := setup(t)
	cfg := testConfig()
	cfg.Timeout = 500 * time.Millisecond
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body) // the server notices the client leaving only once the body is read
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
	}))
	defer slow.Close()
	huge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := []byte(strings.Repeat("x", 64<<10))
		for range 160 { // 10 MB
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer huge.Close()
	es := f.endpoint(t, cfg, webhooks.Input{Kind: webhooks.KindCustom, URL: slow.URL})
	eh := f.endpoint(t, cfg, webhooks.Input{Kind: webhooks.KindCustom, URL: huge.URL})
	_, ev := f.order(t)
	r, err := New(cfg, f.db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Pass(context.Background()); err != nil {
		t.Fatal(err)
	}
	attempt := func(ep int64) webhooks.Attempt {
		var a webhooks.Attempt
		if err := f.db.Get(&a, `SELECT a.id, a.delivery_id, a.attempted_at, a.status_code, a.latency_ms, a.response, a.error
			FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1 AND d.endpoint_id = $2`, ev, ep); err != nil {
			t.Fatal(err)
		}
		return a
	}
	if a := attempt(es.ID); a.StatusCode != nil || !strings.Contains(a.Error, "timed out") {
		t.Fatalf("slow receiver: %+v", a)
	}
	if a := attempt(eh.ID); !a.Succeeded() || len(a.Response) != 1024 {
		t.Fatalf("huge receiver: status %v, %d bytes kept", a.StatusCode, len(a.Response))
	}
	if s := f.statuses(t, eh.ID)[ev]; s != webhooks.StatusSucceeded {
		t.Fatalf("huge receiver's delivery %s", s)
	}
}

// TestEndpointTurnedOff: an endpoint failing for the whole retry window is turned off, once, and
// its seller notified; its later events wait for it.
func TestEndpointTurnedOff(t *testing.T) {
	f := setup(t)
	cfg := testConfig()
	cfg.Hooks.RetryFor = time.Minute
	rc := newReceiver(t, func(hit, int) int { return http.StatusBadGateway })
	ep := f.endpoint(t, cfg, webhooks.Input{Kind: webhooks.KindCustom, Name: "ERP", URL: rc.URL})
	f.order(t)
	r, err := New(cfg, f.db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Pass(context.Background()); err != nil {
		t.Fatal(err)
	}
	var on bool
	f.db.Get(&on, `SELECT enabled FROM webhook_endpoints WHERE id = $1`, ep.ID)
	if !on {
		t.Fatal("turned off after one failure")
	}
	f.db.MustExec(`UPDATE webhook_endpoints SET failing_since = now() - interval '2 minutes' WHERE id = $1`, ep.ID)
	f.db.MustExec(`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE endpoint_id = $1`, ep.ID)
	if _, err := r.Pass(context.Background()); err != nil {
		t.Fatal(err)
	}
	var e struct {
		Enabled bool   `db:"enabled"`
		Reason  string `db:"disabled_reason"`
	}
	f.db.Get(&e, `SELECT enabled, disabled_reason FROM webhook_endpoints WHERE id = $1`, ep.ID)
	var notes []string
	f.db.Select(&notes, `SELECT subject || ': ' || message FROM notifications WHERE seller_id = $1`, f.seller)
	if e.Enabled || e.Reason != "Turned off after failing every delivery for 1 minute." || len(notes) != 1 ||
		!strings.Contains(notes[0], `The endpoint "ERP" failed every delivery`) {
		t.Fatalf("endpoint %+v, notifications %q", e, notes)
	}
	// Turned off, it is sent nothing more.
	n := len(rc.got())
	f.order(t)
	for range 3 {
		r.Pass(context.Background())
	}
	if len(rc.got()) != n {
		t.Fatalf("a turned-off endpoint got %d more requests", len(rc.got())-n)
	}
}

// TestChannelFormats: a test send reaches each chat channel in its own format.
func TestChannelFormats(t *testing.T) {
	f := setup(t)
	rc := newReceiver(t, nil)
	cfg := testConfig()
	cfg.Hooks.SlackBase, cfg.Hooks.DiscordBase, cfg.Hooks.TeamsBase, cfg.Hooks.TelegramBase = rc.URL+"/slack/", rc.URL+"/discord/", rc.URL+"/teams/", rc.URL+"/tg"
	eps := []webhooks.Endpoint{
		f.endpoint(t, cfg, webhooks.Input{Kind: webhooks.KindSlack, URL: rc.URL + "/slack/T1/B1/x"}),
		f.endpoint(t, cfg, webhooks.Input{Kind: webhooks.KindDiscord, URL: rc.URL + "/discord/1/abc"}),
		f.endpoint(t, cfg, webhooks.Input{Kind: webhooks.KindTeams, URL: rc.URL + "/teams/hook"}),
		f.endpoint(t, cfg, webhooks.Input{Kind: webhooks.KindTelegram, BotToken: "123456:ABCdefGHIjklMNOpqrSTUvwx", ChatID: "-100777"}),
	}
	for _, e := range eps {
		if _, err := webhooks.SendTest(context.Background(), f.db, e.ID); err != nil {
			t.Fatal(err)
		}
	}
	r, err := New(cfg, f.db, nil)
	if err != nil {
		t.Fatal(err)
	}
	drain(t, r, func() bool { return len(rc.got()) == 4 })
	got := map[string]map[string]any{}
	for _, h := range rc.got() {
		var m map[string]any
		if err := json.Unmarshal(h.body, &m); err != nil {
			t.Fatal(err)
		}
		got[h.path] = m
	}
	text := webhooks.Summary(webhooks.EventTest, nil)
	if got["/slack/T1/B1/x"]["text"] != text || got["/discord/1/abc"]["content"] != text || got["/teams/hook"]["@type"] != "MessageCard" ||
		got["/teams/hook"]["text"] != text {
		t.Fatalf("messages %v", got)
	}
	if tg := got["/tg/bot123456:ABCdefGHIjklMNOpqrSTUvwx/sendMessage"]; tg["chat_id"] != "-100777" || tg["text"] != text {
		t.Fatalf("telegram %v", got)
	}
}

// TestTwoWorkers: two workers' loops running at once fan out and send every event of several
// orders exactly once, each order's events in order.
func TestTwoWorkers(t *testing.T) {
	f := setup(t)
	cfg := testConfig()
	rc := newReceiver(t, nil)
	f.endpoint(t, cfg, webhooks.Input{Kind: webhooks.KindCustom, URL: rc.URL})
	want := map[string]bool{}
	orderOf := map[string]int64{}
	for range 10 {
		o, ev := f.order(t)
		want["evt_"+strconv.FormatInt(ev, 10)] = true
		orderOf["evt_"+strconv.FormatInt(ev, 10)] = o
		for _, s := range []string{"pending", "processing", "completed"} {
			id := "evt_" + strconv.FormatInt(f.statusEvent(t, o, s), 10)
			want[id] = true
			orderOf[id] = o
		}
	}
	var wg sync.WaitGroup
	for range 2 {
		r, err := New(cfg, f.db, nil)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			for range 100 {
				if _, err := r.Pass(context.Background()); err != nil {
					t.Error(err)
					return
				}
				if len(rc.got()) >= len(want) {
					return
				}
			}
		})
	}
	wg.Wait()
	seen := map[string]int{}
	last := map[int64]int64{}
	for _, h := range rc.got() {
		seen[h.eventID]++
		n, _ := strconv.ParseInt(strings.TrimPrefix(h.eventID, "evt_"), 10, 64)
		if o := orderOf[h.eventID]; n < last[o] {
			t.Fatalf("order %d: %s after evt_%d", o, h.eventID, last[o])
		} else {
			last[o] = n
		}
	}
	if len(seen) != len(want) {
		t.Fatalf("%d events delivered, want %d", len(seen), len(want))
	}
	for id, n := range seen {
		if n != 1 || !want[id] {
			t.Fatalf("%s delivered %d times", id, n)
		}
	}
}
