package app

import (
	"strconv"
	"testing"

	"github.com/pressroom/pressroom/bff/team"
)

func TestTeamInviteAcceptSetRemove(t *testing.T) {
	s := newStack(t)
	seller := s.mint("seller@example.com", "own", "", false)
	s.addUser("newbie@example.com", []string{"staff"}, []string{}, true, false)
	newbie := s.mint("newbie@example.com", "own", "", false)

	if r := s.do("POST", "/api/team/invitations", seller, map[string]any{"email": "newbie@example.com", "permissions": []string{"get_orders", "fly"}}); r.status != 422 || r.body.Message != team.MsgBadPermission {
		t.Fatalf("unknown permission: %d %s", r.status, r.raw)
	}
	r := s.do("POST", "/api/team/invitations", seller, map[string]any{"email": "newbie@example.com", "permissions": []string{"get_orders"}})
	if r.status != 200 || r.body.Message != team.MsgInvited {
		t.Fatalf("invite: %d %s", r.status, r.raw)
	}
	id := strconv.Itoa(int(r.body.Data.(map[string]any)["id"].(float64)))
	if r := s.do("POST", "/api/team/invitations", seller, map[string]any{"email": "NEWBIE@example.com"}); r.status != 422 || r.body.Message != team.MsgAlreadyInvited {
		t.Fatalf("second invitation: %d %s", r.status, r.raw)
	}
	if subject, _, _ := s.lastMailNoLink("newbie@example.com"); subject != "Sam Seller invited you to their Pressroom team" {
		t.Fatalf("invitation mail subject %q", subject)
	}
	// Someone else cannot accept it; the invited account can.
	if r := s.do("POST", "/api/team/invitations/"+id+"/accept", s.mint("team@example.com", "own", "", false), nil); r.status != 403 {
		t.Fatalf("stranger accepts: %d %s", r.status, r.raw)
	}
	r = s.do("GET", "/api/team/invitations/received", newbie, nil)
	if r.status != 200 || len(r.body.Data.([]any)) != 1 {
		t.Fatalf("received: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", "/api/team/invitations/"+id+"/accept", newbie, nil); r.status != 200 {
		t.Fatalf("accept: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", "/api/team/invitations/"+id+"/accept", newbie, nil); r.status != 404 {
		t.Fatalf("accept twice: %d %s", r.status, r.raw)
	}
	r = s.do("GET", "/api/team/members", seller, nil)
	members := r.body.Data.([]any)
	var newbieID string
	for _, m := range members {
		if m := m.(map[string]any); m["email"] == "newbie@example.com" {
			newbieID = strconv.Itoa(int(m["id"].(float64)))
		}
	}
	if r.status != 200 || len(members) != 3 || newbieID == "" {
		t.Fatalf("members: %d %s", r.status, r.raw)
	}
	// The new member switches in with the invitation's permissions; changes apply at once.
	var sellerID int64
	s.app.DB.Get(&sellerID, `SELECT id FROM users WHERE email = 'seller@example.com'`)
	switched := accessToken(t, s.do("POST", "/api/seller/switch-account", newbie, map[string]any{"seller_id": sellerID}))
	if r := s.do("GET", "/api/seller/orders", switched, nil); r.status != 200 {
		t.Fatalf("orders with get_orders: %d", r.status)
	}
	if r := s.do("GET", "/api/team/members", switched, nil); r.status != 403 {
		t.Fatalf("a switched member manages the team: %d", r.status)
	}
	if r := s.do("PUT", "/api/team/members/"+newbieID, seller, map[string]any{"permissions": []string{"get_campaigns"}}); r.status != 200 {
		t.Fatalf("set permissions: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", "/api/seller/orders", switched, nil); r.status != 403 {
		t.Fatalf("orders without get_orders: %d", r.status)
	}
	if r := s.do("DELETE", "/api/team/members/"+newbieID, seller, nil); r.status != 200 {
		t.Fatalf("remove: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", "/api/me", switched, nil); r.status != 401 {
		t.Fatalf("a removed member's switched session: %d", r.status)
	}
	if r := s.do("DELETE", "/api/team/members/"+newbieID, seller, nil); r.status != 404 {
		t.Fatalf("remove twice: %d", r.status)
	}
}

// lastMailNoLink returns the newest outbox message to addr.
func (s *stack) lastMailNoLink(addr string) (subject, body string, err error) {
	var m struct {
		Subject string `db:"subject"`
		Body    string `db:"body"`
	}
	err = s.app.DB.Get(&m, `SELECT subject, body FROM mail_outbox WHERE to_address = $1 ORDER BY id DESC LIMIT 1`, addr)
	return m.Subject, m.Body, err
}
