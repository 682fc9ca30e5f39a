package app

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
)

// renderTasks is how many tasks wait on the renderer's interactive queue.
func (s *stack) renderTasks() int {
	s.t.Helper()
	insp := asynq.NewInspector(s.cfg.Queue.RedisOpt())
	defer insp.Close()
	info, err := insp.GetQueueInfo(queue.Name(queue.Renderer, queue.Interactive))
	if err != nil {
		if strings.Contains(err.Error(), "does not exist") {
			return 0
		}
		s.t.Fatal(err)
	}
	return info.Size
}

// fileStatus GETs /api/files/{key} with the caller's bearer token, or with the UI's token cookie
// as an <img> sends it when cookie is set, without following the redirect.
func (s *stack) fileStatus(key, token string, cookie bool) int {
	s.t.Helper()
	req, _ := http.NewRequest("GET", s.srv.URL+"/api/files/"+key, nil)
	switch {
	case token != "" && cookie:
		req.AddCookie(&http.Cookie{Name: auth.TokenCookie, Value: "Bearer%20" + token})
	case token != "":
		req.Header.Set("Authorization", "Bearer "+token)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestDraftMockupsAreNotPublic: a draft campaign's mockups are served to its seller (bearer or
// cookie), the seller's team member with the campaign read permission, designers and admins;
// to anyone else they do not exist. Once the campaign is published (active) they are public.
func TestDraftMockupsAreNotPublic(t *testing.T) {
	s := newStack(t)
	store := s.blobStore()
	ctx := context.Background()
	var sellerID int64
	s.app.DB.Get(&sellerID, `SELECT id FROM users WHERE email = 'seller@example.com'`)
	var campaignID int64
	if err := s.app.DB.Get(&campaignID, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'Draft') RETURNING id`, sellerID); err != nil {
		t.Fatal(err)
	}
	key := blob.MockupKey(campaignID, 3, 4)
	if err := store.Put(ctx, key, strings.NewReader("mockup"), 6, "image/png"); err != nil {
		t.Fatal(err)
	}
	s.addUser("other@example.com", []string{"seller"}, []string{}, true, false)
	seller := s.mint("seller@example.com", "own", "", false)
	callers := []struct {
		name   string
		token  string
		cookie bool
		draft  int
	}{
		{"anonymous", "", false, 404},
		{"another seller", s.mint("other@example.com", "own", "", false), false, 404},
		{"the seller", seller, false, 302},
		{"the seller by cookie, as an img", seller, true, 302},
		{"the seller's team member", s.mint("seller@example.com", "switched", "team@example.com", false), false, 302},
		{"a designer", s.login("admin", "designer@example.com"), false, 302},
		{"an admin", s.login("admin", "admin@example.com"), false, 302},
	}
	for _, c := range callers {
		if got := s.fileStatus(key, c.token, c.cookie); got != c.draft {
			t.Errorf("%s reads a draft's mockup: %d, want %d", c.name, got, c.draft)
		}
		if c.draft != 404 {
			continue
		}
		if got := s.fileStatus(key+"?variant=thumb", c.token, c.cookie); got != 404 {
			t.Errorf("%s asks for a draft mockup's variant: %d, want 404", c.name, got)
		}
	}
	if n := s.renderTasks(); n != 0 {
		t.Fatalf("refused variant requests queued %d render tasks", n)
	}
	for _, k := range []string{"p/999999/design_1_2.png", "p/x/design_1_2.png"} {
		if got := s.fileStatus(k, seller, false); got != 404 {
			t.Errorf("mockup of no campaign %s: %d, want 404", k, got)
		}
	}
	if _, err := s.app.DB.Exec(`UPDATE campaigns SET status = 'active' WHERE id = $1`, campaignID); err != nil {
		t.Fatal(err)
	}
	if got := s.fileStatus(key, "", false); got != 302 {
		t.Errorf("anonymous reads a published campaign's mockup: %d, want 302", got)
	}
}

// TestVariantsOfMissingFilesQueueNothing: a valid-looking key with no file behind it answers 404
// without queuing a render, and requests for variants still to make are limited per client.
func TestVariantsOfMissingFilesQueueNothing(t *testing.T) {
	s := newStackWith(t, map[string]string{"PRESSROOM_VARIANT_PER_MINUTE": "2", "PRESSROOM_VARIANT_WAIT": "200ms"})
	store := s.blobStore()
	ctx := context.Background()
	var sellerID, campaignID int64
	s.app.DB.Get(&sellerID, `SELECT id FROM users WHERE email = 'seller@example.com'`)
	if err := s.app.DB.Get(&campaignID, `INSERT INTO campaigns (user_id, name, status) VALUES ($1, 'Live', 'active') RETURNING id`, sellerID); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{blob.MockupKey(campaignID, 9, 9), "mockup-templates/none/photo.png"} {
		for range 3 {
			if got := s.fileStatus(k+"?variant=thumb", "", false); got != 404 {
				t.Errorf("variant of missing %s: %d, want 404", k, got)
			}
		}
	}
	if n := s.renderTasks(); n != 0 {
		t.Fatalf("variants of missing files queued %d render tasks", n)
	}
	// Stored mockups: each variant still to make queues a render (no renderer runs here, so the
	// wait ends in 503), until the client's minute is used up.
	statuses := []int{}
	for i := range 3 {
		k := blob.MockupKey(campaignID, int64(i), 1)
		if err := store.Put(ctx, k, strings.NewReader("png"), 3, "image/png"); err != nil {
			t.Fatal(err)
		}
		statuses = append(statuses, s.fileStatus(k+"?variant=thumb", "", false))
	}
	if statuses[0] != 503 || statuses[1] != 503 || statuses[2] != 429 {
		t.Fatalf("variant statuses = %v, want [503 503 429]", statuses)
	}
	if n := s.renderTasks(); n != 2 {
		t.Fatalf("%d render tasks queued, want 2 (the limited request queues none)", n)
	}
}
