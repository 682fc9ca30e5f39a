package klaviyo_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pressroom/pressroom/platform/klaviyo"
	"github.com/pressroom/pressroom/platform/klaviyo/klaviyotest"
)

func newClient(t *testing.T, base, key string) *klaviyo.Client {
	t.Helper()
	c, err := klaviyo.New(base, key, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Backoff = time.Millisecond
	return c
}

func TestGetListChecksKeyAndList(t *testing.T) {
	fake := klaviyotest.New(t, "pk_good", "L1")
	tests := []struct {
		name, key, list string
		wantErr         string
	}{
		{"good key and list", "pk_good", "L1", ""},
		{"wrong key", "pk_bad", "L1", klaviyotest.MsgBadKey},
		{"unknown list", "pk_good", "L2", "A list with id L2 does not exist."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := newClient(t, fake.URL, tt.key).GetList(context.Background(), tt.list)
			if tt.wantErr == "" {
				if err != nil || l.ID != tt.list {
					t.Fatalf("GetList = %+v, %v", l, err)
				}
				return
			}
			var apiErr *klaviyo.APIError
			if !errors.As(err, &apiErr) || apiErr.Message != tt.wantErr || !errors.Is(err, klaviyo.ErrRefused) {
				t.Fatalf("GetList error = %v, want a refusal saying %q", err, tt.wantErr)
			}
		})
	}
}

func TestImportProfilesWaitsOutRateLimits(t *testing.T) {
	fake := klaviyotest.New(t, "pk_good", "L1")
	fake.RateLimitEvery = 2
	c := newClient(t, fake.URL, "pk_good")
	for i := range 3 {
		p := []klaviyo.Profile{{Email: "a@example.com"}, {Email: string(rune('b'+i)) + "@example.com", FirstName: "B"}}
		if _, err := c.ImportProfiles(context.Background(), "L1", p); err != nil {
			t.Fatalf("import %d: %v", i, err)
		}
	}
	if s := fake.Stats(); s.Imports != 3 || s.RateLimited < 2 || s.Profiles != 4 {
		t.Fatalf("fake saw %+v, want 3 imports after at least 2 rate limits, 4 profiles", s)
	}
}

func TestServerErrorsAreRetriedThenReported(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) < 3 {
			http.Error(w, `{"errors":[{"detail":"try later"}]}`, http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte(`{"data":{"type":"list","id":"L1","attributes":{"name":"News"}}}`))
	}))
	defer srv.Close()
	c := newClient(t, srv.URL, "k")
	if l, err := c.GetList(context.Background(), "L1"); err != nil || l.Name != "News" {
		t.Fatalf("GetList after two 503s = %+v, %v", l, err)
	}
	c.Attempts = 2
	calls.Store(0)
	_, err := c.GetList(context.Background(), "L1")
	var apiErr *klaviyo.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusServiceUnavailable || errors.Is(err, klaviyo.ErrRefused) {
		t.Fatalf("GetList with 2 attempts = %v, want the 503 (not a refusal)", err)
	}
}
