package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/bff/notifications"
)

// userID is the id of the account with e-mail email.
func (s *stack) userID(email string) int64 {
	s.t.Helper()
	var id int64
	if err := s.app.DB.Get(&id, `SELECT id FROM users WHERE lower(email) = $1`, email); err != nil {
		s.t.Fatalf("user %s: %v", email, err)
	}
	return id
}

// notify posts a notification as the admin and returns its id.
func (s *stack) notify(admin string, body map[string]any) string {
	s.t.Helper()
	r := s.do("POST", "/api/admin/notifications", admin, body)
	if r.status != 200 || r.body.Message != notifications.MsgPosted {
		s.t.Fatalf("post notification %v: %d %s", body, r.status, r.raw)
	}
	return strconv.Itoa(int(r.body.Data.(map[string]any)["id"].(float64)))
}

// notificationPage is one page of GET /api/seller/notifications.
type notificationPage struct {
	Data        []map[string]any `json:"data"`
	Total       int              `json:"total"`
	PerPage     int              `json:"per_page"`
	CurrentPage int              `json:"current_page"`
	LastPage    int              `json:"last_page"`
}

func (s *stack) notificationPage(token, query string) notificationPage {
	s.t.Helper()
	r := s.do("GET", "/api/seller/notifications"+query, token, nil)
	if r.status != 200 {
		s.t.Fatalf("list notifications: %d %s", r.status, r.raw)
	}
	var p notificationPage
	if err := json.Unmarshal(r.raw, &p); err != nil {
		s.t.Fatal(err)
	}
	return p
}

// isNew is the is_new flag of notification id in token's first page, and whether it is listed at all.
func (s *stack) isNew(token, id string) (isNew, listed bool) {
	s.t.Helper()
	for _, n := range s.notificationPage(token, "").Data {
		if strconv.Itoa(int(n["id"].(float64))) == id {
			return n["is_new"].(bool), true
		}
	}
	return false, false
}

func (s *stack) bell(token string) (ids []string, unread int) {
	s.t.Helper()
	r := s.do("GET", "/api/seller/notifications/bell", token, nil)
	if r.status != 200 {
		s.t.Fatalf("bell: %d %s", r.status, r.raw)
	}
	data := r.body.Data.(map[string]any)
	for _, n := range data["notifications"].([]any) {
		ids = append(ids, strconv.Itoa(int(n.(map[string]any)["id"].(float64))))
	}
	return ids, int(data["unread_count"].(float64))
}

func (s *stack) popupIDs(token string) []string {
	s.t.Helper()
	r := s.do("GET", "/api/seller/notifications/popup", token, nil)
	if r.status != 200 {
		s.t.Fatalf("popup: %d %s", r.status, r.raw)
	}
	ids := []string{}
	for _, n := range r.body.Data.([]any) {
		ids = append(ids, strconv.Itoa(int(n.(map[string]any)["id"].(float64))))
	}
	return ids
}

// notificationIDs are ids as the UI sends them: numbers.
func notificationIDs(ids ...string) []int64 {
	out := make([]int64, len(ids))
	for i, id := range ids {
		out[i], _ = strconv.ParseInt(id, 10, 64)
	}
	return out
}

