package emailsend

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/worker/tasks"
)

type fixture struct {
	db         *sqlx.DB
	mailer     *mail.Mailer
	campaignID int64
}

// newFixture is a store with subscribed subscribers and 3 unsubscribed ones, and a campaign of it
// queued for sending; mail goes to the local outbox.
func newFixture(t *testing.T, subscribed int) *fixture {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	m, err := mail.New(mail.DefaultConfig(), db)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{db: db, mailer: m}
	const q = `
WITH u AS (INSERT INTO users (name, email, password_hash, roles) VALUES ('S', 's@example.com', 'x', '{seller}') RETURNING id),
st AS (INSERT INTO stores (owner_id, name, domain) SELECT id, 'Shop', 'shop.test' FROM u RETURNING id),
sub AS (INSERT INTO email_subscribers (store_id, email, first_name, status)
    SELECT st.id, 'buyer' || n || '@example.com', CASE WHEN n = 1 THEN 'Grace' ELSE '' END,
        CASE WHEN n > $1 THEN 'unsubscribed' ELSE 'subscribed' END
    FROM st, generate_series(1, $1 + 3) n)
INSERT INTO email_campaigns (store_id, name, subject, body_html, status)
SELECT id, 'Spring', '{{first_name|Hi}}, spring sale at {{ store_name }}',
    '<p>Hello {{first_name|friend}} &amp; welcome</p><p><a href="{{unsubscribe_url}}">Unsubscribe</a></p>', 'sending' FROM st
RETURNING id`
	if err := db.Get(&f.campaignID, q, subscribed); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) handler(t *testing.T, m Mailer) *Handler {
	t.Helper()
	// The bff of this stack listens on 9555: the worker's links must point there, not at an address of its own.
	cfg, err := LoadConfig(env.Map(map[string]string{"PRESSROOM_HTTP_ADDR": "127.0.0.1:9555"}))
	if err != nil {
		t.Fatal(err)
	}
	cfg.BatchSize = 25
	h, err := NewHandler(cfg, f.db, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func (f *fixture) task(t *testing.T) *asynq.Task {
	t.Helper()
	job, err := tasks.NewSendCampaignJob(f.campaignID)
	if err != nil {
		t.Fatal(err)
	}
	return job.Task()
}

type progress struct {
	Status     string `db:"status"`
	Recipients int    `db:"recipients"`
	Sent       int    `db:"sent"`
	Failed     int    `db:"failed"`
}

func (f *fixture) progress(t *testing.T) progress {
	t.Helper()
	var p progress
	if err := f.db.Get(&p, `SELECT status, recipients, sent, failed FROM email_campaigns WHERE id = $1`, f.campaignID); err != nil {
		t.Fatal(err)
	}
	return p
}

// outbox counts the messages in the local outbox and the most any one address received.
func (f *fixture) outbox(t *testing.T) (total, most int) {
	t.Helper()
	err := f.db.QueryRow(`SELECT coalesce(sum(n), 0), coalesce(max(n), 0) FROM (SELECT count(*) n FROM mail_outbox GROUP BY to_address) c`).Scan(&total, &most)
	if err != nil {
		t.Fatal(err)
	}
	return total, most
}

func TestSendMailsEverySubscribedSubscriberOnce(t *testing.T) {
	f := newFixture(t, 200)
	if err := f.handler(t, f.mailer).ProcessTask(context.Background(), f.task(t)); err != nil {
		t.Fatal(err)
	}
	if got, want := f.progress(t), (progress{Status: tasks.EmailSent, Recipients: 200, Sent: 200}); got != want {
		t.Fatalf("campaign = %+v, want %+v", got, want)
	}
	total, most := f.outbox(t)
	if total != 200 || most != 1 {
		t.Fatalf("outbox holds %d messages, at most %d per address; want 200, 1", total, most)
	}
	var unsubscribedMailed int
	if err := f.db.Get(&unsubscribedMailed, `SELECT count(*) FROM mail_outbox WHERE to_address IN ('buyer201@example.com', 'buyer202@example.com', 'buyer203@example.com')`); err != nil || unsubscribedMailed != 0 {
		t.Fatalf("unsubscribed subscribers got %d messages (%v), want 0", unsubscribedMailed, err)
	}
	var subject, body, otherSubject, otherBody string
	if err := f.db.QueryRow(`SELECT subject, body FROM mail_outbox WHERE to_address = 'buyer1@example.com'`).Scan(&subject, &body); err != nil {
		t.Fatal(err)
	}
	if err := f.db.QueryRow(`SELECT subject, body FROM mail_outbox WHERE to_address = 'buyer2@example.com'`).Scan(&otherSubject, &otherBody); err != nil {
		t.Fatal(err)
	}
	// Merge fields: the subscriber's own first name, else the fallback; the store's name.
	if subject != "Grace, spring sale at Shop" || otherSubject != "Hi, spring sale at Shop" || !strings.HasPrefix(otherBody, "Hello friend & welcome") {
		t.Fatalf("merged mail: %q / %q / %q", subject, otherSubject, otherBody)
	}
	var token string
	if err := f.db.Get(&token, `SELECT token FROM email_campaign_deliveries WHERE email = 'buyer1@example.com'`); err != nil {
		t.Fatal(err)
	}
	if want := "Hello Grace & welcome\nUnsubscribe (http://127.0.0.1:9555" + tasks.UnsubscribePath + token + ")"; body != want {
		t.Fatalf("body = %q, want %q", body, want)
	}
	// Asynq may deliver a finished task again: nothing more is sent.
	if err := f.handler(t, f.mailer).ProcessTask(context.Background(), f.task(t)); err != nil {
		t.Fatal(err)
	}
	if total, _ := f.outbox(t); total != 200 {
		t.Fatalf("a repeated task sent again: outbox holds %d", total)
	}
}

// stopAfter is the real mailer, whose worker is stopped (its context cancelled) once n messages
// have gone: a restart in the middle of a send.
type stopAfter struct {
	*mail.Mailer
	n      int64
	sent   atomic.Int64
	cancel context.CancelFunc
}

func (s *stopAfter) Send(ctx context.Context, msg mail.Message) error {
	err := s.Mailer.Send(ctx, msg)
	if s.sent.Add(1) == s.n {
		s.cancel()
	}
	return err
}

func TestRestartMidSendMailsEachRecipientOnce(t *testing.T) {
	f := newFixture(t, 200)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := f.handler(t, &stopAfter{Mailer: f.mailer, n: 70, cancel: cancel}).ProcessTask(ctx, f.task(t))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted send = %v, want context.Canceled", err)
	}
	if p := f.progress(t); p.Status != tasks.EmailSending || p.Sent != 70 {
		t.Fatalf("after the stop: %+v, want sending with 70 sent", p)
	}
	var claimed int
	if err := f.db.Get(&claimed, `SELECT count(*) FROM email_campaign_deliveries WHERE campaign_id = $1 AND status = 'sending'`, f.campaignID); err != nil || claimed != 0 {
		t.Fatalf("%d deliveries left claimed after a clean stop (%v), want 0", claimed, err)
	}
	if err := f.handler(t, f.mailer).ProcessTask(context.Background(), f.task(t)); err != nil {
		t.Fatal(err)
	}
	if got, want := f.progress(t), (progress{Status: tasks.EmailSent, Recipients: 200, Sent: 200}); got != want {
		t.Fatalf("campaign = %+v, want %+v", got, want)
	}
	if total, most := f.outbox(t); total != 200 || most != 1 {
		t.Fatalf("outbox holds %d messages, at most %d per address; want 200, 1", total, most)
	}
}

func TestCrashedClaimIsFailedNotResent(t *testing.T) {
	f := newFixture(t, 10)
	// An attempt that died holding 3 claimed rows, one of which it had mailed.
	if _, err := f.db.Exec(`UPDATE email_campaigns SET started_at = now() WHERE id = $1`, f.campaignID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Exec(`INSERT INTO email_campaign_deliveries (campaign_id, subscriber_id, email, status)
SELECT $1, id, email, 'sending' FROM email_subscribers WHERE email IN ('buyer1@example.com', 'buyer2@example.com', 'buyer3@example.com')`, f.campaignID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Exec(`INSERT INTO mail_outbox (to_address, subject, body) VALUES ('buyer1@example.com', 'Spring sale', 'x')`); err != nil {
		t.Fatal(err)
	}
	if err := f.handler(t, f.mailer).ProcessTask(context.Background(), f.task(t)); err != nil {
		t.Fatal(err)
	}
	if got, want := f.progress(t), (progress{Status: tasks.EmailSent, Recipients: 10, Sent: 7, Failed: 3}); got != want {
		t.Fatalf("campaign = %+v, want %+v", got, want)
	}
	if total, most := f.outbox(t); total != 8 || most != 1 {
		t.Fatalf("outbox holds %d messages, at most %d per address; want 8, 1", total, most)
	}
}

func TestUnsubscribedDuringSendIsSkipped(t *testing.T) {
	f := newFixture(t, 30)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_ = f.handler(t, &stopAfter{Mailer: f.mailer, n: 5, cancel: cancel}).ProcessTask(ctx, f.task(t))
	if _, err := f.db.Exec(`UPDATE email_subscribers SET status = 'unsubscribed' WHERE email = 'buyer30@example.com'`); err != nil {
		t.Fatal(err)
	}
	if err := f.handler(t, f.mailer).ProcessTask(context.Background(), f.task(t)); err != nil {
		t.Fatal(err)
	}
	if got, want := f.progress(t), (progress{Status: tasks.EmailSent, Recipients: 30, Sent: 29}); got != want {
		t.Fatalf("campaign = %+v, want %+v", got, want)
	}
	var skipped string
	if err := f.db.Get(&skipped, `SELECT status FROM email_campaign_deliveries WHERE email = 'buyer30@example.com'`); err != nil || skipped != "skipped" {
		t.Fatalf("delivery of the unsubscribed = %q (%v), want skipped", skipped, err)
	}
}

func TestTestSendMarksTheSubject(t *testing.T) {
	f := newFixture(t, 1)
	job, err := tasks.NewSendTestJob(f.campaignID, "me@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.handler(t, f.mailer).Tests().ProcessTask(context.Background(), job.Task()); err != nil {
		t.Fatal(err)
	}
	var subject, body string
	if err := f.db.QueryRow(`SELECT subject, body FROM mail_outbox WHERE to_address = 'me@example.com'`).Scan(&subject, &body); err != nil {
		t.Fatal(err)
	}
	if subject != "[Test] Ada, spring sale at Shop" || !strings.Contains(body, tasks.UnsubscribePath+"test") {
		t.Fatalf("test mail = %q / %q", subject, body)
	}
}

// sent records the messages it is given, delivering none.
type sent struct{ msgs []mail.Message }

func (s *sent) Send(_ context.Context, msg mail.Message) error {
	s.msgs = append(s.msgs, msg)
	return nil
}

// TestCampaignMailIsHTMLFromTheSender: a campaign goes out as the seller's HTML with its text
// alternative, its unsubscribe link in both; from the sender's own address once its domain is
// verified, before that by the sender's name with replies going to it.
func TestCampaignMailIsHTMLFromTheSender(t *testing.T) {
	f := newFixture(t, 1)
	const sender = `
WITH d AS (INSERT INTO store_domains (store_id, domain) SELECT store_id, 'acme.example' FROM email_campaigns WHERE id = $1 RETURNING id),
s AS (INSERT INTO email_senders (store_domain_id, username, name) SELECT id, 'news', 'Acme Shop' FROM d RETURNING id)
UPDATE email_campaigns SET sender_id = (SELECT id FROM s) WHERE id = $1`
	f.db.MustExec(sender, f.campaignID)
	test := func(to string) mail.Message {
		t.Helper()
		rec := &sent{}
		job, err := tasks.NewSendTestJob(f.campaignID, to)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.handler(t, rec).Tests().ProcessTask(context.Background(), job.Task()); err != nil || len(rec.msgs) != 1 {
			t.Fatalf("test send: %v, %d messages", err, len(rec.msgs))
		}
		return rec.msgs[0]
	}
	m := test("me@example.com")
	link := "http://127.0.0.1:9555" + tasks.UnsubscribePath + "test"
	if !strings.Contains(m.HTML, `<a href="`+link+`">Unsubscribe</a>`) || m.Body != "Hello Ada & welcome\nUnsubscribe ("+link+")" {
		t.Fatalf("message parts: %q / %q", m.HTML, m.Body)
	}
	if m.From != "" || m.FromName != "Acme Shop" || m.ReplyTo != "news@acme.example" {
		t.Fatalf("unverified sender: From %q, name %q, Reply-To %q", m.From, m.FromName, m.ReplyTo)
	}
	f.db.MustExec(`UPDATE store_domains SET verified_at = now()`)
	if m := test("me@example.com"); m.From != `"Acme Shop" <news@acme.example>` || m.ReplyTo != "" {
		t.Fatalf("verified sender: From %q, Reply-To %q", m.From, m.ReplyTo)
	}
}
