package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/bff/emailmarketing"
	"github.com/pressroom/pressroom/platform/klaviyo/klaviyotest"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/worker/emailsync"
	"github.com/pressroom/pressroom/worker/tasks"
)

// newEmailStack is a stack whose Klaviyo is a fake accepting pk_live_good_key_1234 and list L1,
// with the demo store's id.
func newEmailStack(t *testing.T) (*stack, *klaviyotest.Server, int64) {
	t.Helper()
	fake := klaviyotest.New(t, "pk_live_good_key_1234", "L1")
	s := newStackWith(t, map[string]string{"PRESSROOM_KLAVIYO_BASE_URL": fake.URL, "PRESSROOM_EMAIL_SYNC_PAGE_SIZE": "50"})
	var storeID int64
	if err := s.app.DB.Get(&storeID, `SELECT id FROM stores WHERE domain = 'sams-print-shop.pressroom.local'`); err != nil {
		t.Fatal(err)
	}
	return s, fake, storeID
}

// startWorker runs the worker's email sync handler on the stack's Redis until the test ends or
// the returned server is shut down.
func (s *stack) startWorker() *asynq.Server {
	s.t.Helper()
	h, err := emailsync.NewHandler(s.cfg.Email, s.app.DB, nil, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	mux := asynq.NewServeMux()
	mux.Handle(tasks.TypeSyncProfiles, h)
	qcfg := s.cfg.Queue
	qcfg.ShutdownTimeout = time.Second
	srv := queue.NewServer(qcfg, queue.Worker, 2, slog.New(slog.DiscardHandler))
	if err := srv.Start(mux); err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(srv.Shutdown)
	return srv
}

// importCSV imports csv as the subscribers of store.
func (s *stack) importCSV(token string, store int64, csv string) reply {
	s.t.Helper()
	return s.do(http.MethodPost, "/api/seller/email-marketing/subscribers/import", token, map[string]any{"store_id": store, "csv": csv})
}

func field(r reply, name string) any { return r.body.Data.(map[string]any)[name] }

func TestKlaviyoConnectionIsCheckedAndKeySealed(t *testing.T) {
	s, _, store := newEmailStack(t)
	token := s.mint("seller@example.com", "own", "", false)
	path := fmt.Sprintf("/api/seller/store/%d/email-marketing-klaviyo", store)

	tests := []struct {
		name, key, list, wantField, wantMessage string
	}{
		{"wrong key", "pk_wrong", "L1", "private_key", "Klaviyo refused the connection: " + klaviyotest.MsgBadKey},
		{"unknown list", "pk_live_good_key_1234", "NOPE", "list_id", "Klaviyo refused the connection: A list with id NOPE does not exist."},
		{"empty fields", "", "", "private_key", emailmarketing.MsgKeyRequired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.do(http.MethodPut, path, token, map[string]string{"private_key": tt.key, "list_id": tt.list})
			if r.status != http.StatusUnprocessableEntity || r.body.Success || r.body.Message != tt.wantMessage ||
				r.body.Errors[0].Field != tt.wantField {
				t.Fatalf("PUT = %d %s", r.status, r.raw)
			}
			var n int
			s.app.DB.Get(&n, `SELECT count(*) FROM email_klaviyo_settings`)
			if n != 0 {
				t.Fatalf("a refused connection stored %d rows", n)
			}
		})
	}

	if r := s.do(http.MethodGet, path, token, nil); r.status != 200 || field(r, "connected") != false {
		t.Fatalf("GET before connecting = %d %s", r.status, r.raw)
	}
	r := s.do(http.MethodPut, path, token, map[string]string{"private_key": "pk_live_good_key_1234", "list_id": "L1"})
	if r.status != 200 || r.body.Message != emailmarketing.MsgKlaviyoSaved {
		t.Fatalf("PUT good key = %d %s", r.status, r.raw)
	}
	r = s.do(http.MethodGet, path, token, nil)
	masked, _ := field(r, "private_key").(string)
	if field(r, "connected") != true || field(r, "list_id") != "L1" || !strings.HasSuffix(masked, "1234") ||
		strings.Contains(string(r.raw), "good_key") {
		t.Fatalf("GET after connecting = %s, want the key masked", r.raw)
	}
	var sealed []byte
	s.app.DB.Get(&sealed, `SELECT private_key_sealed FROM email_klaviyo_settings WHERE store_id = $1`, store)
	if len(sealed) == 0 || bytes.Contains(sealed, []byte("good_key")) {
		t.Fatalf("stored key %q is not sealed", sealed)
	}
	// Sending the masked key back keeps the stored one (the list can change alone).
	if r := s.do(http.MethodPut, path, token, map[string]string{"private_key": masked, "list_id": "L1"}); r.status != 200 {
		t.Fatalf("PUT with the masked key = %d %s", r.status, r.raw)
	}
	// Another seller's store is not found.
	s.addUser("other-seller@example.com", []string{"seller"}, []string{}, true, false)
	s.app.DB.Exec(`UPDATE users SET tags = '{email marketing}' WHERE email = 'other-seller@example.com'`)
	other := s.mint("other-seller@example.com", "own", "", false)
	if r := s.do(http.MethodGet, path, other, nil); r.status != 404 || r.body.Message != emailmarketing.MsgStoreNotFound {
		t.Fatalf("GET of another seller's store = %d %s", r.status, r.raw)
	}
}