func TestNotificationsPagingAndIsNewPerAccount(t *testing.T) {
	s := newStack(t)
	admin := s.mint("admin@example.com", "own", "", false)
	s.addUser("other-seller@example.com", []string{"seller"}, []string{}, true, false)
	seller := s.mint("seller@example.com", "own", "", false)
	other := s.mint("other-seller@example.com", "own", "", false)

	// The demo seller starts with its three seeded notifications (read in the test deployment).
	if p := s.notificationPage(seller, ""); p.Total != 3 {
		t.Fatalf("seeded notifications: %+v", p)
	}
	var posted []string
	for i := range 17 {
		posted = append(posted, s.notify(admin, map[string]any{"subject": fmt.Sprintf("Broadcast %d", i+1), "message": "<p>hello</p>"}))
	}
	p := s.notificationPage(seller, "")
	if p.Total != 20 || p.PerPage != 15 || p.LastPage != 2 || len(p.Data) != 15 || p.Data[0]["subject"] != "Broadcast 17" {
		t.Fatalf("first page: total %d per_page %d last %d len %d first %v", p.Total, p.PerPage, p.LastPage, len(p.Data), p.Data[0]["subject"])
	}
	if p := s.notificationPage(seller, "?page=2"); p.CurrentPage != 2 || len(p.Data) != 5 || p.Data[0]["subject"] != "Broadcast 2" {
		t.Fatalf("second page: %+v", p)
	}
	if p := s.notificationPage(other, "?per_page=5&page=4"); p.Total != 17 || len(p.Data) != 2 || p.LastPage != 4 {
		t.Fatalf("the other seller's last page: %+v", p)
	}

	// Reading is per account: the seller opens the newest, the other seller still has it new.
	newest := posted[len(posted)-1]
	if _, unread := s.bell(seller); unread != 17 {
		t.Fatalf("seller unread before = %d", unread)
	}
	r := s.do("GET", "/api/seller/notifications/"+newest, seller, nil)
	if r.status != 200 || r.body.Data.(map[string]any)["is_new"] != false {
		t.Fatalf("open: %d %s", r.status, r.raw)
	}
	if isNew, _ := s.isNew(seller, newest); isNew {
		t.Fatal("opened notification is still new for the seller")
	}
	if isNew, _ := s.isNew(other, newest); !isNew {
		t.Fatal("the seller's reading marked it read for the other seller")
	}
	bellIDs, unread := s.bell(seller)
	if unread != 16 || len(bellIDs) != notifications.BellLimit || bellIDs[0] != newest {
		t.Fatalf("bell after reading: %v unread %d", bellIDs, unread)
	}
	if r := s.do("GET", "/api/seller/notifications?per_page=500", seller, nil); r.status != 422 {
		t.Fatalf("per_page 500: %d", r.status)
	}
}

func TestNotificationsMeantForOneSeller(t *testing.T) {
	s := newStack(t)
	admin := s.mint("admin@example.com", "own", "", false)
	s.addUser("other-seller@example.com", []string{"seller"}, []string{}, true, false)
	seller := s.mint("seller@example.com", "own", "", false)
	other := s.mint("other-seller@example.com", "own", "", false)
	sellerID := s.userID("seller@example.com")

	mine := s.notify(admin, map[string]any{"seller_id": sellerID, "subject": "Only for Sam", "type": 2, "is_warning": true})
	everyone := s.notify(admin, map[string]any{"subject": "For everyone"})

	if _, listed := s.isNew(seller, mine); !listed {
		t.Fatal("the seller does not see its own notification")
	}
	if _, listed := s.isNew(other, mine); listed {
		t.Fatal("another seller sees the seller's notification")
	}
	if _, listed := s.isNew(other, everyone); !listed {
		t.Fatal("another seller misses the notification for every seller")
	}
	// "Every seller" means sellers: not the admin, a designer, or a team member in its own account.
	for _, email := range []string{"admin@example.com", "designer@example.com", "team@example.com"} {
		token := s.mint(email, "own", "", false)
		if p := s.notificationPage(token, ""); p.Total != 0 {
			t.Fatalf("%s lists %d notifications", email, p.Total)
		}
		if r := s.do("GET", "/api/seller/notifications/"+everyone, token, nil); r.status != 404 {
			t.Fatalf("%s opens the sellers' notification: %d", email, r.status)
		}
	}
	r := s.do("GET", "/api/seller/notifications/"+mine, other, nil)
	if r.status != 404 || r.body.Message != notifications.MsgNotFound {
		t.Fatalf("another seller opens it: %d %s", r.status, r.raw)
	}
	for _, path := range []string{"999999", "not-a-number"} {
		if r := s.do("GET", "/api/seller/notifications/"+path, seller, nil); r.status != 404 {
			t.Fatalf("%s: %d", path, r.status)
		}
	}
	// Reporting another seller's notification changes nothing.
	r = s.do("POST", "/api/seller/notifications/read-status", other, map[string]any{"notification_ids": notificationIDs(mine), "action": 1})
	if r.status != 200 || r.body.Data.(map[string]any)["updated"] != 0.0 {
		t.Fatalf("read-status of a foreign id: %d %s", r.status, r.raw)
	}
	var states int
	s.app.DB.Get(&states, `SELECT count(*) FROM notification_states WHERE notification_id = $1`, mine)
	if states != 0 {
		t.Fatalf("a foreign read-status wrote %d state rows", states)
	}
	got := s.do("GET", "/api/seller/notifications/"+mine, seller, nil).body.Data.(map[string]any)
	if got["subject"] != "Only for Sam" || got["type"] != 2.0 || got["is_warning"] != true || got["seller_id"] != float64(sellerID) {
		t.Fatalf("notification = %v", got)
	}
	if got := s.do("GET", "/api/seller/notifications/"+everyone, seller, nil).body.Data.(map[string]any); got["seller_id"] != nil {
		t.Fatalf("a notification for every seller has seller_id %v", got["seller_id"])
	}
}

