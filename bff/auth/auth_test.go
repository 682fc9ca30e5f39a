package auth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/redis/go-redis/v9"

	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/publicurl"
	"github.com/pressroom/pressroom/platform/testinfra"
)

// server is the auth routes on a real echo server, Postgres and the given Redis client.
func server(t *testing.T, cfg auth.Config, rdb *redis.Client, log *slog.Logger) (*httptest.Server, *auth.Service) {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	mailer, err := mail.New(mail.DefaultConfig(), db)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := auth.NewService(cfg, db, rdb, mailer, log)
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	e.HTTPErrorHandler = envelope.ErrorHandler(log)
	e.IPExtractor = echo.ExtractIPFromXFFHeader()
	auth.Routes(e.Group("/api"), svc)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv, svc
}

func testRedis(t *testing.T) *redis.Client {
	t.Helper()
	addr, n := testinfra.Redis(t)
	rdb := redis.NewClient(&redis.Options{Addr: addr, DB: n})
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

func post(t testing.TB, url string, body any) (int, envelope.Response) {
	t.Helper()
	b, _ := json.Marshal(body)
	res, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Error(err)
		return 0, envelope.Response{}
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var env envelope.Response
	json.Unmarshal(raw, &env)
	return res.StatusCode, env
}

func testConfig() auth.Config {
	cfg := auth.DefaultConfig()
	cfg.BcryptCost = 10
	cfg.Public = publicurl.Config{URL: "http://127.0.0.1"}
	return cfg
}

// A bogus reset link costs no hashing, however many arrive at once, and the calls are throttled.
func TestBogusResetsNeverHash(t *testing.T) {
	cfg := testConfig()
	cfg.CallsPerClient = 20
	srv, svc := server(t, cfg, testRedis(t), slog.New(slog.DiscardHandler))
	before := auth.HashRuns(svc)
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		counts = map[int]int{}
	)
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, env := post(t, srv.URL+"/api/auth/reset-password", map[string]string{
				"token": "bogus-" + strconv.Itoa(i), "password": "long-enough-1", "password_confirmation": "long-enough-1",
			})
			if status == 422 && env.Message != auth.MsgBadResetLink {
				t.Errorf("bogus link answered %q", env.Message)
			}
			mu.Lock()
			counts[status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if counts[422] != 20 || counts[429] != 10 {
		t.Fatalf("30 parallel bogus resets from one client: %v, want 20 refused links (422) and 10 throttled (429)", counts)
	}
	if n := auth.HashRuns(svc) - before; n != 0 {
		t.Fatalf("bogus resets ran bcrypt %d times", n)
	}
}

// countingHandler counts the records logged at level Error.
type countingHandler struct {
	slog.Handler
	errors *atomic.Int64
}

func (h countingHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h countingHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level == slog.LevelError {
		h.errors.Add(1)
	}
	return nil
}

// While Redis is down, sign-in answers 503 with a clear message, and the outage is logged once.
func TestRedisDownAnswers503AndLogsOnce(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	t.Cleanup(func() { rdb.Close() })
	var logged atomic.Int64
	srv, _ := server(t, testConfig(), rdb, slog.New(countingHandler{Handler: slog.DiscardHandler, errors: &logged}))
	for range 5 {
		status, env := post(t, srv.URL+"/api/auth/seller/login", map[string]string{"email": "a@example.com", "password": "whatever-1"})
		if status != 503 || env.Message != auth.MsgSignInUnavailable {
			t.Fatalf("login without Redis: %d %q", status, env.Message)
		}
	}
	if n := logged.Load(); n != 1 {
		t.Fatalf("the outage was logged %d times, want once", n)
	}
	if !strings.Contains(auth.MsgSignInUnavailable, "briefly unavailable") {
		t.Fatal("the message must say sign-in is briefly unavailable")
	}
}

// BenchmarkMe measures GET /api/me through a real echo server on Postgres and Redis: the session and
// caller lookups every request makes.
func BenchmarkMe(b *testing.B) {
	addr, n := testinfra.Redis(b)
	rdb := redis.NewClient(&redis.Options{Addr: addr, DB: n})
	b.Cleanup(func() { rdb.Close() })
	db, _ := testinfra.Postgres(b)
	mailer, err := mail.New(mail.DefaultConfig(), db)
	if err != nil {
		b.Fatal(err)
	}
	cfg := testConfig()
	svc, err := auth.NewService(cfg, db, rdb, mailer, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	e := echo.New()
	e.HTTPErrorHandler = envelope.ErrorHandler(slog.New(slog.DiscardHandler))
	auth.Routes(e.Group("/api"), svc)
	srv := httptest.NewServer(e)
	b.Cleanup(srv.Close)

	hash, _ := auth.HashPassword("long-enough-1", 10)
	db.MustExec(`INSERT INTO users (name, email, password_hash, roles, status, email_verified_at) VALUES ('Bench', 'bench@example.com', $1, '{seller}', 'verified', now())`, hash)
	status, env := post(b, srv.URL+"/api/auth/seller/login", map[string]string{"email": "bench@example.com", "password": "long-enough-1"})
	if status != 200 {
		b.Fatalf("login: %d %v", status, env)
	}
	token := env.Data.(map[string]any)["access_token"].(string)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r, _ := http.NewRequest("GET", srv.URL+"/api/me", nil)
			r.Header.Set("Authorization", "Bearer "+token)
			res, err := client.Do(r)
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				b.Errorf("me: %d", res.StatusCode)
				return
			}
		}
	})
}
