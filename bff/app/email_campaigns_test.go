package app

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/bff/emailmarketing"
	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/worker/emailsend"
	"github.com/pressroom/pressroom/worker/tasks"
)

// startSendWorker runs the worker's campaign send handlers on the stack's Redis until the test ends.
func (s *stack) startSendWorker() {
	s.t.Helper()
	m, err := mail.New(s.cfg.Mail, s.app.DB)
	if err != nil {
		s.t.Fatal(err)
	}
	h, err := emailsend.NewHandler(emailsend.DefaultConfig(), s.app.DB, m, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	mux := asynq.NewServeMux()
	mux.Handle(tasks.TypeSendCampaign, h)
	mux.Handle(tasks.TypeSendTest, h.Tests())
	qcfg := s.cfg.Queue
	qcfg.ShutdownTimeout = time.Second
	srv := queue.NewServer(qcfg, queue.Worker, 2, slog.New(slog.DiscardHandler))
	if err := srv.Start(mux); err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(srv.Shutdown)
}

// newCampaignStack is the email stack with a sender of the demo store's verified domain; it
// answers the seller's token, the store and the sender.
func newCampaignStack(t *testing.T) (*stack, string, int64, int64) {
	t.Helper()
	s, _, store := newEmailStack(t)
	token := s.mint("seller@example.com", "own", "", false)
	var domainID int64
	if err := s.app.DB.Get(&domainID, `SELECT id FROM store_domains WHERE store_id = $1`, store); err != nil {
		t.Fatal(err)
	}
	r := s.do(http.MethodPost, "/api/seller/email-marketing/senders", token, map[string]any{"store_domain_id": domainID, "username": "news", "name": "Sam's Shop"})
	if r.status != http.StatusOK {
		t.Fatalf("create sender = %d %s", r.status, r.raw)
	}
	return s, token, store, int64(field(r, "id").(float64))
}

func TestCampaignValidation(t *testing.T) {
	s, token, store, sender := newCampaignStack(t)
	var unverified int64
	const q = `WITH d AS (INSERT INTO store_domains (store_id, domain) VALUES ($1, 'new.example.com') RETURNING id)
INSERT INTO email_senders (store_domain_id, username, name) SELECT id, 'hi', 'Hi' FROM d RETURNING id`
	if err := s.app.DB.Get(&unverified, q, store); err != nil {
		t.Fatal(err)
	}
	good := map[string]any{"store_id": store, "sender_id": sender, "name": "Spring", "subject": "Spring sale", "body_html": "<p>Hi</p>"}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for kk, vv := range good {
			m[kk] = vv
		}
		m[k] = v
		return m
	}
	tests := []struct {
		name           string
		body           map[string]any
		field, message string
	}{
		{"subject required", with("subject", "  "), "subject", emailmarketing.MsgSubjectRequired},
		{"subject on one line", with("subject", "a\r\nBcc: x@y.z"), "subject", emailmarketing.MsgSubjectInvalid},
		{"name required", with("name", ""), "name", emailmarketing.MsgCampaignNameRequired},
		{"sender required", with("sender_id", 0), "sender_id", emailmarketing.MsgSenderRequired},
		{"unknown sender", with("sender_id", 999999), "sender_id", emailmarketing.MsgSenderNotFound},
		{"unverified sender", with("sender_id", unverified), "sender_id", emailmarketing.MsgSenderUnverified},
		{"body with nothing to read", with("body_html", "<script>alert(1)</script>"), "body_html", emailmarketing.MsgBodyRequired},
		{"store required", with("store_id", 0), "store_id", emailmarketing.MsgStoreRequired},
		{"unknown merge field in the subject", with("subject", "Hi {{frist_name}}"), "subject",
			"The subject uses {{frist_name}}, which is not a merge field. The merge fields are {{first_name}}, {{last_name}}, {{email}}, {{store_name}} and {{unsubscribe_url}}."},
		{"unknown merge fields in the body", with("body_html", "<p>Hi {{ name }}, see {{coupon|none}}</p>"), "body_html",
			"The email body uses {{name}} and {{coupon}}, which are not merge fields. The merge fields are {{first_name}}, {{last_name}}, {{email}}, {{store_name}} and {{unsubscribe_url}}."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.do(http.MethodPost, "/api/seller/email-marketing/campaigns", token, tt.body)
			if r.status != http.StatusUnprocessableEntity || r.body.Success || r.body.Errors[0].Field != tt.field || r.body.Message != tt.message {
				t.Fatalf("POST = %d %s", r.status, r.raw)
			}
		})
	}
	r := s.do(http.MethodPost, "/api/seller/email-marketing/campaigns", token,
		with("body_html", `<p onclick="x()">Hi <a href="javascript:alert(1)">there</a></p><script>alert(1)</script>`))
	if r.status != http.StatusCreated {
		t.Fatalf("POST = %d %s", r.status, r.raw)
	}
	body := field(r, "body_html").(string)
	if strings.Contains(body, "onclick") || strings.Contains(body, "javascript:") || strings.Contains(body, "<script") ||
		!strings.Contains(body, `href="`+tasks.UnsubscribePlaceholder+`"`) {
		t.Fatalf("stored body not sanitized or lacks the unsubscribe link: %q", body)
	}
}