func TestNotificationsMarkAllAndReadStatus(t *testing.T) {
	s := newStack(t)
	admin := s.mint("admin@example.com", "own", "", false)
	seller := s.mint("seller@example.com", "own", "", false)
	sellerID := s.userID("seller@example.com")

	regular := s.notify(admin, map[string]any{"seller_id": sellerID, "subject": "Regular"})
	once := s.notify(admin, map[string]any{"seller_id": sellerID, "subject": "Once", "type": 2})
	ticked := s.notify(admin, map[string]any{"seller_id": sellerID, "subject": "Ticked"})
	if got, want := s.popupIDs(seller), []string{ticked, once, regular}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("popup = %v, want %v", got, want)
	}

	invalid := []struct {
		name  string
		body  any
		field string
	}{
		{"no ids", map[string]any{"action": 1}, "notification_ids"},
		{"unknown action", map[string]any{"notification_ids": notificationIDs(regular), "action": 3}, "action"},
		{"too many ids", map[string]any{"notification_ids": make([]int, 101), "action": 2}, "notification_ids"},
	}
	for _, tt := range invalid {
		t.Run(tt.name, func(t *testing.T) {
			r := s.do("POST", "/api/seller/notifications/read-status", seller, tt.body)
			if r.status != 422 || r.body.Errors[0].Field != tt.field {
				t.Fatalf("%d %s", r.status, r.raw)
			}
		})
	}

	// Closing the popup: the ticked one with action 1, every shown type-2 one with action 2. The
	// type-1 notification reported seen stays; it comes back until read or ticked.
	if r := s.do("POST", "/api/seller/notifications/read-status", seller, map[string]any{"notification_ids": notificationIDs(ticked), "action": 1}); r.status != 200 {
		t.Fatalf("action 1: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", "/api/seller/notifications/read-status", seller, map[string]any{"notification_ids": notificationIDs(once, regular), "action": 2}); r.status != 200 || r.body.Data.(map[string]any)["updated"] != 2.0 {
		t.Fatalf("action 2: %d %s", r.status, r.raw)
	}
	if got := s.popupIDs(seller); len(got) != 1 || got[0] != regular {
		t.Fatalf("popup after closing = %v, want only %s", got, regular)
	}
	// Dismissing is not reading: all three are still new in the list and counted on the bell.
	if _, unread := s.bell(seller); unread != 3 {
		t.Fatalf("unread after the popup = %d", unread)
	}

	if r := s.do("PUT", "/api/seller/notifications", seller, map[string]any{}); r.status != 422 || r.body.Message != notifications.MsgMarkAllField {
		t.Fatalf("mark all without the flag: %d %s", r.status, r.raw)
	}
	r := s.do("PUT", "/api/seller/notifications", seller, map[string]any{"mark_all_as_read": true})
	if r.status != 200 || r.body.Message != notifications.MsgAllRead || r.body.Data.(map[string]any)["marked"] != 3.0 {
		t.Fatalf("mark all: %d %s", r.status, r.raw)
	}
	if _, unread := s.bell(seller); unread != 0 {
		t.Fatalf("unread after mark all = %d", unread)
	}
	if got := s.popupIDs(seller); len(got) != 0 {
		t.Fatalf("popup after mark all = %v", got)
	}
	for _, n := range s.notificationPage(seller, "").Data {
		if n["is_new"] != false {
			t.Fatalf("still new after mark all: %v", n)
		}
	}
	if r := s.do("PUT", "/api/seller/notifications", seller, map[string]any{"mark_all_as_read": true}); r.body.Data.(map[string]any)["marked"] != 0.0 {
		t.Fatalf("mark all twice: %s", r.raw)
	}
}