// TestOneOpenSyncRunPerStore asks for a sync twice with no worker running: the second request
// answers the queued run and queues nothing; once that run failed, the store may sync again.
func TestOneOpenSyncRunPerStore(t *testing.T) {
	s, _, store := newEmailStack(t)
	token := s.mint("seller@example.com", "own", "", false)
	base := fmt.Sprintf("/api/seller/store/%d/email-marketing-klaviyo", store)
	if r := s.do(http.MethodPut, base, token, map[string]string{"private_key": "pk_live_good_key_1234", "list_id": "L1"}); r.status != 200 {
		t.Fatalf("connect = %d %s", r.status, r.raw)
	}
	first := s.do(http.MethodPost, base+"/sync-profiles", token, map[string]any{})
	if first.status != http.StatusAccepted || first.body.Message != emailmarketing.MsgSyncStarted || field(first, "status") != tasks.SyncQueued {
		t.Fatalf("sync = %d %s", first.status, first.raw)
	}
	again := s.do(http.MethodPost, base+"/sync-profiles", token, map[string]any{})
	if again.status != 200 || again.body.Message != emailmarketing.MsgSyncRunning || field(again, "id") != field(first, "id") {
		t.Fatalf("second sync = %d %s, want run %v again", again.status, again.raw, field(first, "id"))
	}
	var queued int
	if err := s.app.DB.Get(&queued, `SELECT count(*) FROM task_outbox WHERE task_type = $1`, tasks.TypeSyncProfiles); err != nil || queued != 1 {
		t.Fatalf("sync tasks in the outbox = %d (%v), want 1", queued, err)
	}
	s.app.DB.MustExec(`UPDATE email_sync_runs SET status = 'failed' WHERE store_id = $1`, store)
	if r := s.do(http.MethodPost, base+"/sync-profiles", token, map[string]any{}); r.status != http.StatusAccepted || field(r, "id") == field(first, "id") {
		t.Fatalf("a new run after a failed one = %d %s", r.status, r.raw)
	}
}

