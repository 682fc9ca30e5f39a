package emailsync

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/klaviyo"
	"github.com/pressroom/pressroom/platform/klaviyo/klaviyotest"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/worker/tasks"
)

type fixture struct {
	db      *sqlx.DB
	fake    *klaviyotest.Server
	h       *Handler
	storeID int64
}

// newFixture is a store with subscribed subscribers (and 3 unsubscribed ones the sync must skip),
// connected to a fake Klaviyo with key pk_good and list L1, synced in pages of pageSize.
func newFixture(t *testing.T, subscribed, pageSize int) *fixture {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	fake := klaviyotest.New(t, "pk_good", "L1")
	cfg := klaviyo.DefaultConfig()
	cfg.KlaviyoBaseURL, cfg.PageSize = fake.URL, pageSize
	h, err := NewHandler(cfg, db, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	h.newClient = func(key string) (*klaviyo.Client, error) {
		c, err := klaviyo.New(fake.URL, key, nil)
		if c != nil {
			c.Backoff = time.Millisecond
		}
		return c, err
	}
	f := &fixture{db: db, fake: fake, h: h}
	const q = `WITH u AS (INSERT INTO users (name, email, password_hash, roles) VALUES ('S', 's@example.com', 'x', '{seller}') RETURNING id)
INSERT INTO stores (owner_id, name, domain) SELECT id, 'Shop', 'shop.test' FROM u RETURNING id`
	if err := db.Get(&f.storeID, q); err != nil {
		t.Fatal(err)
	}
	f.connect(t, "pk_good")
	if _, err := db.Exec(`INSERT INTO email_subscribers (store_id, email, first_name, status)
SELECT $1, 'buyer' || n || '@example.com', 'Buyer ' || n, CASE WHEN n > $2 THEN 'unsubscribed' ELSE 'subscribed' END
FROM generate_series(1, $2 + 3) n`, f.storeID, subscribed); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) connect(t *testing.T, key string) {
	t.Helper()
	sealed, err := f.h.sealer.Seal(f.storeID, key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Exec(`INSERT INTO email_klaviyo_settings (store_id, private_key_sealed, key_last4, list_id)
VALUES ($1, $2, '', 'L1') ON CONFLICT (store_id) DO UPDATE SET private_key_sealed = EXCLUDED.private_key_sealed`, f.storeID, sealed); err != nil {
		t.Fatal(err)
	}
}

// request records a queued run of the store, as the bff does when the seller asks for a sync, and
// answers it with its task.
func (f *fixture) request(t *testing.T) (Run, *asynq.Task) {
	t.Helper()
	const q = `INSERT INTO email_sync_runs (store_id, total)
SELECT $1, count(*) FROM email_subscribers WHERE store_id = $1 AND status = 'subscribed'
RETURNING ` + runColumns
	var run Run
	if err := f.db.Get(&run, q, f.storeID); err != nil {
		t.Fatal(err)
	}
	job, err := tasks.NewSyncProfilesJob(run.ID)
	if err != nil {
		t.Fatal(err)
	}
	return run, job.Task()
}

func (f *fixture) run(t *testing.T, id int64) Run {
	t.Helper()
	r, err := f.h.store.get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSyncSendsEverySubscribedProfileOnce(t *testing.T) {
	f := newFixture(t, 250, 40)
	f.fake.RateLimitEvery = 3
	run, task := f.request(t)
	if run.Total != 250 || run.Status != tasks.SyncQueued {
		t.Fatalf("requested run = %+v, want queued with total 250", run)
	}
	if err := f.h.ProcessTask(context.Background(), task); err != nil {
		t.Fatal(err)
	}
	got := f.run(t, run.ID)
	if got.Status != tasks.SyncDone || got.Done != 250 || got.Total != 250 || got.FinishedAt == nil {
		t.Fatalf("run after sync = %+v, want done 250/250", got)
	}
	s := f.fake.Stats()
	if s.Profiles != 250 || f.fake.Members("L1") != 250 || s.Imports != 7 || s.RateLimited == 0 {
		t.Fatalf("fake saw %+v with %d list members, want 250 profiles in 7 imports after some 429s", s, f.fake.Members("L1"))
	}
	// Asynq delivers at least once: a second delivery of a finished run sends nothing.
	if err := f.h.ProcessTask(context.Background(), task); err != nil {
		t.Fatal(err)
	}
	if again := f.fake.Stats(); again.Imports != s.Imports {
		t.Fatalf("a second delivery sent %d more imports", again.Imports-s.Imports)
	}
}

func TestStoppedSyncResumesWithoutDuplicates(t *testing.T) {
	f := newFixture(t, 1000, 100)
	run, task := f.request(t)
	ctx, stop := context.WithCancel(context.Background())
	f.fake.AfterImport = func(n int) {
		if n == 4 {
			stop() // the worker is told to shut down while the 4th page is answered
		}
	}
	if err := f.h.ProcessTask(ctx, task); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped task = %v, want context.Canceled so Asynq runs it again", err)
	}
	mid := f.run(t, run.ID)
	if mid.Status != tasks.SyncRunning || mid.Done < 300 || mid.Done > 400 || mid.Done%100 != 0 {
		t.Fatalf("run after the stop = %+v, want running with 300 or 400 done", mid)
	}
	f.fake.AfterImport = nil
	if err := f.h.ProcessTask(context.Background(), task); err != nil {
		t.Fatal(err)
	}
	got := f.run(t, run.ID)
	if got.Status != tasks.SyncDone || got.Done != 1000 || got.Total != 1000 {
		t.Fatalf("resumed run = %+v, want done 1000/1000", got)
	}
	s := f.fake.Stats()
	if s.Profiles != 1000 || s.Imports > 11 {
		t.Fatalf("fake saw %+v, want 1000 profiles in at most 11 imports (one page may be resent)", s)
	}
}

func TestRefusedKeyFailsTheRunWithKlaviyosMessage(t *testing.T) {
	f := newFixture(t, 5, 10)
	f.connect(t, "pk_revoked")
	run, task := f.request(t)
	err := f.h.ProcessTask(context.Background(), task)
	if !errors.Is(err, asynq.SkipRetry) {
		t.Fatalf("ProcessTask = %v, want SkipRetry", err)
	}
	got := f.run(t, run.ID)
	if got.Status != tasks.SyncFailed || got.Error != "Klaviyo: "+klaviyotest.MsgBadKey {
		t.Fatalf("run = %+v, want failed with Klaviyo's message", got)
	}
}

func TestMalformedPayloadIsNotRetried(t *testing.T) {
	f := newFixture(t, 1, 10)
	for _, payload := range []string{`{`, `{"run_id":0}`, fmt.Sprintf(`{"run_id":%d}`, 1<<40)} {
		err := f.h.ProcessTask(context.Background(), asynq.NewTask(tasks.TypeSyncProfiles, []byte(payload)))
		if !errors.Is(err, asynq.SkipRetry) {
			t.Fatalf("payload %s: %v, want SkipRetry", payload, err)
		}
	}
}