func TestNotificationsHTMLIsSanitized(t *testing.T) {
	s := newStack(t)
	admin := s.mint("admin@example.com", "own", "", false)
	seller := s.mint("seller@example.com", "own", "", false)
	sellerID := s.userID("seller@example.com")
	const hostile = `<p onclick="steal()">Hi <strong>there</strong><script>alert(1)</script>` +
		`<img src="x" onerror="alert(2)"><a href="javascript:alert(3)">x</a><a href="https://example.com/ok">ok</a></p>`

	posted := s.notify(admin, map[string]any{"seller_id": sellerID, "subject": "Posted", "message": hostile})
	var stored string
	s.app.DB.Get(&stored, `SELECT message FROM notifications WHERE id = $1`, posted)
	// A row written around Add (an import, an older policy) is cleaned on the way out too.
	var raw int64
	if err := s.app.DB.Get(&raw, `INSERT INTO notifications (seller_id, subject, message) VALUES ($1, 'Raw', $2) RETURNING id`, sellerID, hostile); err != nil {
		t.Fatal(err)
	}
	rawID := strconv.FormatInt(raw, 10)

	answers := map[string]string{"stored": stored}
	for _, id := range []string{posted, rawID} {
		answers["detail "+id] = string(s.do("GET", "/api/seller/notifications/"+id, seller, nil).raw)
	}
	answers["list"] = string(s.do("GET", "/api/seller/notifications", seller, nil).raw)
	answers["bell"] = string(s.do("GET", "/api/seller/notifications/bell", seller, nil).raw)
	for name, body := range answers {
		lower := strings.ToLower(body)
		for _, bad := range []string{"<script", "\\u003cscript", "onerror", "onclick", "javascript:"} {
			if strings.Contains(lower, bad) {
				t.Errorf("%s contains %q: %s", name, bad, body)
			}
		}
	}
	if !strings.Contains(stored, "<strong>there</strong>") || !strings.Contains(stored, `href="https://example.com/ok"`) {
		t.Fatalf("sanitizing lost the safe markup: %s", stored)
	}
}

func TestNotificationsOfTheSellerForTeamMembersAndAdmins(t *testing.T) {
	s := newStack(t)
	admin := s.mint("admin@example.com", "own", "", false)
	sellerID := s.userID("seller@example.com")
	id := s.notify(admin, map[string]any{"seller_id": sellerID, "subject": "For Sam's team"})

	// A team member in its own account does not see the seller's notification; switched in, it does.
	team := s.mint("team@example.com", "own", "", false)
	if _, listed := s.isNew(team, id); listed {
		t.Fatal("the team member's own account lists the seller's notification")
	}
	switched := accessToken(t, s.do("POST", "/api/seller/switch-account", team, map[string]any{"seller_id": sellerID}))
	if isNew, listed := s.isNew(switched, id); !listed || !isNew {
		t.Fatalf("switched team member: listed %v new %v", listed, isNew)
	}
	// An impersonating admin looks without marking it read for the seller.
	impersonating := s.mint("seller@example.com", "impersonation", "admin@example.com", false)
	if r := s.do("GET", "/api/seller/notifications/"+id, impersonating, nil); r.status != 200 || r.body.Data.(map[string]any)["is_new"] != true {
		t.Fatalf("impersonating admin opens it: %d %s", r.status, r.raw)
	}
	if isNew, _ := s.isNew(s.mint("seller@example.com", "own", "", false), id); !isNew {
		t.Fatal("the impersonating admin's look marked it read")
	}
	// The team member reads it for the seller.
	if r := s.do("GET", "/api/seller/notifications/"+id, switched, nil); r.status != 200 {
		t.Fatalf("switched team member opens it: %d %s", r.status, r.raw)
	}
	if isNew, _ := s.isNew(s.mint("seller@example.com", "own", "", false), id); isNew {
		t.Fatal("the team member's reading did not count for the seller's account")
	}
}