func TestSyncProfilesRunsThroughTheWorker(t *testing.T) {
	s, fake, store := newEmailStack(t)
	fake.RateLimitEvery = 4
	s.startWorker()
	token := s.mint("seller@example.com", "own", "", false)
	base := fmt.Sprintf("/api/seller/store/%d/email-marketing-klaviyo", store)
	if r := s.do(http.MethodPost, base+"/sync-profiles", token, map[string]any{}); r.status != 422 || r.body.Message != emailmarketing.MsgNotConnected {
		t.Fatalf("sync before connecting = %d %s", r.status, r.raw)
	}
	if r := s.do(http.MethodPut, base, token, map[string]string{"private_key": "pk_live_good_key_1234", "list_id": "L1"}); r.status != 200 {
		t.Fatalf("connect = %d %s", r.status, r.raw)
	}
	var csv strings.Builder
	csv.WriteString("Email,First Name,Last Name\n")
	for i := range 300 {
		fmt.Fprintf(&csv, "buyer%d@example.com,Buyer,%d\n", i, i)
	}
	csv.WriteString("not-an-address,X,Y\nbuyer1@example.com,Again,Twice\n")
	r := s.importCSV(token, store, csv.String())
	if r.status != 200 || field(r, "imported") != 300.0 || field(r, "skipped") != 2.0 {
		t.Fatalf("import = %d %s", r.status, r.raw)
	}
	r = s.do(http.MethodPost, base+"/sync-profiles", token, map[string]any{})
	if r.status != http.StatusAccepted || field(r, "total") != 300.0 {
		t.Fatalf("sync = %d %s", r.status, r.raw)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		r = s.do(http.MethodGet, base+"/sync-profiles", token, nil)
		if field(r, "status") == tasks.SyncDone {
			break
		}
		if field(r, "status") == tasks.SyncFailed || time.Now().After(deadline) {
			t.Fatalf("sync progress = %s", r.raw)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if field(r, "done") != 300.0 || fake.Members("L1") != 300 || fake.Stats().Profiles != 300 {
		t.Fatalf("finished run = %s; fake holds %+v, %d on the list", r.raw, fake.Stats(), fake.Members("L1"))
	}
}

func TestSenders(t *testing.T) {
	s, _, store := newEmailStack(t)
	token := s.mint("seller@example.com", "own", "", false)
	var domainID int64
	if err := s.app.DB.Get(&domainID, `SELECT id FROM store_domains WHERE store_id = $1`, store); err != nil {
		t.Fatal(err)
	}
	var foreignDomain int64
	s.addUser("other-seller@example.com", []string{"seller"}, []string{}, true, false)
	s.app.DB.Get(&foreignDomain, `WITH st AS (INSERT INTO stores (owner_id, name, domain)
SELECT id, 'Other', 'other.test' FROM users WHERE email = 'other-seller@example.com' RETURNING id)
INSERT INTO store_domains (store_id, domain) SELECT id, 'mail.other.test' FROM st RETURNING id`)

	bad := []struct {
		name      string
		body      map[string]any
		wantField string
	}{
		{"missing domain", map[string]any{"username": "hello", "name": "Shop"}, "store_domain_id"},
		{"address with a space", map[string]any{"store_domain_id": domainID, "username": "hel lo", "name": "Shop"}, "username"},
		{"address with an at sign", map[string]any{"store_domain_id": domainID, "username": "a@b", "name": "Shop"}, "username"},
		{"double dot", map[string]any{"store_domain_id": domainID, "username": "a..b", "name": "Shop"}, "username"},
		{"no name", map[string]any{"store_domain_id": domainID, "username": "hello", "name": " "}, "name"},
		{"another seller's domain", map[string]any{"store_domain_id": foreignDomain, "username": "hello", "name": "Shop"}, "store_domain_id"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			r := s.do(http.MethodPost, "/api/seller/email-marketing/senders", token, tt.body)
			if r.status != 422 || r.body.Success || r.body.Errors[0].Field != tt.wantField {
				t.Fatalf("create = %d %s, want 422 on %s", r.status, r.raw, tt.wantField)
			}
		})
	}

	r := s.do(http.MethodPost, "/api/seller/email-marketing/senders", token, map[string]any{"store_domain_id": domainID, "username": "hello", "name": "Sam's Shop"})
	if r.status != 200 || field(r, "email") != "hello@mail.sams-print-shop.pressroom.local" {
		t.Fatalf("create = %d %s", r.status, r.raw)
	}
	id := int64(field(r, "id").(float64))
	if r := s.do(http.MethodPost, "/api/seller/email-marketing/senders", token, map[string]any{"store_domain_id": domainID, "username": "HELLO", "name": "Dup"}); r.status != 422 || r.body.Message != emailmarketing.MsgSenderTaken {
		t.Fatalf("duplicate = %d %s", r.status, r.raw)
	}
	one := fmt.Sprintf("/api/seller/email-marketing/senders/%d", id)
	if r := s.do(http.MethodPatch, one, token, map[string]any{"username": "news", "name": "Sam's News"}); r.status != 200 || field(r, "email") != "news@mail.sams-print-shop.pressroom.local" {
		t.Fatalf("rename = %d %s", r.status, r.raw)
	}
	var page struct {
		Data    []emailmarketing.Sender `json:"data"`
		Total   int                     `json:"total"`
		PerPage int                     `json:"per_page"`
	}
	r = s.do(http.MethodGet, "/api/seller/email-marketing/senders?page=1", token, nil)
	if err := json.Unmarshal(r.raw, &page); err != nil || page.Total != 1 || page.PerPage != 15 || page.Data[0].Name != "Sam's News" {
		t.Fatalf("list = %s", r.raw)
	}
	if r := s.do(http.MethodGet, one+"/status", token, nil); r.status != 200 || field(r, "status") != "verified" {
		t.Fatalf("status = %d %s", r.status, r.raw)
	}
	other := s.mint("other-seller@example.com", "own", "", false)
	s.app.DB.Exec(`UPDATE users SET tags = '{email marketing}' WHERE email = 'other-seller@example.com'`)
	if r := s.do(http.MethodDelete, one, other, nil); r.status != 404 || r.body.Message != emailmarketing.MsgSenderNotFound {
		t.Fatalf("delete by another seller = %d %s", r.status, r.raw)
	}
	if r := s.do(http.MethodDelete, one, token, nil); r.status != 200 {
		t.Fatalf("delete = %d %s", r.status, r.raw)
	}
	if r := s.do(http.MethodGet, one, token, nil); r.status != 404 || r.body.Success || r.body.Message != "Sender not found" {
		t.Fatalf("get deleted = %d %s", r.status, r.raw)
	}
}

func TestSubscribersListAndUnsubscribe(t *testing.T) {
	s, _, store := newEmailStack(t)
	token := s.mint("seller@example.com", "own", "", false)
	if r := s.importCSV(token, store, "email\nana@example.com\nbo@example.com\n"); r.status != 200 {
		t.Fatalf("import = %d %s", r.status, r.raw)
	}
	if r := s.importCSV(token, store, "name\nana\n"); r.status != 422 || r.body.Message != emailmarketing.MsgNoEmailColumn {
		t.Fatalf("import without an email column = %d %s", r.status, r.raw)
	}
	var page struct {
		Data  []emailmarketing.Subscriber `json:"data"`
		Total int                         `json:"total"`
	}
	r := s.do(http.MethodGet, "/api/seller/email-marketing/subscribers?q=ana", token, nil)
	if json.Unmarshal(r.raw, &page); page.Total != 1 || page.Data[0].Email != "ana@example.com" || page.Data[0].Status != "subscribed" {
		t.Fatalf("search = %s", r.raw)
	}
	r = s.do(http.MethodPost, fmt.Sprintf("/api/seller/email-marketing/subscribers/%d/unsubscribe", page.Data[0].ID), token, map[string]any{})
	if r.status != 200 || field(r, "status") != "unsubscribed" {
		t.Fatalf("unsubscribe = %d %s", r.status, r.raw)
	}
	// A re-import refreshes names but never undoes an unsubscribe.
	s.importCSV(token, store, "email,first_name\nana@example.com,Ana\n")
	r = s.do(http.MethodGet, "/api/seller/email-marketing/subscribers?q=ana", token, nil)
	if json.Unmarshal(r.raw, &page); page.Data[0].Status != "unsubscribed" || page.Data[0].FirstName != "Ana" {
		t.Fatalf("after re-import = %s", r.raw)
	}
}

// TestSyncResumesAfterWorkerRestart stops the worker while Klaviyo holds the third page, starts a
// new one, and checks that the run finishes with every profile sent once and at most one page sent
// again.
func TestSyncResumesAfterWorkerRestart(t *testing.T) {
	s, fake, store := newEmailStack(t)
	fake.HoldAt = 3
	first := s.startWorker()
	token := s.mint("seller@example.com", "own", "", false)
	base := fmt.Sprintf("/api/seller/store/%d/email-marketing-klaviyo", store)
	if r := s.do(http.MethodPut, base, token, map[string]string{"private_key": "pk_live_good_key_1234", "list_id": "L1"}); r.status != 200 {
		t.Fatalf("connect = %d %s", r.status, r.raw)
	}
	var csv strings.Builder
	csv.WriteString("email\n")
	for i := range 200 {
		fmt.Fprintf(&csv, "fan%d@example.com\n", i)
	}
	if r := s.importCSV(token, store, csv.String()); r.status != 200 {
		t.Fatalf("import = %d %s", r.status, r.raw)
	}
	if r := s.do(http.MethodPost, base+"/sync-profiles", token, map[string]any{}); r.status != http.StatusAccepted {
		t.Fatalf("sync = %d %s", r.status, r.raw)
	}
	progress := func() reply { return s.do(http.MethodGet, base+"/sync-profiles", token, nil) }
	waitFor := func(what string, ok func(reply) bool) reply {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			r := progress()
			if ok(r) {
				return r
			}
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s: %s", what, r.raw)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitFor("two pages", func(r reply) bool { return field(r, "done") == 100.0 })
	first.Shutdown() // the held page's request is abandoned when the shutdown timeout ends
	if r := progress(); field(r, "status") != tasks.SyncRunning || field(r, "done") != 100.0 {
		t.Fatalf("run after the worker stopped = %s, want running with 100 done", r.raw)
	}
	close(fake.Release)
	s.startWorker()
	r := waitFor("the run to finish", func(r reply) bool { return field(r, "status") != tasks.SyncRunning })
	st := fake.Stats()
	if field(r, "status") != tasks.SyncDone || field(r, "done") != 200.0 || st.Profiles != 200 || fake.Members("L1") != 200 || st.Imports > 4 {
		t.Fatalf("resumed run = %s; fake saw %+v, want 200 profiles in at most 4 imports", r.raw, st)
	}
}
