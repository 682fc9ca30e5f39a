package app

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/pressroom/pressroom/bff/billing"
	"github.com/pressroom/pressroom/bff/paymentaccounts"
)

// accountReply is a payment account as the screens read it.
type accountReply struct {
	ID        int64             `json:"id"`
	Method    string            `json:"method"`
	Label     string            `json:"label"`
	Fields    map[string]string `json:"fields"`
	Status    string            `json:"status"`
	Note      string            `json:"status_note"`
	IsDefault bool              `json:"is_default"`
}

var confirmToken = regexp.MustCompile(`/settings/payment-account\?token=([A-Za-z0-9_-]+)`)

// confirmLink is the token of the newest confirmation link mailed to addr.
func (s *stack) confirmLink(addr string) string {
	s.t.Helper()
	var body string
	if err := s.app.DB.Get(&body, `SELECT body FROM mail_outbox WHERE to_address = $1 AND subject = 'Confirm your payment account'
		ORDER BY id DESC LIMIT 1`, addr); err != nil {
		s.t.Fatalf("no confirmation mail to %s: %v", addr, err)
	}
	m := confirmToken.FindStringSubmatch(body)
	if m == nil {
		s.t.Fatalf("the confirmation mail has no link: %s", body)
	}
	return m[1]
}

func (s *stack) paymentAccount(token string, id int64) accountReply {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/seller/payment-accounts/%d", id), token, nil)
	if r.status != 200 {
		s.t.Fatalf("account %d: %d %s", id, r.status, r.raw)
	}
	var a accountReply
	decode(s.t, r, &a)
	return a
}