func TestAdminPostsNotifications(t *testing.T) {
	s := newStack(t)
	admin := s.mint("admin@example.com", "own", "", false)
	seller := s.mint("seller@example.com", "own", "", false)
	invalid := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"no subject", map[string]any{"subject": "  "}, "subject"},
		{"subject too long", map[string]any{"subject": strings.Repeat("x", notifications.MaxSubjectLength+1)}, "subject"},
		{"unknown type", map[string]any{"subject": "s", "type": 3}, "type"},
		{"script link", map[string]any{"subject": "s", "call_to_action_link": "javascript:alert(1)"}, "call_to_action_link"},
		{"protocol-relative link", map[string]any{"subject": "s", "call_to_action_link": "//evil.example/x"}, "call_to_action_link"},
		{"data image", map[string]any{"subject": "s", "image": "data:image/png;base64,AAAA"}, "image"},
		{"unknown seller", map[string]any{"subject": "s", "seller_id": 987654}, "seller_id"},
		{"a designer is no seller", map[string]any{"subject": "s", "seller_id": s.userID("designer@example.com")}, "seller_id"},
	}
	for _, tt := range invalid {
		t.Run(tt.name, func(t *testing.T) {
			r := s.do("POST", "/api/admin/notifications", admin, tt.body)
			if r.status != 422 || r.body.Errors[0].Field != tt.field {
				t.Fatalf("%d %s", r.status, r.raw)
			}
		})
	}
	if r := s.do("POST", "/api/admin/notifications", seller, map[string]any{"subject": "s"}); r.status != 403 {
		t.Fatalf("a seller posts: %d", r.status)
	}
	id := s.notify(admin, map[string]any{
		"subject": "  Payout delay  ", "message": "<p>Payouts run a day late.</p>", "image": "https://cdn.example.com/p.png",
		"call_to_action_link": "/payouts", "is_warning": true,
	})
	got := s.do("GET", "/api/seller/notifications/"+id, seller, nil).body.Data.(map[string]any)
	if got["subject"] != "Payout delay" || got["type"] != 1.0 || got["image"] != "https://cdn.example.com/p.png" ||
		got["call_to_action_link"] != "/payouts" || got["is_warning"] != true || got["created_at"] == "" {
		t.Fatalf("posted notification = %v", got)
	}
	var createdBy int64
	s.app.DB.Get(&createdBy, `SELECT created_by FROM notifications WHERE id = $1`, id)
	if createdBy != s.userID("admin@example.com") {
		t.Fatalf("created_by = %d", createdBy)
	}
}

// TestAddInsideATransaction is how other packages raise a notification: with their change, or not at all.
func TestAddInsideATransaction(t *testing.T) {
	s := newStack(t)
	ctx := context.Background()
	sellerID := s.userID("seller@example.com")
	for _, commit := range []bool{false, true} {
		tx, err := s.app.DB.BeginTxx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		subject := fmt.Sprintf("Print file rejected (commit %v)", commit)
		if _, err := notifications.Add(ctx, tx, notifications.Notification{SellerID: &sellerID, Subject: subject}); err != nil {
			t.Fatal(err)
		}
		if commit {
			err = tx.Commit()
		} else {
			err = tx.Rollback()
		}
		if err != nil {
			t.Fatal(err)
		}
		var n int
		s.app.DB.Get(&n, `SELECT count(*) FROM notifications WHERE subject = $1`, subject)
		if want := map[bool]int{false: 0, true: 1}[commit]; n != want {
			t.Fatalf("commit %v: %d rows, want %d", commit, n, want)
		}
	}
	missing := int64(987654)
	if _, err := notifications.Add(ctx, s.app.DB, notifications.Notification{SellerID: &missing, Subject: "x"}); !errors.Is(err, notifications.ErrInvalid) {
		t.Fatalf("unknown seller: %v", err)
	}
}

func TestSeedNotifications(t *testing.T) {
	s := newStack(t)
	seller := s.mint("seller@example.com", "own", "", false)
	check := func(wantNew bool) {
		t.Helper()
		p := s.notificationPage(seller, "")
		var once, warnings int
		for _, n := range p.Data {
			if n["type"] == 2.0 {
				once++
			}
			if n["is_warning"] == true {
				warnings++
			}
			if n["is_new"] != wantNew {
				t.Fatalf("is_new = %v, want %v: %v", n["is_new"], wantNew, n)
			}
		}
		if p.Total != 3 || once != 1 || warnings != 1 {
			t.Fatalf("seeded: total %d, type 2: %d, warnings: %d", p.Total, once, warnings)
		}
	}
	// The test deployment seeds them read, so other browser tests start without the popup.
	check(false)
	s.seed("test")
	check(false)
	// A development deployment greets the demo seller with them new.
	if _, err := s.app.DB.Exec(`DELETE FROM notifications`); err != nil {
		t.Fatal(err)
	}
	s.seed("development")
	check(true)
	if got := s.popupIDs(seller); len(got) != 3 {
		t.Fatalf("popup after the development seed = %v", got)
	}
}
