package app

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/featured"
	"github.com/pressroom/pressroom/bff/survey"
	"github.com/pressroom/pressroom/bff/tracking"
)

// tier is the account's tier and sale volume as stored.
func (s *stack) tier(email string) (tier int, saleVolume, facebook, phone string) {
	s.t.Helper()
	var row struct {
		Tier       int    `db:"tier"`
		SaleVolume string `db:"sale_volume"`
		Facebook   string `db:"facebook"`
		Phone      string `db:"phone"`
	}
	const q = `SELECT tier, COALESCE(sale_volume, '') AS sale_volume, facebook, phone FROM users WHERE lower(email) = $1`
	if err := s.app.DB.Get(&row, q, email); err != nil {
		s.t.Fatalf("tier of %s: %v", email, err)
	}
	return row.Tier, row.SaleVolume, row.Facebook, row.Phone
}

func TestSellerSurveyValidatesAndUpgradesToTier2Once(t *testing.T) {
	s := newStack(t)
	s.addUser("fresh@example.com", []string{"seller"}, []string{}, true, false)
	fresh := s.mint("fresh@example.com", "own", "", false)

	// The demo seller answered the survey in the seed.
	if tier, volume, _, _ := s.tier("seller@example.com"); tier != survey.TierSurveyed || volume != "300 - 600" {
		t.Fatalf("demo seller: tier %d volume %q", tier, volume)
	}

	refused := []struct {
		name string
		body map[string]string
		want []envelope.FieldError
	}{
		{"nothing", map[string]string{}, []envelope.FieldError{
			{Field: "sale_volume", Message: survey.MsgSaleVolumeEmpty}, {Field: "phone", Message: survey.MsgPhoneEmpty}}},
		{"volume off the list and a bad Facebook URL", map[string]string{"sale_volume": "100 - 150", "facebook": "https://example.com/me", "phone": "+1 555 010 9999"},
			[]envelope.FieldError{{Field: "sale_volume", Message: survey.MsgSaleVolumeBad}, {Field: "facebook", Message: survey.MsgBadFacebook}}},
		{"bad phone", map[string]string{"sale_volume": "2000+", "phone": "call me"}, []envelope.FieldError{{Field: "phone", Message: survey.MsgPhoneBad}}},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			r := s.do("POST", "/api/seller/survey", fresh, tc.body)
			if r.status != 422 || r.body.Message != survey.MsgCannotSave {
				t.Fatalf("got %d %s", r.status, r.raw)
			}
			if diff := cmp.Diff(tc.want, r.body.Errors); diff != "" {
				t.Fatalf("field errors (-want +got):\n%s", diff)
			}
		})
	}
	if tier, volume, _, _ := s.tier("fresh@example.com"); tier != survey.TierDefault || volume != "" {
		t.Fatalf("a refused survey changed the account: tier %d volume %q", tier, volume)
	}

	r := s.do("POST", "/api/seller/survey", fresh, map[string]string{"sale_volume": "150 - 300", "facebook": "https://www.Facebook.com/fresh.prints", "phone": " +1 (555) 010-2222 "})
	if r.status != 200 || r.body.Message != survey.MsgSaved {
		t.Fatalf("survey: %d %s", r.status, r.raw)
	}
	if diff := cmp.Diff(map[string]any{"tier": 2.0, "upgraded": true}, r.body.Data); diff != "" {
		t.Fatalf("first answer (-want +got):\n%s", diff)
	}
	tier, volume, facebook, phone := s.tier("fresh@example.com")
	if diff := cmp.Diff([]any{2, "150 - 300", "https://www.Facebook.com/fresh.prints", "+1 (555) 010-2222"}, []any{tier, volume, facebook, phone}); diff != "" {
		t.Fatalf("stored (-want +got):\n%s", diff)
	}
	if me := s.me(fresh); me["sale_volume"] != "150 - 300" || me["phone"] != "+1 (555) 010-2222" {
		t.Fatalf("me after the survey: %v", me)
	}

	// Once the phone and Facebook are on file they are no longer required and not overwritten;
	// the tier is not raised again.
	r = s.do("POST", "/api/seller/survey", fresh, map[string]string{"sale_volume": "2000+", "facebook": "https://facebook.com/someone.else", "phone": "+44 20 7946 0000"})
	if r.status != 200 || r.body.Data.(map[string]any)["upgraded"] != false {
		t.Fatalf("second survey: %d %s", r.status, r.raw)
	}
	tier, volume, facebook, phone = s.tier("fresh@example.com")
	if diff := cmp.Diff([]any{2, "2000+", "https://www.Facebook.com/fresh.prints", "+1 (555) 010-2222"}, []any{tier, volume, facebook, phone}); diff != "" {
		t.Fatalf("after the second survey (-want +got):\n%s", diff)
	}

	// Designers, admins and team members in their own accounts have no survey; a team member
	// switched into the seller's account may not answer for the seller.
	ok := map[string]string{"sale_volume": "50 - 100", "phone": "+1 555 010 3333"}
	for _, email := range []string{"designer@example.com", "admin@example.com", "team@example.com"} {
		if r := s.do("POST", "/api/seller/survey", s.mint(email, "own", "", false), ok); r.status != 422 || r.body.Message != survey.MsgNotForAccount {
			t.Fatalf("%s: %d %s", email, r.status, r.raw)
		}
	}
	if r := s.do("POST", "/api/seller/survey", s.mint("seller@example.com", "switched", "team@example.com", false), ok); r.status != 403 {
		t.Fatalf("switched team member: %d %s", r.status, r.raw)
	}
}

