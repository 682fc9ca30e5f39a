package imageproxy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/bff/app"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/imageproxy"
	"github.com/pressroom/pressroom/bff/seed"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/testinfra"
)

// TestRoutesInTheApp drives the routes as mounted in the real bff: signing needs a session, the
// proxy does not, and a signed address naming loopback is still refused at the dial.
func TestRoutesInTheApp(t *testing.T) {
	db, dbURL := testinfra.Postgres(t)
	db.Close()
	redisAddr, redisDB := testinfra.Redis(t)
	cfg, err := app.LoadConfig(env.Map(map[string]string{
		"PRESSROOM_ENV": "test", "PRESSROOM_DATABASE_URL": dbURL, "PRESSROOM_REDIS_ADDR": redisAddr,
		"PRESSROOM_REDIS_DB": strconv.Itoa(redisDB), "PRESSROOM_UI_DIR": t.TempDir(), "PRESSROOM_BCRYPT_COST": "10",
		"PRESSROOM_BLOB_DIR": t.TempDir(), "PRESSROOM_IMAGE_PROXY_ACCOUNT_RATE": "2", "PRESSROOM_IMAGE_PROXY_CLIENT_RATE": "3",
	}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := app.New(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	store, err := blob.New(cfg.Blob, false)
	if err != nil {
		t.Fatal(err)
	}
	box, err := cfg.Seal.PaymentBox()
	if err != nil {
		t.Fatal(err)
	}
	if err := seed.Run(ctx, seed.Deps{DB: a.DB, Store: store, Env: cfg.Env, BcryptCost: cfg.Auth.BcryptCost, Box: box}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.Echo)
	t.Cleanup(srv.Close)

	do := func(method, path, token string, body any) (int, envelope.Response) {
		t.Helper()
		var b []byte
		if body != nil {
			b, _ = json.Marshal(body)
		}
		req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var env envelope.Response
		json.NewDecoder(resp.Body).Decode(&env)
		return resp.StatusCode, env
	}
	status, login := do("POST", "/api/auth/seller/login", "", map[string]string{"email": "seller@example.com", "password": seed.DemoPassword})
	if status != 200 {
		t.Fatalf("login: %d %+v", status, login)
	}
	session, _ := login.Data.(map[string]any)["access_token"].(string)

	var signed string
	steps := []struct {
		name   string
		run    func() (int, envelope.Response)
		status int
		msg    string
	}{
		{"sign needs a session", func() (int, envelope.Response) {
			return do("POST", imageproxy.SignPath, "", map[string]string{"url": "http://localhost/a.png"})
		}, 401, envelope.MsgUnauthenticated},
		{"sign with a session", func() (int, envelope.Response) {
			st, r := do("POST", imageproxy.SignPath, session, map[string]string{"url": "http://localhost/a.png"})
			if d, ok := r.Data.(map[string]any); ok {
				signed, _ = d["url"].(string)
			}
			return st, r
		}, 200, ""},
		{"session token is no proxy token", func() (int, envelope.Response) {
			return do("GET", imageproxy.Path+"?url=http%3A%2F%2Flocalhost%2Fa.png&token="+session, "", nil)
		}, 403, imageproxy.MsgBadToken},
		{"signed loopback name refused at the dial, no session needed", func() (int, envelope.Response) {
			if !strings.HasPrefix(signed, imageproxy.Path+"?") {
				t.Fatalf("signed url %q", signed)
			}
			return do("GET", signed+"&is_thumbnail=1", "", nil)
		}, 403, imageproxy.MsgForbiddenAddr},
		// PRESSROOM_IMAGE_PROXY_ACCOUNT_RATE=2, _CLIENT_RATE=3: the session's second signing is its last,
		// the client's third proxy request (refused or not, they count) its last.
		{"second signing", func() (int, envelope.Response) {
			return do("POST", imageproxy.SignPath, session, map[string]string{"url": "http://localhost/b.png"})
		}, 200, ""},
		{"third signing is over the account's rate", func() (int, envelope.Response) {
			return do("POST", imageproxy.SignPath, session, map[string]string{"url": "http://localhost/c.png"})
		}, 429, "Too many image requests. Please try again in "},
		{"third proxy request", func() (int, envelope.Response) {
			return do("GET", signed, "", nil)
		}, 403, imageproxy.MsgForbiddenAddr},
		{"fourth proxy request is over the client's rate", func() (int, envelope.Response) {
			res, err := srv.Client().Get(srv.URL + signed)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			if secs, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || secs < 1 || secs > 60 {
				t.Errorf("Retry-After %q, want the seconds left of the minute's window", res.Header.Get("Retry-After"))
			}
			var env envelope.Response
			json.NewDecoder(res.Body).Decode(&env)
			return res.StatusCode, env
		}, 429, "Too many image requests. Please try again in "},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			status, r := st.run()
			// A message ending in "in " goes on with the seconds to wait.
			if status != st.status || r.Message != st.msg && !(strings.HasSuffix(st.msg, " in ") && strings.HasPrefix(r.Message, st.msg)) {
				t.Fatalf("got %d %q, want %d %q", status, r.Message, st.status, st.msg)
			}
		})
	}
}