// TestPaymentAccounts: accounts for every payout method with the fields each needs (each bad one a
// 422 naming it), sensitive fields sealed and masked, confirmed through the link mailed to the
// seller (8 concurrent confirmations change it once), one default, changes confirmed again,
// payouts only to valid accounts, admins reading the details (audited) and marking one invalid.
func TestPaymentAccounts(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	admin := s.login("admin", "admin@example.com")

	r := s.do("GET", "/api/seller/payment-accounts/methods", seller, nil)
	var methods []struct {
		Code   string `json:"code"`
		Fields []struct {
			Name      string `json:"name"`
			Sensitive bool   `json:"sensitive"`
		} `json:"fields"`
	}
	decode(t, r, &methods)
	if len(methods) != 5 || methods[0].Code != "bank" || methods[4].Code != "payoneer_vn" {
		t.Fatalf("methods: %s", r.raw)
	}

	bank := func() map[string]any {
		return map[string]any{"method": "bank", "fields": map[string]string{"holder_name": "Sam Seller", "bank_name": "Second Bank",
			"country": "de", "account_number": "DE89 3704 0044 0532 0130 00", "swift_code": "cobadeffxxx"}}
	}
	bad := []struct {
		name, field string
		body        map[string]any
	}{
		{"an unknown method", "method", map[string]any{"method": "paypal", "fields": map[string]string{}}},
		{"no holder", "fields.holder_name", func() map[string]any { b := bank(); b["fields"].(map[string]string)["holder_name"] = " "; return b }()},
		{"no account number", "fields.account_number", func() map[string]any {
			b := bank()
			delete(b["fields"].(map[string]string), "account_number")
			return b
		}()},
		{"an account number with signs", "fields.account_number", func() map[string]any {
			b := bank()
			b["fields"].(map[string]string)["account_number"] = "12/34#56"
			return b
		}()},
		{"a bad SWIFT code", "fields.swift_code", func() map[string]any { b := bank(); b["fields"].(map[string]string)["swift_code"] = "XYZ"; return b }()},
		{"an unknown country", "fields.country", func() map[string]any { b := bank(); b["fields"].(map[string]string)["country"] = "QQ"; return b }()},
		{"a field of another method", "fields.email", func() map[string]any { b := bank(); b["fields"].(map[string]string)["email"] = "a@b.c"; return b }()},
		{"a wallet without its e-mail", "fields.email", map[string]any{"method": "payoneer", "fields": map[string]string{"holder_name": "Sam"}}},
		{"a wallet with two e-mails", "fields.email", map[string]any{"method": "pingpong", "fields": map[string]string{"holder_name": "Sam", "email": "a@b.c, d@e.f"}}},
	}
	for _, b := range bad {
		r := s.do("POST", "/api/seller/payment-accounts", seller, b.body)
		if r.status != 422 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != b.field {
			t.Errorf("%s: %d %s", b.name, r.status, r.raw)
		}
	}

	r = s.do("POST", "/api/seller/payment-accounts", seller, bank())
	if r.status != 201 || r.body.Message != paymentaccounts.MsgAdded {
		t.Fatalf("add: %d %s", r.status, r.raw)
	}
	var a accountReply
	decode(t, r, &a)
	if a.Status != "new" || a.IsDefault || a.Fields["account_number"] != "••••••••3000" || a.Fields["country"] != "DE" ||
		a.Fields["swift_code"] != "COBADEFFXXX" || a.Label != "Bank transfer · Second Bank · ••••••••3000" {
		t.Fatalf("added: %+v", a)
	}
	var sealed []byte
	s.app.DB.Get(&sealed, `SELECT secrets_sealed FROM payment_accounts WHERE id = $1`, a.ID)
	if bytes.Contains(sealed, []byte("DE89370400440532013000")) || strings.Contains(string(r.raw), "DE89370400440532013000") {
		t.Fatal("the account number is stored or answered in the clear")
	}
	token := s.confirmLink("seller@example.com")

	// No payout to an account not confirmed yet.
	s.do("POST", "/api/admin/ledger/adjustments", admin, map[string]any{"seller_email": "seller@example.com", "direction": "credit",
		"amount": "200.00", "reason": "Test money"})
	if r := s.do("POST", "/api/seller/payouts", seller, map[string]any{"amount": "60.00", "payment_account_id": a.ID}); r.status != 422 ||
		r.body.Errors[0].Field != "payment_account_id" || r.body.Message != billing.MsgAccount {
		t.Errorf("a payout to a new account: %d %s", r.status, r.raw)
	}

	for name, tc := range map[string]struct{ token, msg string }{"no token": {"", paymentaccounts.MsgBadLink},
		"a made-up token": {"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG", paymentaccounts.MsgBadLink}} {
		if r := s.do("POST", "/api/seller/payment-accounts/confirm", seller, map[string]any{"token": tc.token}); r.status != 422 || r.body.Message != tc.msg {
			t.Errorf("%s: %d %s", name, r.status, r.raw)
		}
	}
	// Another seller cannot spend the link.
	if r := s.do("POST", "/api/seller/payment-accounts/confirm", s.login("seller", "veteran@example.com"), map[string]any{"token": token}); r.status != 422 {
		t.Errorf("another seller's confirmation: %d %s", r.status, r.raw)
	}
	var wg sync.WaitGroup
	messages := make(chan string, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := s.do("POST", "/api/seller/payment-accounts/confirm", seller, map[string]any{"token": token})
			if r.status != 200 {
				t.Errorf("confirm: %d %s", r.status, r.raw)
			}
			messages <- r.body.Message
		}()
	}
	wg.Wait()
	close(messages)
	confirmed := 0
	for m := range messages {
		if m == paymentaccounts.MsgConfirmed {
			confirmed++
		} else if m != paymentaccounts.MsgWasConfirmed {
			t.Errorf("confirm said %q", m)
		}
	}
	if confirmed != 1 || s.audited("payment_account.confirmed") != 1 {
		t.Errorf("8 concurrent confirmations: %d confirmed it, %d audited", confirmed, s.audited("payment_account.confirmed"))
	}
	if a = s.paymentAccount(seller, a.ID); a.Status != "valid" || a.IsDefault {
		t.Fatalf("confirmed (the demo account stays the default): %+v", a)
	}
	if r := s.do("POST", fmt.Sprintf("/api/seller/payment-accounts/%d/resend", a.ID), seller, nil); r.status != 409 {
		t.Errorf("resend for a confirmed account: %d", r.status)
	}

	// It becomes the default; payouts go to it unless told otherwise.
	if r := s.do("POST", fmt.Sprintf("/api/seller/payment-accounts/%d/default", a.ID), seller, nil); r.status != 200 {
		t.Fatalf("default: %d %s", r.status, r.raw)
	}
	var defaults int
	s.app.DB.Get(&defaults, `SELECT count(*) FROM payment_accounts WHERE is_default AND seller_id = $1`, s.userID("seller@example.com"))
	if defaults != 1 || !s.paymentAccount(seller, a.ID).IsDefault {
		t.Errorf("%d default accounts", defaults)
	}
	r = s.do("POST", "/api/seller/payouts", seller, map[string]any{"amount": "60.00"})
	if r.status != 200 || !strings.Contains(string(r.raw), `"payment_account_label":"Bank transfer · Second Bank · ••••••••3000"`) {
		t.Fatalf("payout to the default account: %d %s", r.status, r.raw)
	}
	if r := s.do("DELETE", fmt.Sprintf("/api/seller/payment-accounts/%d", a.ID), seller, nil); r.status != 409 || r.body.Message != paymentaccounts.MsgOpenPayout {
		t.Errorf("delete an account a payout goes to: %d %s", r.status, r.raw)
	}

	// A change, sent back with the masked number, is confirmed again; the old link no longer works.
	r = s.do("PUT", fmt.Sprintf("/api/seller/payment-accounts/%d", a.ID), seller, map[string]any{"method": "bank",
		"fields": map[string]string{"holder_name": "Sam Seller", "bank_name": "Third Bank", "country": "DE", "account_number": a.Fields["account_number"]}})
	if r.status != 200 || r.body.Message != paymentaccounts.MsgChanged {
		t.Fatalf("change: %d %s", r.status, r.raw)
	}
	if a = s.paymentAccount(seller, a.ID); a.Status != "new" || a.IsDefault || a.Fields["account_number"] != "••••••••3000" || a.Fields["swift_code"] != "" {
		t.Errorf("changed: %+v", a)
	}
	if r := s.do("POST", "/api/seller/payment-accounts/confirm", seller, map[string]any{"token": token}); r.status != 422 {
		t.Errorf("the link of before the change: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", fmt.Sprintf("/api/seller/payment-accounts/%d/resend", a.ID), seller, nil); r.status != 429 {
		t.Errorf("resend a moment after the change: %d", r.status)
	}
	s.app.DB.MustExec(`UPDATE payment_accounts SET confirm_expires_at = now() - interval '1 minute' WHERE id = $1`, a.ID)
	if r := s.do("POST", "/api/seller/payment-accounts/confirm", seller, map[string]any{"token": s.confirmLink("seller@example.com")}); r.status != 422 ||
		r.body.Message != paymentaccounts.MsgExpired {
		t.Errorf("an expired link: %d %s", r.status, r.raw)
	}

	// Admins read the details to pay (audited) and mark an account invalid, which the seller is told.
	var demo int64
	s.app.DB.Get(&demo, `SELECT id FROM payment_accounts WHERE label LIKE '%First Demo Bank%'`)
	r = s.do("GET", fmt.Sprintf("/api/admin/payment-accounts/%d", demo), admin, nil)
	if r.status != 200 || !strings.Contains(string(r.raw), `"account_number":"000123456789"`) || s.audited("payment_account.revealed") != 1 {
		t.Errorf("reveal: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", fmt.Sprintf("/api/admin/payment-accounts/%d", demo), seller, nil); r.status != 403 {
		t.Errorf("a seller reading the admin's view: %d", r.status)
	}
	if r := s.do("POST", fmt.Sprintf("/api/admin/payment-accounts/%d/invalidate", demo), admin, map[string]any{"reason": " "}); r.status != 422 {
		t.Errorf("invalidate without a reason: %d", r.status)
	}
	if r := s.do("POST", fmt.Sprintf("/api/admin/payment-accounts/%d/invalidate", demo), admin, map[string]any{"reason": "The bank returned the transfer."}); r.status != 200 {
		t.Fatalf("invalidate: %d %s", r.status, r.raw)
	}
	if got := s.paymentAccount(seller, demo); got.Status != "invalid" || got.Note != "The bank returned the transfer." {
		t.Errorf("invalidated: %+v", got)
	}
	var notes int
	s.app.DB.Get(&notes, `SELECT count(*) FROM notifications WHERE subject = 'Payment account invalid' AND seller_id = $1 AND is_warning`,
		s.userID("seller@example.com"))
	if notes != 1 {
		t.Errorf("%d notifications of the invalid account", notes)
	}

	// A team member needs update_payments.
	if r := s.do("GET", "/api/seller/payment-accounts", s.switchInto("team@example.com"), nil); r.status != 403 {
		t.Errorf("a team member without update_payments: %d", r.status)
	}
	s.app.DB.MustExec(`UPDATE team_members SET permissions = '{update_payments}' WHERE member_id = (SELECT id FROM users WHERE email = 'team@example.com')`)
	if r := s.do("GET", "/api/seller/payment-accounts", s.switchInto("team@example.com"), nil); r.status != 200 {
		t.Errorf("a team member with update_payments: %d %s", r.status, r.raw)
	}
}
