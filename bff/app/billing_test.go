package app

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pressroom/pressroom/bff/billing"
)

type billingSummary struct {
	Currency   string         `json:"currency"`
	Available  int64          `json:"available"`
	Held       int64          `json:"held"`
	Total      int64          `json:"total"`
	Paying     int64          `json:"paying"`
	PayoutMin  int64          `json:"payout_min"`
	OpenPayout map[string]any `json:"open_payout"`
}

func (s *stack) billing(token string) billingSummary {
	s.t.Helper()
	r := s.do("GET", "/api/seller/billing", token, nil)
	if r.status != 200 {
		s.t.Fatalf("billing: %d %s", r.status, r.raw)
	}
	var env struct {
		Data billingSummary `json:"data"`
	}
	if err := json.Unmarshal(r.raw, &env); err != nil {
		s.t.Fatal(err)
	}
	return env.Data
}

type transactionPage struct {
	Data []struct {
		ID          int64  `json:"id"`
		Type        string `json:"type"`
		Description string `json:"description"`
		Amount      int64  `json:"amount"`
		Held        int64  `json:"held"`
		Available   int64  `json:"available"`
		OrderID     *int64 `json:"order_id"`
	} `json:"data"`
	Total int `json:"total"`
}

func (s *stack) transactions(token, query string) transactionPage {
	s.t.Helper()
	r := s.do("GET", "/api/seller/billing/transactions?"+query, token, nil)
	if r.status != 200 {
		s.t.Fatalf("transactions %s: %d %s", query, r.status, r.raw)
	}
	var p transactionPage
	if err := json.Unmarshal(r.raw, &p); err != nil {
		s.t.Fatal(err)
	}
	return p
}

// fieldError is the first error's field and message of a refused call.
func fieldError(r reply) (string, string) {
	if len(r.body.Errors) == 0 {
		return "", r.body.Message
	}
	return r.body.Errors[0].Field, r.body.Errors[0].Message
}