func TestFeaturedInfoIsPublicAndAdminsEditIt(t *testing.T) {
	s := newStack(t)
	admin := s.mint("admin@example.com", "own", "", false)
	list := func() []any {
		t.Helper()
		r := s.do("GET", "/api/public/featured-info", "", nil)
		if r.status != 200 {
			t.Fatalf("featured info: %d %s", r.status, r.raw)
		}
		return r.body.Data.([]any)
	}
	seeded := list()
	if len(seeded) != 2 || seeded[0].(map[string]any)["subject"] != "Launch your first campaign in ten minutes" {
		t.Fatalf("seeded articles: %v", seeded)
	}

	bad := s.do("POST", "/api/admin/featured-info", admin, map[string]any{"subject": " ", "link": "javascript:alert(1)", "banner": "//evil.example/x.png"})
	want := []envelope.FieldError{
		{Field: "subject", Message: featured.MsgSubjectRequired},
		{Field: "banner", Message: featured.MsgBadBanner},
		{Field: "link", Message: featured.MsgBadLink},
	}
	if diff := cmp.Diff(want, bad.body.Errors); bad.status != 422 || diff != "" {
		t.Fatalf("bad article: %d (-want +got):\n%s", bad.status, diff)
	}

	r := s.do("POST", "/api/admin/featured-info", admin, map[string]any{
		"subject": "Holiday cut-off dates", "content": `<p onclick="x()">Order by <b>Dec 15</b></p><script>alert(1)</script>`, "position": 0,
	})
	if r.status != 200 || r.body.Message != featured.MsgSaved {
		t.Fatalf("create: %d %s", r.status, r.raw)
	}
	created := r.body.Data.(map[string]any)
	if created["content"] != `<p>Order by <b>Dec 15</b></p>` {
		t.Fatalf("content not sanitized: %q", created["content"])
	}
	if first := list()[0].(map[string]any); first["subject"] != "Holiday cut-off dates" {
		t.Fatalf("position 0 should lead the carousel: %v", first)
	}

	id := int(created["id"].(float64))
	path := "/api/admin/featured-info/" + strconv.Itoa(id)
	if r := s.do("PUT", path, admin, map[string]any{"subject": "Holiday cut-off dates", "active": false}); r.status != 200 {
		t.Fatalf("deactivate: %d %s", r.status, r.raw)
	}
	if got := list(); len(got) != 2 {
		t.Fatalf("an inactive article is served: %v", got)
	}
	// An edit that does not send active keeps the article hidden.
	if r := s.do("PUT", path, admin, map[string]any{"subject": "Holiday cut-off dates, updated"}); r.status != 200 || r.body.Data.(map[string]any)["active"] != false {
		t.Fatalf("edit without active: %d %s", r.status, r.raw)
	}
	if got := list(); len(got) != 2 {
		t.Fatalf("an edit without active published a hidden article: %v", got)
	}
	if r := s.do("GET", "/api/admin/featured-info", admin, nil); r.status != 200 || len(r.body.Data.([]any)) != 3 {
		t.Fatalf("admin list: %d %s", r.status, r.raw)
	}
	if r := s.do("PUT", "/api/admin/featured-info/999999", admin, map[string]any{"subject": "Nope"}); r.status != 404 || r.body.Message != featured.MsgNotFound {
		t.Fatalf("missing article: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", "/api/admin/featured-info", s.mint("seller@example.com", "own", "", false), map[string]any{"subject": "x"}); r.status != 403 {
		t.Fatalf("seller creating an article: %d %s", r.status, r.raw)
	}
}

func TestUTMCampaignClickOncePerVisitorAndSubmitOncePerSeller(t *testing.T) {
	s := newStack(t)
	seller := s.mint("seller@example.com", "own", "", false)
	payload := map[string]any{
		"utm_campaign": "spring-launch",
		"query":        map[string]string{"utm_campaign": "spring-launch", "utm_source": "newsletter"},
		"client_info":  map[string]string{"browser": "Chrome", "device": "desktop", "os": "Linux", "visitor_id": "v-1", "tab_session_id": "t-1"},
	}
	recorded := func(r reply) bool {
		t.Helper()
		if r.status != 200 || r.body.Data.(map[string]any)["success"] != true {
			t.Fatalf("track: %d %s", r.status, r.raw)
		}
		return r.body.Data.(map[string]any)["recorded"].(bool)
	}
	ua := []string{"User-Agent", "pressroom-test/1.0", "X-Forwarded-For", "203.0.113.7"}
	if !recorded(s.do("POST", "/api/utm-campaign/track", "", payload, ua...)) {
		t.Fatal("first click not recorded")
	}
	if recorded(s.do("POST", "/api/utm-campaign/track", "", payload, ua...)) {
		t.Fatal("a second click of the same visitor was recorded")
	}
	if r := s.do("POST", "/api/seller/utm-campaign/track", "", payload); r.status != 401 {
		t.Fatalf("anonymous submit: %d %s", r.status, r.raw)
	}
	if !recorded(s.do("POST", "/api/seller/utm-campaign/track", seller, payload, ua...)) {
		t.Fatal("first submit not recorded")
	}
	if recorded(s.do("POST", "/api/seller/utm-campaign/track", seller, payload, ua...)) {
		t.Fatal("a resent submit was recorded twice")
	}
	if r := s.do("POST", "/api/utm-campaign/track", "", map[string]any{"utm_campaign": "  "}); r.status != 422 || r.body.Message != tracking.MsgCampaignRequired {
		t.Fatalf("empty campaign: %d %s", r.status, r.raw)
	}

	type row struct {
		Kind      string `db:"kind"`
		UserID    *int64 `db:"user_id"`
		Visitor   string `db:"visitor_id"`
		Tab       string `db:"tab_session_id"`
		Browser   string `db:"browser"`
		OS        string `db:"os"`
		UserAgent string `db:"user_agent"`
		Source    string `db:"source"`
	}
	var rows []row
	const q = `SELECT kind, user_id, visitor_id, tab_session_id, browser, os, user_agent, query->>'utm_source' AS source
FROM utm_campaign_tracks WHERE utm_campaign = 'spring-launch' ORDER BY id`
	if err := s.app.DB.Select(&rows, q); err != nil {
		t.Fatal(err)
	}
	sellerID := s.userID("seller@example.com")
	want := []row{
		{Kind: "click", Visitor: "v-1", Tab: "t-1", Browser: "Chrome", OS: "Linux", UserAgent: "pressroom-test/1.0", Source: "newsletter"},
		{Kind: "submit", UserID: &sellerID, Visitor: "v-1", Tab: "t-1", Browser: "Chrome", OS: "Linux", UserAgent: "pressroom-test/1.0", Source: "newsletter"},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Fatalf("tracks (-want +got):\n%s", diff)
	}
	// The stack trusts no proxy, so X-Forwarded-For is ignored and the peer address is kept.
	var ips []string
	if err := s.app.DB.Select(&ips, `SELECT ip FROM utm_campaign_tracks ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"127.0.0.1", "127.0.0.1"}, ips); diff != "" {
		t.Fatalf("recorded IPs (-want +got):\n%s", diff)
	}
}
