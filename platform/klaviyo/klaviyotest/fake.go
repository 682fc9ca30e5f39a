// Package klaviyotest is a fake Klaviyo API for tests: an httptest server that checks what real
// Klaviyo checks of Pressroom's calls (the private-key authorization, the revision header, the
// JSON:API payload shape), keeps the profiles and list members it was sent, and answers 429 with
// Retry-After on a schedule so callers' rate-limit handling is exercised.
package klaviyotest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/pressroom/pressroom/platform/klaviyo"
)

// MsgBadKey is the detail the fake answers for an unknown private key.
const MsgBadKey = "Missing or invalid private key."

// Profile is a profile the fake holds.
type Profile struct {
	Email     string `json:"email"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
}

// Server is the fake. Set its fields before the calls start.
type Server struct {
	*httptest.Server
	t testing.TB
	// Key is the one private key accepted.
	Key string
	// Lists are the list ids that exist.
	Lists []string
	// RateLimitEvery answers every n-th import request with 429 and Retry-After: 0 (0: never).
	RateLimitEvery int
	// AfterImport, when set, runs after each accepted import with the count of accepted imports.
	AfterImport func(n int)
	// HoldAt holds the n-th import (1-based; 0: none) until Release is closed or the caller gives
	// up; an import abandoned by its caller is not recorded.
	HoldAt  int
	Release chan struct{}

	mu       sync.Mutex
	profiles map[string]Profile
	members  map[string]map[string]bool
	imports  int
	requests int
	limited  int
}

// New starts a fake accepting key and holding lists; it stops with the test.
func New(t testing.TB, key string, lists ...string) *Server {
	s := &Server{t: t, Key: key, Lists: lists, Release: make(chan struct{}), profiles: map[string]Profile{}, members: map[string]map[string]bool{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

type apiError struct {
	Status int    `json:"status"`
	Code   string `json:"code"`
	Title  string `json:"title"`
	Detail string `json:"detail"`
}

func answerError(w http.ResponseWriter, status int, code, title, detail string) {
	w.Header().Set("Content-Type", "application/vnd.api+json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"errors": []apiError{{Status: status, Code: code, Title: title, Detail: detail}}})
}

func (s *Server) violation(w http.ResponseWriter, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.t.Errorf("fake klaviyo: %s", msg)
	answerError(w, http.StatusBadRequest, "invalid", "Invalid input.", msg)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	if got := r.Header.Get("revision"); got != klaviyo.Revision {
		s.violation(w, "revision header %q, want %q", got, klaviyo.Revision)
		return
	}
	if !strings.Contains(r.Header.Get("Accept"), "json") {
		s.violation(w, "Accept header %q", r.Header.Get("Accept"))
		return
	}
	if r.Header.Get("Authorization") != "Klaviyo-API-Key "+s.Key {
		answerError(w, http.StatusUnauthorized, "not_authenticated", "Authentication credentials were not provided.", MsgBadKey)
		return
	}
	switch {
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/lists/"):
		id := strings.Trim(strings.TrimPrefix(r.URL.Path, "/api/lists/"), "/")
		if !s.hasList(id) {
			answerError(w, http.StatusNotFound, "not_found", "Not found.", fmt.Sprintf("A list with id %s does not exist.", id))
			return
		}
		w.Header().Set("Content-Type", "application/vnd.api+json")
		json.NewEncoder(w).Encode(map[string]any{"data": map[string]any{"type": "list", "id": id, "attributes": map[string]any{"name": "List " + id}}})
	case r.Method == http.MethodPost && r.URL.Path == "/api/profile-bulk-import-jobs/":
		s.importJob(w, r)
	default:
		s.violation(w, "unexpected call %s %s", r.Method, r.URL.Path)
	}
}

func (s *Server) hasList(id string) bool {
	for _, l := range s.Lists {
		if l == id {
			return true
		}
	}
	return false
}

func (s *Server) importJob(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/vnd.api+json") {
		s.violation(w, "Content-Type %q", r.Header.Get("Content-Type"))
		return
	}
	if s.RateLimitEvery > 0 && (s.imports+s.limited+1)%s.RateLimitEvery == 0 {
		s.limited++
		w.Header().Set("Retry-After", "0")
		answerError(w, http.StatusTooManyRequests, "throttled", "Request was throttled.", "Request was throttled. Expected available in 0 seconds.")
		return
	}
	var body struct {
		Data struct {
			Type       string `json:"type"`
			Attributes struct {
				Profiles struct {
					Data []struct {
						Type       string  `json:"type"`
						Attributes Profile `json:"attributes"`
					} `json:"data"`
				} `json:"profiles"`
			} `json:"attributes"`
			Relationships struct {
				Lists struct {
					Data []struct {
						Type string `json:"type"`
						ID   string `json:"id"`
					} `json:"data"`
				} `json:"lists"`
			} `json:"relationships"`
		} `json:"data"`
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		s.violation(w, "payload: %v", err)
		return
	}
	d := body.Data
	if d.Type != "profile-bulk-import-job" || len(d.Attributes.Profiles.Data) == 0 || len(d.Relationships.Lists.Data) != 1 ||
		d.Relationships.Lists.Data[0].Type != "list" {
		s.violation(w, "payload shape: %+v", d)
		return
	}
	if s.HoldAt > 0 && s.imports+1 == s.HoldAt {
		s.mu.Unlock()
		select {
		case <-s.Release:
		case <-r.Context().Done():
		}
		s.mu.Lock()
		if r.Context().Err() != nil {
			return
		}
	}
	list := d.Relationships.Lists.Data[0].ID
	if !s.hasList(list) {
		answerError(w, http.StatusNotFound, "not_found", "Not found.", fmt.Sprintf("A list with id %s does not exist.", list))
		return
	}
	for _, p := range d.Attributes.Profiles.Data {
		if p.Type != "profile" || !strings.Contains(p.Attributes.Email, "@") {
			s.violation(w, "profile %+v", p)
			return
		}
	}
	for _, p := range d.Attributes.Profiles.Data {
		email := strings.ToLower(p.Attributes.Email)
		s.profiles[email] = p.Attributes
		if s.members[list] == nil {
			s.members[list] = map[string]bool{}
		}
		s.members[list][email] = true
	}
	s.imports++
	w.Header().Set("Content-Type", "application/vnd.api+json")
	w.WriteHeader(http.StatusAccepted)
	json.NewEncoder(w).Encode(map[string]any{"data": map[string]any{"type": "profile-bulk-import-job",
		"id": fmt.Sprintf("job-%d", s.imports), "attributes": map[string]any{"status": "queued", "total_count": len(d.Attributes.Profiles.Data)}}})
	if s.AfterImport != nil {
		s.AfterImport(s.imports)
	}
}

// Stats are counts of what the fake saw.
type Stats struct {
	// Profiles is how many distinct profiles (by e-mail) it holds.
	Profiles int
	// Imports is how many import jobs it accepted; RateLimited how many it answered with 429.
	Imports, RateLimited int
}

// Stats reads the counts.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{Profiles: len(s.profiles), Imports: s.imports, RateLimited: s.limited}
}

// Members is how many profiles list holds.
func (s *Server) Members(list string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.members[list])
}