// TestBillingAndPayouts follows a storefront order into the ledger: held when paid, available once
// an admin releases it, a payout requested (refused while one is open), approved and completed
// with a reference, each step in the transactions, the CSV and the seller's notifications; bad
// amounts are refused against their field, and the money is hidden from those without get_payments.
func TestBillingAndPayouts(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	admin := s.mint("admin@example.com", "own", "", false)
	sellerID := s.userID("seller@example.com")

	orderID, number := s.buy("buyer@example.com", "Ada Buyer", 2)
	sum := s.billing(seller)
	if sum.Held <= 0 || sum.Available != 0 || sum.Total != sum.Held || sum.Currency != "USD" {
		t.Fatalf("after a paid order: %+v", sum)
	}
	sales := s.transactions(seller, "type=sale")
	if sales.Total != 1 || sales.Data[0].Held != sum.Held || *sales.Data[0].OrderID != orderID ||
		!strings.HasPrefix(sales.Data[0].Description, "Order "+number+": sale $") {
		t.Fatalf("sale entry: %+v", sales)
	}
	if got := s.me(seller)["balance"]; got != float64(0) {
		t.Errorf("top bar balance while held: %v", got)
	}
	held := sum.Held

	if r := s.do("POST", fmt.Sprintf("/api/admin/ledger/orders/%d/release", orderID), seller, nil); r.status != 403 {
		t.Errorf("a seller releasing: %d", r.status)
	}
	if r := s.do("POST", fmt.Sprintf("/api/admin/ledger/orders/%d/release", orderID), admin, nil); r.status != 200 {
		t.Fatalf("release: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", fmt.Sprintf("/api/admin/ledger/orders/%d/release", orderID), admin, nil); r.status != 200 {
		t.Fatalf("release again (the same entry): %d %s", r.status, r.raw)
	}
	if sum = s.billing(seller); sum.Available != held || sum.Held != 0 {
		t.Fatalf("after the release: %+v", sum)
	}
	if got := s.me(seller)["balance"]; got != float64(held)/100 {
		t.Errorf("top bar balance %v, want %v", got, float64(held)/100)
	}

	adjust := map[string]any{"seller_email": "seller@example.com", "direction": "credit", "amount": "100.00", "reason": "Launch bonus"}
	for _, bad := range []struct {
		key, value, field string
	}{
		{"amount", "19.999", "amount"}, {"amount", "-5", "amount"}, {"amount", "0", "amount"}, {"amount", "99999999999", "amount"},
		{"currency", "XYZ", "currency"}, {"reason", " ", "reason"}, {"direction", "sideways", "direction"}, {"seller_email", "nobody@example.com", "seller_email"},
	} {
		body := map[string]any{}
		for k, v := range adjust {
			body[k] = v
		}
		body[bad.key] = bad.value
		r := s.do("POST", "/api/admin/ledger/adjustments", admin, body)
		if field, msg := fieldError(r); r.status != 422 || field != bad.field || msg == "" {
			t.Errorf("adjustment with %s %q: %d %s %s", bad.key, bad.value, r.status, field, msg)
		}
	}
	if r := s.do("POST", "/api/admin/ledger/adjustments", admin, adjust); r.status != 200 {
		t.Fatalf("adjustment: %d %s", r.status, r.raw)
	}
	if sum = s.billing(seller); sum.Available != held+10000 {
		t.Fatalf("after the adjustment: %+v", sum)
	}

	for _, bad := range []struct{ amount, want string }{
		{"12.345", "amount"}, {"abc", "amount"}, {"1.00", "amount"}, {fmt.Sprintf("%d.00", (sum.Available/100)+1), "amount"},
	} {
		r := s.do("POST", "/api/seller/payouts", seller, map[string]any{"amount": bad.amount})
		if field, msg := fieldError(r); r.status != 422 || field != bad.want {
			t.Errorf("payout of %q: %d %s %s", bad.amount, r.status, field, msg)
		}
	}
	// The seller changes their mind while the request is pending: the amount is available again.
	r := s.do("POST", "/api/seller/payouts", seller, map[string]any{"amount": "50.00"})
	if r.status != 200 || r.body.Data.(map[string]any)["withdrawable"] != true {
		t.Fatalf("payout to withdraw: %d %s", r.status, r.raw)
	}
	withdrawn := int64(r.body.Data.(map[string]any)["id"].(float64))
	for range 2 {
		r := s.do("POST", fmt.Sprintf("/api/seller/payouts/%d/withdraw", withdrawn), seller, nil)
		if r.status != 200 || r.body.Message != billing.MsgPayoutWithdrawn || r.body.Data.(map[string]any)["status"] != "cancelled" {
			t.Fatalf("withdraw: %d %s", r.status, r.raw)
		}
	}
	if r := s.do("POST", "/api/seller/payouts/999999/withdraw", seller, nil); r.status != 404 {
		t.Errorf("withdrawing an unknown payout: %d %s", r.status, r.raw)
	}
	if sum = s.billing(seller); sum.Paying != 0 || sum.Available != held+10000 || sum.OpenPayout != nil {
		t.Fatalf("after withdrawing: %+v", sum)
	}
	r = s.do("POST", "/api/seller/payouts", seller, map[string]any{"amount": "60.00"})
	if r.status != 200 {
		t.Fatalf("payout: %d %s", r.status, r.raw)
	}
	payoutID := int64(r.body.Data.(map[string]any)["id"].(float64))
	if r := s.do("POST", "/api/seller/payouts", seller, map[string]any{"amount": "55.00"}); r.status != 409 || r.body.Message != billing.MsgPayoutOpen {
		t.Errorf("second payout while one is open: %d %s", r.status, r.raw)
	}
	if sum = s.billing(seller); sum.Paying != 6000 || sum.Available != held+4000 || sum.OpenPayout == nil {
		t.Fatalf("with a payout open: %+v", sum)
	}

	if r := s.do("GET", "/api/admin/payouts?status=pending", seller, nil); r.status != 403 {
		t.Errorf("a seller listing payouts to process: %d", r.status)
	}
	if r := s.do("GET", "/api/admin/payouts?status=pending", admin, nil); r.status != 200 || !strings.Contains(string(r.raw), `"seller_email":"seller@example.com"`) {
		t.Errorf("admin payouts: %d %s", r.status, r.raw)
	}
	step := func(name string, body any) reply {
		return s.do("POST", fmt.Sprintf("/api/admin/payouts/%d/%s", payoutID, name), admin, body)
	}
	if r := step("complete", map[string]any{"reference": "WIRE-77"}); r.status != 409 {
		t.Errorf("complete before approval: %d %s", r.status, r.raw)
	}
	if r := step("approve", nil); r.status != 200 {
		t.Fatalf("approve: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", fmt.Sprintf("/api/seller/payouts/%d/withdraw", payoutID), seller, nil); r.status != 409 ||
		r.body.Message != "This payout can no longer be cancelled: the payout is processing." {
		t.Errorf("withdrawing a payout being processed: %d %s", r.status, r.raw)
	}
	if r := step("complete", map[string]any{"reference": " "}); r.status != 422 {
		t.Errorf("complete without reference: %d %s", r.status, r.raw)
	}
	for range 2 {
		if r := step("complete", map[string]any{"reference": "WIRE-77"}); r.status != 200 {
			t.Fatalf("complete: %d %s", r.status, r.raw)
		}
	}
	if r := s.do("POST", "/api/admin/payouts/999999/approve", admin, nil); r.status != 404 {
		t.Errorf("unknown payout: %d", r.status)
	}
	if sum = s.billing(seller); sum.Paying != 0 || sum.Available != held+4000 || sum.OpenPayout != nil {
		t.Fatalf("after the payout: %+v", sum)
	}
	if p := s.transactions(seller, "type=payout&date_range=today"); p.Total != 5 { // 2 for the withdrawn request
		t.Errorf("payout entries today: %+v", p)
	}
	if p := s.transactions(seller, "date_range=last_month"); p.Total != 0 {
		t.Errorf("entries last month: %+v", p)
	}
	all := s.transactions(seller, "")
	if all.Total != 8 { // sale, release, adjustment, payout requested and withdrawn, payout requested, approved, paid
		t.Errorf("%d entries: %+v", all.Total, all)
	}
	for _, q := range []string{"type=bonus", "date_range=forever", "from=2026-13-01"} {
		if r := s.do("GET", "/api/seller/billing/transactions?"+q, seller, nil); r.status != 422 {
			t.Errorf("%s: %d", q, r.status)
		}
	}
	var notes int
	if err := s.app.DB.Get(&notes, `SELECT count(*) FROM notifications WHERE seller_id = $1 AND call_to_action_link = '/payouts'`, sellerID); err != nil || notes != 4 { // two requests, an approval, a payment; none for the withdrawal, which the seller did
		t.Errorf("%d payout notifications (%v)", notes, err)
	}

	r = s.do("GET", "/api/seller/billing/transactions/export.csv", seller, nil)
	want := "billing-" + time.Now().UTC().Format(time.DateOnly) + ".csv"
	if r.status != 200 || !strings.Contains(r.header.Get("Content-Disposition"), want) {
		t.Fatalf("export: %d %s", r.status, r.header.Get("Content-Disposition"))
	}
	rows, err := csv.NewReader(strings.NewReader(string(r.raw))).ReadAll()
	if err != nil || len(rows) != 9 || rows[0][0] != "date" {
		t.Fatalf("csv: %v %q", err, rows)
	}
	if rows[1][1] != "payout" || rows[1][4] != "-60.00" || rows[1][11] != "WIRE-77" {
		t.Errorf("newest row %q", rows[1])
	}

	// Team members without get_payments see none of it.
	for _, member := range []string{"team@example.com", "support@example.com"} {
		token := s.switchInto(member)
		for _, call := range []struct{ method, path string }{
			{"GET", "/api/seller/billing"}, {"GET", "/api/seller/billing/transactions"},
			{"GET", "/api/seller/billing/transactions/export.csv"}, {"GET", "/api/seller/payouts"}, {"POST", "/api/seller/payouts"},
		} {
			if r := s.do(call.method, call.path, token, map[string]any{"amount": "50.00"}); r.status != 403 {
				t.Errorf("%s %s %s: %d", member, call.method, call.path, r.status)
			}
		}
	}
}