// TestCampaignMergeFieldsAndPreview: the merge fields are listed with their samples, a preview
// fills them (the fallback where a value is empty never shows for a sample), and an unknown one is
// refused there as at save.
func TestCampaignMergeFieldsAndPreview(t *testing.T) {
	s, token, _, _ := newCampaignStack(t)
	r := s.do(http.MethodGet, "/api/seller/email-marketing/merge-fields", token, nil)
	fields, _ := r.body.Data.([]any)
	if r.status != http.StatusOK || len(fields) != len(tasks.MergeFields) {
		t.Fatalf("merge fields = %d %s", r.status, r.raw)
	}
	r = s.do(http.MethodPost, "/api/seller/email-marketing/campaigns/preview", token, map[string]any{
		"subject": "{{first_name|Hello}}, new at {{store_name}}", "body_html": "<p>Dear {{ first_name }} {{last_name}} <script>x()</script></p>"})
	if r.status != http.StatusOK {
		t.Fatalf("preview = %d %s", r.status, r.raw)
	}
	if got := field(r, "subject"); got != "Ada, new at Your store" {
		t.Fatalf("preview subject = %q", got)
	}
	body := field(r, "body_html").(string)
	if !strings.Contains(body, "Dear Ada Lovelace") || strings.Contains(body, "<script") || !strings.Contains(body, `href="#unsubscribe"`) {
		t.Fatalf("preview body = %q", body)
	}
	r = s.do(http.MethodPost, "/api/seller/email-marketing/campaigns/preview", token, map[string]any{"subject": "{{firstname}}", "body_html": "<p>x</p>"})
	if r.status != http.StatusUnprocessableEntity || r.body.Errors[0].Field != "subject" || !strings.Contains(r.body.Message, "{{firstname}}") {
		t.Fatalf("preview of an unknown field = %d %s", r.status, r.raw)
	}
}

// waitCampaign polls the campaign until it is status or the deadline passes.
func (s *stack) waitCampaign(token string, id int64, status string) reply {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := s.do(http.MethodGet, fmt.Sprintf("/api/seller/email-marketing/campaigns/%d", id), token, nil)
		if field(r, "status") == status {
			return r
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("campaign %d never reached %s: %s", id, status, r.raw)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestCampaignTestSendAndSendThroughTheWorker(t *testing.T) {
	s, token, store, sender := newCampaignStack(t)
	s.startSendWorker()
	if r := s.importCSV(token, store, "email\na@x.test\nb@x.test\nc@x.test\nd@x.test\n"); r.status != http.StatusOK {
		t.Fatalf("import = %d %s", r.status, r.raw)
	}
	if _, err := s.app.DB.Exec(`UPDATE email_subscribers SET status = 'unsubscribed' WHERE email = 'd@x.test'`); err != nil {
		t.Fatal(err)
	}
	r := s.do(http.MethodPost, "/api/seller/email-marketing/campaigns", token, map[string]any{
		"store_id": store, "sender_id": sender, "name": "Spring", "subject": "Spring sale", "preheader": "20% off",
		"body_html": `<p>Hello</p><p><a href="{{unsubscribe_url}}">Leave</a></p>`})
	if r.status != http.StatusCreated {
		t.Fatalf("create = %d %s", r.status, r.raw)
	}
	id := int64(field(r, "id").(float64))
	path := fmt.Sprintf("/api/seller/email-marketing/campaigns/%d", id)

	r = s.do(http.MethodPut, path, token, map[string]any{"sender_id": sender, "name": "Spring 2", "subject": "Spring sale!", "body_html": `<p>Hello again</p><p><a href="{{unsubscribe_url}}">Leave</a></p>`})
	if r.status != http.StatusOK || field(r, "name") != "Spring 2" || field(r, "sender_email") != "news@mail.sams-print-shop.pressroom.local" {
		t.Fatalf("update = %d %s", r.status, r.raw)
	}
	if r := s.do(http.MethodPost, path+"/test", token, map[string]any{"email": "not an address"}); r.status != http.StatusUnprocessableEntity {
		t.Fatalf("test to a bad address = %d %s", r.status, r.raw)
	}
	if r := s.do(http.MethodPost, path+"/test", token, map[string]any{"email": "me@x.test"}); r.status != http.StatusAccepted {
		t.Fatalf("test = %d %s", r.status, r.raw)
	}
	r = s.do(http.MethodPost, path+"/send", token, map[string]any{})
	if r.status != http.StatusAccepted || field(r, "recipients") != float64(3) {
		t.Fatalf("send = %d %s", r.status, r.raw)
	}
	r = s.waitCampaign(token, id, tasks.EmailSent)
	if field(r, "sent") != float64(3) || field(r, "failed") != float64(0) || field(r, "sender_email") != "Sam's Shop <news@mail.sams-print-shop.pressroom.local>" {
		t.Fatalf("sent campaign = %s", r.raw)
	}
	var mails []struct {
		To      string `db:"to_address"`
		Subject string `db:"subject"`
		Body    string `db:"body"`
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(mails) < 4 && time.Now().Before(deadline) {
		mails = mails[:0]
		if err := s.app.DB.Select(&mails, `SELECT to_address, subject, body FROM mail_outbox WHERE subject LIKE '%Spring sale!' ORDER BY to_address`); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	got := []string{}
	for _, m := range mails {
		got = append(got, m.To+" "+m.Subject)
	}
	if want := "a@x.test Spring sale!,b@x.test Spring sale!,c@x.test Spring sale!,me@x.test [Test] Spring sale!"; strings.Join(got, ",") != want {
		t.Fatalf("outbox = %v, want %s", got, want)
	}

	if r := s.do(http.MethodPut, path, token, map[string]any{"sender_id": sender, "name": "x", "subject": "x", "body_html": "<p>x</p>"}); r.status != http.StatusConflict || r.body.Message != emailmarketing.MsgCampaignNotDraft {
		t.Fatalf("update after send = %d %s", r.status, r.raw)
	}
	if r := s.do(http.MethodDelete, path, token, nil); r.status != http.StatusConflict {
		t.Fatalf("delete after send = %d %s", r.status, r.raw)
	}
	if r := s.do(http.MethodGet, "/api/seller/email-marketing/campaigns?status=sent&q=spring", token, nil); r.status != http.StatusOK || len(r.body.Data.([]any)) != 1 {
		t.Fatalf("list = %d %s", r.status, r.raw)
	}

	// The link in a's mail unsubscribes a, without an account.
	link := mails[0].Body[strings.Index(mails[0].Body, tasks.UnsubscribePath):]
	link = strings.TrimSuffix(link, ")")
	if r := s.do(http.MethodGet, link, "", nil); r.status != http.StatusOK || r.body.Message != emailmarketing.MsgUnsubscribeDone {
		t.Fatalf("unsubscribe link %s = %d %s", link, r.status, r.raw)
	}
	var status string
	if err := s.app.DB.Get(&status, `SELECT status FROM email_subscribers WHERE email = 'a@x.test'`); err != nil || status != "unsubscribed" {
		t.Fatalf("a is %q (%v) after the link", status, err)
	}
	if r := s.do(http.MethodGet, tasks.UnsubscribePath+"test", "", nil); r.status != http.StatusNotFound {
		t.Fatalf("the test mail's link = %d %s", r.status, r.raw)
	}
}

func TestCampaignDraftDeleteAndNoRecipients(t *testing.T) {
	s, token, store, sender := newCampaignStack(t)
	r := s.do(http.MethodPost, "/api/seller/email-marketing/campaigns", token, map[string]any{
		"store_id": store, "sender_id": sender, "name": "Empty", "subject": "Nobody", "body_html": "<p>Hi</p>"})
	id := int64(field(r, "id").(float64))
	path := fmt.Sprintf("/api/seller/email-marketing/campaigns/%d", id)
	if r := s.do(http.MethodPost, path+"/send", token, map[string]any{}); r.status != http.StatusUnprocessableEntity || r.body.Message != emailmarketing.MsgCampaignNoRecipients {
		t.Fatalf("send without subscribers = %d %s", r.status, r.raw)
	}
	if r := s.do(http.MethodDelete, path, token, nil); r.status != http.StatusOK {
		t.Fatalf("delete = %d %s", r.status, r.raw)
	}
	if r := s.do(http.MethodGet, path, token, nil); r.status != http.StatusNotFound || r.body.Message != emailmarketing.MsgCampaignNotFound {
		t.Fatalf("get deleted = %d %s", r.status, r.raw)
	}
}

func TestAbandonedCheckoutEmailsAndCoupon(t *testing.T) {
	s, token, store, _ := newCampaignStack(t)
	path := fmt.Sprintf("/api/seller/store/%d/email-marketing-abandoned", store)
	r := s.do(http.MethodGet, path, token, nil)
	if r.status != http.StatusOK || len(field(r, "emails").([]any)) != 3 || field(r, "coupon_code") != "" {
		t.Fatalf("GET = %d %s", r.status, r.raw)
	}
	email := func(step int, enabled bool, delay int, subject, body string) map[string]any {
		return map[string]any{"step": step, "enabled": enabled, "delay_minutes": delay, "subject": subject, "body_html": body}
	}
	tests := []struct {
		name, field, message string
		emails               []map[string]any
	}{
		{"two emails", "emails", emailmarketing.MsgAbandonedSteps, []map[string]any{email(1, false, 60, "", ""), email(2, false, 60, "", "")}},
		{"enabled without subject", "emails.1.subject", emailmarketing.MsgAbandonedSubject,
			[]map[string]any{email(1, true, 60, "", "<p>x</p>"), email(2, false, 60, "", ""), email(3, false, 60, "", "")}},
		{"delay too long", "emails.3.delay_minutes", emailmarketing.MsgAbandonedDelay,
			[]map[string]any{email(1, false, 60, "", ""), email(2, false, 60, "", ""), email(3, false, 20000, "", "")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.do(http.MethodPut, path, token, map[string]any{"emails": tt.emails})
			if r.status != http.StatusUnprocessableEntity || r.body.Errors[0].Field != tt.field || r.body.Message != tt.message {
				t.Fatalf("PUT = %d %s", r.status, r.raw)
			}
		})
	}
	r = s.do(http.MethodPut, path, token, map[string]any{"emails": []map[string]any{
		email(2, true, 1440, "Still thinking?", "<p>Your cart</p>"), email(1, true, 30, "Forgot something?", "<p>Come back</p>"), email(3, false, 4320, "", "")}})
	if r.status != http.StatusOK {
		t.Fatalf("PUT = %d %s", r.status, r.raw)
	}
	first := field(r, "emails").([]any)[0].(map[string]any)
	if first["subject"] != "Forgot something?" || first["delay_minutes"] != float64(30) || !strings.Contains(first["body_html"].(string), tasks.UnsubscribePlaceholder) {
		t.Fatalf("saved = %s", r.raw)
	}

	r = s.do(http.MethodGet, fmt.Sprintf("/api/seller/store/%d/discount_code?q=save", store), token, nil)
	if r.status != http.StatusOK || len(r.body.Data.([]any)) != 1 || r.body.Data.([]any)[0].(map[string]any)["code"] != "SAVE20" {
		t.Fatalf("search = %d %s", r.status, r.raw)
	}
	if r := s.do(http.MethodPut, "/api/seller/abandoned_discount", token, map[string]any{"store_id": store, "config": map[string]any{"coupon": "NOPE"}}); r.status != http.StatusUnprocessableEntity || r.body.Message != emailmarketing.MsgCouponNotFound {
		t.Fatalf("unknown coupon = %d %s", r.status, r.raw)
	}
	if r := s.do(http.MethodPut, "/api/seller/abandoned_discount", token, map[string]any{"store_id": store, "config": map[string]any{"coupon": "save20"}}); r.status != http.StatusOK {
		t.Fatalf("coupon = %d %s", r.status, r.raw)
	}
	if r := s.do(http.MethodGet, path, token, nil); field(r, "coupon_code") != "SAVE20" {
		t.Fatalf("GET after coupon = %s", r.raw)
	}
}
