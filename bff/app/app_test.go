package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/imageproxy"
	"github.com/pressroom/pressroom/bff/seed"
	"github.com/pressroom/pressroom/bff/system"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/renderer/demoseed"
)

// stack is the real bff on real Postgres and Redis, seeded with the demo data.
type stack struct {
	t   *testing.T
	app *App
	srv *httptest.Server
	cfg Config
}

func newStack(t *testing.T) *stack {
	t.Helper()
	return newStackWith(t, nil)
}

// newStackWith is newStack with extra PRESSROOM_* variables over the test defaults.
func newStackWith(t *testing.T, extra map[string]string) *stack {
	t.Helper()
	redisAddr, redisDB := testinfra.Redis(t)
	uiDir := t.TempDir()
	os.WriteFile(filepath.Join(uiDir, "index.html"), []byte("<!doctype html><title>Seller Dashboard</title>"), 0o644)
	os.MkdirAll(filepath.Join(uiDir, "assets"), 0o755)
	os.WriteFile(filepath.Join(uiDir, "assets", "app-1234.js"), []byte("console.log(1)"), 0o644)
	vars := map[string]string{
		"PRESSROOM_ENV": "test", "PRESSROOM_REDIS_ADDR": redisAddr,
		"PRESSROOM_REDIS_DB": strconv.Itoa(redisDB), "PRESSROOM_UI_DIR": uiDir, "PRESSROOM_BCRYPT_COST": "10",
		"PRESSROOM_BLOB_DIR": t.TempDir(),
		// Small limits keep the throttle tests short: every attempt costs a bcrypt comparison.
		"PRESSROOM_LOGIN_MAX_FAILURES_PER_ACCOUNT": "3", "PRESSROOM_LOGIN_MAX_FAILURES_PER_CLIENT": "6",
	}
	// The snapshot is seeded with the defaults, not with the extras of whichever test comes first.
	fill := fillDemo(maps.Clone(vars))
	maps.Copy(vars, extra)
	// A stack on the local blob store starts from a copy of the seeded demo (see demo); one on S3 seeds its own.
	copyDemo := vars["PRESSROOM_BLOB_BACKEND"] != blob.BackendS3
	if copyDemo {
		_, vars["PRESSROOM_DATABASE_URL"] = demo.db.Postgres(t, fill)
		if err := os.CopyFS(vars["PRESSROOM_BLOB_DIR"], os.DirFS(demo.blobs)); err != nil {
			t.Fatal(err)
		}
	} else {
		_, vars["PRESSROOM_DATABASE_URL"] = testinfra.Postgres(t)
	}
	cfg, err := LoadConfig(env.Map(vars))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := New(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	srv := httptest.NewServer(a.Echo)
	t.Cleanup(srv.Close)
	s := &stack{t: t, app: a, srv: srv, cfg: cfg}
	if !copyDemo {
		s.seed(cfg.Env)
	}
	return s
}

// demo is the seeded demo every local-blob stack starts from: `bff seed` and `renderer seed-demo` (seconds
// each under -race) run once per test process into a snapshot database and a blob folder, which each
// stack then copies.
var demo struct {
	db    testinfra.Snapshot
	blobs string // made by TestMain
}

// fillDemo seeds the snapshot as a stack with the variables vars (its own copy) would, its blobs into demo.blobs.
func fillDemo(vars map[string]string) func(db *sqlx.DB, dbURL string) error {
	return func(db *sqlx.DB, dbURL string) error {
		vars["PRESSROOM_DATABASE_URL"], vars["PRESSROOM_BLOB_DIR"] = dbURL, demo.blobs
		cfg, err := LoadConfig(env.Map(vars))
		if err != nil {
			return err
		}
		return seedDemo(db, cfg, cfg.Env)
	}
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pressroom-demo-blobs-")
	if err != nil {
		panic(err)
	}
	demo.blobs = dir
	code := m.Run()
	demo.db.Drop()
	os.RemoveAll(dir)
	os.Exit(code)
}

// seed runs the demo seed as `bff seed` and `renderer seed-demo` do in a deployment whose PRESSROOM_ENV is env.
func (s *stack) seed(env string) {
	s.t.Helper()
	if err := seedDemo(s.app.DB, s.cfg, env); err != nil {
		s.t.Fatal(err)
	}
}

// seedDemo runs the demo seed on db and cfg's blob store as `bff seed` and `renderer seed-demo` do in a
// deployment whose PRESSROOM_ENV is env.
func seedDemo(db *sqlx.DB, cfg Config, env string) error {
	store, err := blob.New(cfg.Blob, false)
	if err != nil {
		return err
	}
	box, err := cfg.Seal.PaymentBox()
	if err != nil {
		return err
	}
	ctx := context.Background()
	if err := seed.Run(ctx, seed.Deps{DB: db, Store: store, Env: env, BcryptCost: cfg.Auth.BcryptCost, Box: box}); err != nil {
		return err
	}
	// and its mockup templates, as `renderer seed-demo` does after it
	return demoseed.Run(ctx, db, store, 0)
}

// serve runs handlers (task type to handler) on a queue server of service, on the stack's Redis, with
// concurrency workers until the test ends.
func (s *stack) serve(service queue.Service, concurrency int, handlers map[string]asynq.Handler) {
	s.t.Helper()
	mux := asynq.NewServeMux()
	for typ, h := range handlers {
		mux.Handle(typ, h)
	}
	qcfg := s.cfg.Queue
	qcfg.ShutdownTimeout = time.Second
	srv := queue.NewServer(qcfg, service, concurrency, slog.New(slog.DiscardHandler))
	if err := srv.Start(mux); err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(srv.Shutdown)
}

type reply struct {
	status int
	header http.Header
	body   envelope.Response
	raw    []byte
}

func (s *stack) do(method, path, token string, body any, header ...string) reply {
	s.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.srv.URL+path, r)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := reply{status: res.StatusCode, header: res.Header, raw: raw}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &out.body); err != nil {
			s.t.Fatalf("%s %s: bad JSON %q", method, path, raw)
		}
	}
	return out
}

// postForm posts a multipart form as the pages do: the fields (name, value, ...) and, unless fileName is
// empty, the file as "file".
func (s *stack) postForm(path, token, fileName string, data []byte, fields ...string) reply {
	s.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for i := 0; i+1 < len(fields); i += 2 {
		mw.WriteField(fields[i], fields[i+1])
	}
	if fileName != "" {
		fw, _ := mw.CreateFormFile("file", fileName)
		fw.Write(data)
	}
	mw.Close()
	req, _ := http.NewRequest("POST", s.srv.URL+path, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := reply{status: res.StatusCode, header: res.Header, raw: raw}
	if err := json.Unmarshal(raw, &out.body); err != nil {
		s.t.Fatalf("POST %s: bad JSON %q", path, raw)
	}
	return out
}

func (s *stack) login(kind, email string) string {
	s.t.Helper()
	r := s.do("POST", "/api/auth/"+kind+"/login", "", map[string]string{"email": email, "password": seed.DemoPassword})
	if r.status != 200 {
		s.t.Fatalf("login %s: %d %s", email, r.status, r.raw)
	}
	data := r.body.Data.(map[string]any)
	token, _ := data["access_token"].(string)
	if len(token) < 43 || data["expires_in"].(float64) != 604800 {
		s.t.Fatalf("login data = %v", data)
	}
	return token
}

func TestLogin(t *testing.T) {
	s := newStack(t)
	tests := []struct {
		name        string
		kind        string
		body        any
		wantStatus  int
		wantMessage string
		wantField   string
	}{
		{name: "seller signs in", kind: "seller", body: map[string]string{"email": "seller@example.com", "password": seed.DemoPassword}, wantStatus: 200},
		{name: "e-mail is case-insensitive", kind: "seller", body: map[string]string{"email": "Seller@Example.com", "password": seed.DemoPassword}, wantStatus: 200},
		{name: "team member signs in as a seller", kind: "seller", body: map[string]string{"email": "team@example.com", "password": seed.DemoPassword}, wantStatus: 200},
		{name: "designer signs in through the admin login", kind: "admin", body: map[string]string{"email": "designer@example.com", "password": seed.DemoPassword}, wantStatus: 200},
		{name: "wrong password", kind: "seller", body: map[string]string{"email": "admin@example.com", "password": "nope-nope"},
			wantStatus: 401, wantMessage: auth.MsgBadCredentials, wantField: "email"},
		{name: "unknown account reads the same", kind: "seller", body: map[string]string{"email": "ghost@example.com", "password": "nope-nope"},
			wantStatus: 401, wantMessage: auth.MsgBadCredentials, wantField: "email"},
		{name: "designer on the seller login", kind: "seller", body: map[string]string{"email": "designer@example.com", "password": seed.DemoPassword},
			wantStatus: 403, wantMessage: auth.MsgUseAdminLogin},
		{name: "seller on the admin login", kind: "admin", body: map[string]string{"email": "seller@example.com", "password": seed.DemoPassword},
			wantStatus: 403, wantMessage: auth.MsgUseSellerLogin},
		{name: "missing e-mail", kind: "seller", body: map[string]string{"password": "x"},
			wantStatus: 422, wantMessage: "The email field is required.", wantField: "email"},
		{name: "malformed e-mail", kind: "seller", body: map[string]string{"email": "seller at example", "password": "x"},
			wantStatus: 422, wantMessage: "The email must be a valid email address.", wantField: "email"},
		{name: "missing password", kind: "seller", body: map[string]string{"email": "seller@example.com"},
			wantStatus: 422, wantMessage: "The password field is required.", wantField: "password"},
		{name: "not JSON", kind: "seller", body: "just a string",
			wantStatus: 400, wantMessage: "The request body is not valid JSON for this call."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.do("POST", "/api/auth/"+tt.kind+"/login", "", tt.body)
			if r.status != tt.wantStatus {
				t.Fatalf("status = %d, want %d: %s", r.status, tt.wantStatus, r.raw)
			}
			if r.body.Success != (tt.wantStatus == 200) {
				t.Fatalf("success = %v", r.body.Success)
			}
			if tt.wantMessage == "" {
				return
			}
			if r.body.Message != tt.wantMessage || r.body.Errors[0].Message != tt.wantMessage || r.body.Errors[0].Field != tt.wantField {
				t.Fatalf("body = %s", r.raw)
			}
		})
	}
}

func TestLoginThrottle(t *testing.T) {
	s := newStack(t)
	wrong := map[string]string{"email": "seller@example.com", "password": "wrong-password"}
	for i := range s.cfg.Auth.MaxFailuresPerAccount {
		if r := s.do("POST", "/api/auth/seller/login", "", wrong); r.status != 401 {
			t.Fatalf("attempt %d: status %d", i+1, r.status)
		}
	}
	// Even the right password is refused while the account is throttled.
	r := s.do("POST", "/api/auth/seller/login", "", map[string]string{"email": "seller@example.com", "password": seed.DemoPassword})
	if r.status != 429 || !strings.HasPrefix(r.body.Message, "Too many login attempts. Please try again in ") {
		t.Fatalf("throttled login: %d %s", r.status, r.raw)
	}
	if secs, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || secs < 1 || secs > 900 {
		t.Fatalf("Retry-After = %q", r.header.Get("Retry-After"))
	}
	// Another account from the same client is still allowed until the client's own limit.
	s.login("admin", "admin@example.com")
	var throttled int
	if err := s.app.DB.Get(&throttled, `SELECT count(*) FROM audit_events WHERE action = 'login.throttled'`); err != nil || throttled != 1 {
		t.Fatalf("throttle audit rows = %d, %v", throttled, err)
	}
}

func TestClientThrottle(t *testing.T) {
	s := newStack(t)
	for i := range s.cfg.Auth.MaxFailuresPerClient {
		email := "nobody" + strconv.Itoa(i) + "@example.com"
		if r := s.do("POST", "/api/auth/seller/login", "", map[string]string{"email": email, "password": "x"}); r.status != 401 {
			t.Fatalf("attempt %d: status %d", i+1, r.status)
		}
	}
	r := s.do("POST", "/api/auth/seller/login", "", map[string]string{"email": "seller@example.com", "password": seed.DemoPassword})
	if r.status != 429 {
		t.Fatalf("after %d failures from one client: status %d", s.cfg.Auth.MaxFailuresPerClient, r.status)
	}
}

func TestSession(t *testing.T) {
	s := newStack(t)
	token := s.login("seller", "seller@example.com")

	r := s.do("GET", "/api/me", token, nil)
	if r.status != 200 {
		t.Fatalf("me: %d %s", r.status, r.raw)
	}
	me := r.body.Data.(map[string]any)
	if me["email"] != "seller@example.com" || me["name"] != "Sam Seller" || me["status"] != "verified" {
		t.Fatalf("me = %v", me)
	}
	for _, field := range []string{"id", "avatar", "email_verified_at", "email_need_verify_date", "created_at", "balance",
		"account_balance", "roles", "tags", "permissions", "custom_payment", "is_ref", "access_user", "tfa_enable",
		"tfa_confirm", "utc_offset", "store_ids", "team_store_ids", "sms_credit"} {
		if _, ok := me[field]; !ok {
			t.Errorf("me has no %q", field)
		}
	}
	if ids := me["store_ids"].([]any); len(ids) != 1 {
		t.Errorf("store_ids = %v, want the seeded store", ids)
	}

	var stored []byte
	if err := s.app.DB.Get(&stored, `SELECT token_hash FROM sessions ORDER BY id DESC LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(stored, []byte(token)) || len(stored) != 32 {
		t.Fatalf("sessions must store a 32-byte hash, not the token")
	}

	if r := s.do("POST", "/api/auth/logout", token, nil); r.status != 200 || !r.body.Success {
		t.Fatalf("logout: %d %s", r.status, r.raw)
	}
	r = s.do("GET", "/api/me", token, nil)
	if r.status != 401 || r.body.Message != envelope.MsgUnauthenticated {
		t.Fatalf("revoked token: %d %s", r.status, r.raw)
	}
	for _, bad := range []string{"", "not-a-token", strings.Repeat("A", 43)} {
		if r := s.do("GET", "/api/me", bad, nil); r.status != 401 {
			t.Fatalf("token %q: status %d", bad, r.status)
		}
	}
	// An expired session is refused like a revoked one.
	other := s.login("seller", "seller@example.com")
	if _, err := s.app.DB.Exec(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE revoked_at IS NULL`); err != nil {
		t.Fatal(err)
	}
	if r := s.do("GET", "/api/me", other, nil); r.status != 401 {
		t.Fatalf("expired token: status %d", r.status)
	}
}

func TestQueueMonitorAccess(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	admin := s.login("admin", "admin@example.com")
	tests := []struct {
		name   string
		header []string
		want   int
	}{
		{name: "anonymous", want: 401},
		{name: "seller", header: []string{"Authorization", "Bearer " + seller}, want: 403},
		{name: "admin by bearer", header: []string{"Authorization", "Bearer " + admin}, want: 200},
		{name: "admin by the UI's cookie", header: []string{"Cookie", auth.TokenCookie + "=" + admin}, want: 200},
		{name: "seller by cookie", header: []string{"Cookie", auth.TokenCookie + "=" + seller}, want: 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if r := s.do("GET", "/admin/queues", "", nil, tt.header...); r.status != tt.want {
				t.Fatalf("status = %d, want %d", r.status, tt.want)
			}
		})
	}
	r := s.do("GET", "/admin/queues/api/queues", admin, nil)
	if r.status != 200 || !bytes.Contains(r.raw, []byte("queues")) {
		t.Fatalf("monitor API: %d %s", r.status, r.raw)
	}
	var denied int
	if err := s.app.DB.Get(&denied, `SELECT count(*) FROM audit_events WHERE action = 'permission.denied'`); err != nil || denied != 2 {
		t.Fatalf("permission.denied audit rows = %d, %v", denied, err)
	}
}

// The queue monitor takes the UI's cookie, which the browser sends whichever page asks: a
// state-changing request needs the bff's own Origin (or the Authorization header).
func TestQueueMonitorRefusesCrossOriginChanges(t *testing.T) {
	s := newStack(t)
	admin := s.login("admin", "admin@example.com")
	cookie := auth.TokenCookie + "=" + admin
	const queues = "/admin/queues/api/queues"
	// In order: had any refused request paused the queue, the accepted pause would answer 500
	// (already paused).
	tests := []struct {
		name         string
		method, path string
		header       []string
		want         int
	}{
		{"cookie from another site", "POST", queues + "/default:pause", []string{"Cookie", cookie, "Origin", "https://evil.example"}, 403},
		{"cookie from a look-alike host", "POST", queues + "/default:pause", []string{"Cookie", cookie, "Origin", s.srv.URL + ".evil.example"}, 403},
		{"cookie without Origin", "POST", queues + "/default:pause", []string{"Cookie", cookie}, 403},
		{"cookie with a null Origin", "DELETE", queues + "/default", []string{"Cookie", cookie, "Origin", "null"}, 403},
		{"cookie reads without Origin", "GET", queues, []string{"Cookie", cookie}, 200},
		{"cookie from the bff's own page", "POST", queues + "/default:pause", []string{"Cookie", cookie, "Origin", s.srv.URL}, 204},
		{"bearer token without Origin", "POST", queues + "/default:resume", []string{"Authorization", "Bearer " + admin}, 204},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.do(tt.method, tt.path, "", nil, tt.header...)
			if r.status != tt.want {
				t.Fatalf("status = %d, want %d: %s", r.status, tt.want, r.raw)
			}
			if tt.want == 403 && r.body.Message != system.MsgCrossOrigin {
				t.Fatalf("message = %q", r.body.Message)
			}
		})
	}
}

func TestPingIsEnqueued(t *testing.T) {
	s := newStack(t)
	admin := s.login("admin", "admin@example.com")
	if r := s.do("POST", "/api/admin/system/pings", s.login("seller", "seller@example.com"), nil); r.status != 403 {
		t.Fatalf("seller ping: %d", r.status)
	}
	if r := s.do("POST", "/api/admin/system/pings", admin, map[string]string{"service": "mailer"}); r.status != 422 {
		t.Fatalf("unknown service: %d %s", r.status, r.raw)
	}
	r := s.do("POST", "/api/admin/system/pings", admin, map[string]string{"service": "renderer"})
	if r.status != 202 {
		t.Fatalf("ping: %d %s", r.status, r.raw)
	}
	id := int64(r.body.Data.(map[string]any)["id"].(float64))

	var sent bool
	if err := s.app.DB.Get(&sent, `SELECT sent_at IS NOT NULL FROM task_outbox WHERE task_id = $1`, "ping-"+strconv.FormatInt(id, 10)); err != nil || !sent {
		t.Fatalf("outbox row sent = %v, %v", sent, err)
	}
	insp := asynq.NewInspector(s.cfg.Queue.RedisOpt())
	defer insp.Close()
	info, err := insp.GetTaskInfo(queue.Name(queue.Renderer, queue.Interactive), "ping-"+strconv.FormatInt(id, 10))
	if err != nil {
		t.Fatalf("task not in Redis: %v", err)
	}
	if info.Type != "system:ping" || info.State != asynq.TaskStatePending {
		t.Fatalf("task = %+v", info)
	}
	r = s.do("GET", "/api/admin/system/pings/"+strconv.FormatInt(id, 10), admin, nil)
	if r.status != 200 || r.body.Data.(map[string]any)["completed_at"] != nil {
		t.Fatalf("pending ping: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", "/api/admin/system/pings/999999", admin, nil); r.status != 404 {
		t.Fatalf("missing ping: %d", r.status)
	}
}

func TestHealthAndUI(t *testing.T) {
	s := newStack(t)
	tests := []struct {
		name, path  string
		wantStatus  int
		wantType    string
		wantContain string
		wantCache   string
	}{
		{name: "liveness", path: "/healthz", wantStatus: 200, wantType: "application/json", wantContain: `"status":"ok"`},
		{name: "readiness", path: "/readyz", wantStatus: 200, wantType: "application/json", wantContain: `"redis":"ok"`},
		{name: "root serves the app", path: "/", wantStatus: 200, wantType: "text/html", wantContain: "Seller Dashboard", wantCache: "no-cache"},
		{name: "client route falls back to the app", path: "/campaigns/edit/12", wantStatus: 200, wantType: "text/html", wantContain: "Seller Dashboard", wantCache: "no-cache"},
		{name: "hashed asset is cached", path: "/assets/app-1234.js", wantStatus: 200, wantContain: "console.log", wantCache: "public, max-age=31536000, immutable"},
		{name: "unknown API path is a JSON 404", path: "/api/nope", wantStatus: 404, wantType: "application/json", wantContain: envelope.MsgNotFound},
		{name: "path traversal stays inside the UI folder", path: "/../../etc/passwd", wantStatus: 200, wantType: "text/html", wantContain: "Seller Dashboard", wantCache: "no-cache"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.do("GET", tt.path, "", nil)
			if r.status != tt.wantStatus || !strings.HasPrefix(r.header.Get("Content-Type"), tt.wantType) ||
				!bytes.Contains(r.raw, []byte(tt.wantContain)) || r.header.Get("Cache-Control") != tt.wantCache {
				t.Fatalf("GET %s: %d %q cache %q: %s", tt.path, r.status, r.header.Get("Content-Type"), r.header.Get("Cache-Control"), r.raw)
			}
			if r.header.Get("X-Request-Id") == "" {
				t.Fatal("no request id")
			}
		})
	}
}

func TestBodyLimit(t *testing.T) {
	s := newStack(t)
	big := map[string]string{"email": "seller@example.com", "password": strings.Repeat("x", 2<<20)}
	if r := s.do("POST", "/api/auth/seller/login", "", big); r.status != 413 || r.body.Message != envelope.MsgTooLarge {
		t.Fatalf("oversize body: %d %s", r.status, r.raw)
	}
}

func TestConfigNamesTheVariable(t *testing.T) {
	tests := []struct {
		vars map[string]string
		want string
	}{
		{vars: map[string]string{}, want: "PRESSROOM_DATABASE_URL"},
		{vars: map[string]string{"PRESSROOM_DATABASE_URL": "postgres://x/y", "PRESSROOM_ENV": "staging"}, want: "PRESSROOM_ENV"},
		{vars: map[string]string{"PRESSROOM_DATABASE_URL": "postgres://x/y", "PRESSROOM_HTTP_ADDR": "8080"}, want: "PRESSROOM_HTTP_ADDR"},
		{vars: map[string]string{"PRESSROOM_DATABASE_URL": "postgres://x/y", "PRESSROOM_BCRYPT_COST": "4"}, want: "PRESSROOM_BCRYPT_COST"},
		{vars: map[string]string{"PRESSROOM_DATABASE_URL": "postgres://x/y", "PRESSROOM_SESSION_TTL": "week"}, want: "PRESSROOM_SESSION_TTL"},
		{vars: map[string]string{"PRESSROOM_DATABASE_URL": "postgres://x/y", "PRESSROOM_SMTP_PORT": "0"}, want: "PRESSROOM_SMTP_PORT"},
		{vars: map[string]string{"PRESSROOM_DATABASE_URL": "postgres://x/y", "PRESSROOM_SMTP_FROM": "not an address"}, want: "PRESSROOM_SMTP_FROM"},
		{vars: map[string]string{"PRESSROOM_DATABASE_URL": "postgres://x/y", "PRESSROOM_PUBLIC_URL": "ftp://x"}, want: "PRESSROOM_PUBLIC_URL"},
		{vars: map[string]string{"PRESSROOM_DATABASE_URL": "postgres://x/y", "PRESSROOM_PASSWORD_RESET_TTL": "1s"}, want: "PRESSROOM_PASSWORD_RESET_TTL"},
		{vars: map[string]string{"PRESSROOM_DATABASE_URL": "postgres://x/y", "PRESSROOM_BUILD_ID": strings.Repeat("x", 201)}, want: "PRESSROOM_BUILD_ID"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			cfg, err := LoadConfig(env.Map(tt.vars))
			if err == nil {
				err = cfg.Validate()
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want naming %s", err, tt.want)
			}
		})
	}
}

// Readiness covers the blob store: a deployment whose file volume is gone is not ready.
func TestReadinessChecksTheBlobStore(t *testing.T) {
	s := newStack(t)
	if r := s.do("GET", "/readyz", "", nil); r.status != 200 || !bytes.Contains(r.raw, []byte(`"blob":"ok"`)) {
		t.Fatalf("ready: %d %s", r.status, r.raw)
	}
	if err := os.RemoveAll(s.cfg.Blob.Dir); err != nil {
		t.Fatal(err)
	}
	r := s.do("GET", "/readyz", "", nil)
	if r.status != 503 || len(r.body.Errors) != 1 || r.body.Errors[0].Field != "blob" {
		t.Fatalf("without the blob folder: %d %s", r.status, r.raw)
	}
}

// A deployment that forgot PRESSROOM_ENV=production but listens beyond this machine must not run
// with the public development keys: the error names the key to set and the address that demands it.
func TestConfigRefusesDevelopmentKeysOffLoopback(t *testing.T) {
	const key = "0123456789abcdef0123456789abcdef"
	keys := map[string]string{"PRESSROOM_BLOB_SIGNING_KEY": key, "PRESSROOM_IMAGE_PROXY_KEY": key, "PRESSROOM_RENDERER_KEY": key, "PRESSROOM_EMAIL_SECRET_KEY": key,
		"PRESSROOM_PAYMENT_SECRET_KEY": key}
	with := func(addr string, set ...string) map[string]string {
		m := map[string]string{"PRESSROOM_DATABASE_URL": "postgres://x/y", "PRESSROOM_HTTP_ADDR": addr}
		for _, name := range set {
			m[name] = keys[name]
		}
		return m
	}
	all := []string{"PRESSROOM_BLOB_SIGNING_KEY", "PRESSROOM_IMAGE_PROXY_KEY", "PRESSROOM_RENDERER_KEY", "PRESSROOM_EMAIL_SECRET_KEY",
		"PRESSROOM_PAYMENT_SECRET_KEY"}
	tests := []struct {
		name string
		vars map[string]string
		want []string // substrings of the error; nil: valid
	}{
		{"loopback runs on the development keys", with("127.0.0.1:8080"), nil},
		{"localhost runs on the development keys", with("localhost:8080"), nil},
		{"every interface needs the blob key", with("0.0.0.0:8080"), []string{"PRESSROOM_BLOB_SIGNING_KEY", "PRESSROOM_HTTP_ADDR=0.0.0.0:8080"}},
		{"an empty host needs the blob key", with(":8080"), []string{"PRESSROOM_BLOB_SIGNING_KEY", "PRESSROOM_HTTP_ADDR=:8080"}},
		{"then the image proxy key", with("0.0.0.0:8080", all[0]), []string{"PRESSROOM_IMAGE_PROXY_KEY", "PRESSROOM_HTTP_ADDR"}},
		{"then the renderer key", with("10.1.2.3:8080", all[:2]...), []string{"PRESSROOM_RENDERER_KEY", "PRESSROOM_HTTP_ADDR"}},
		{"then the e-mail secret key", with("10.1.2.3:8080", all[:3]...), []string{"PRESSROOM_EMAIL_SECRET_KEY", "PRESSROOM_HTTP_ADDR"}},
		{"then the payment secret key", with("10.1.2.3:8080", all[:4]...), []string{"PRESSROOM_PAYMENT_SECRET_KEY", "PRESSROOM_HTTP_ADDR"}},
		{"the development image proxy key is refused", func() map[string]string {
			m := with("0.0.0.0:8080", all...)
			m["PRESSROOM_IMAGE_PROXY_KEY"] = imageproxy.DevKey
			return m
		}(), []string{"PRESSROOM_IMAGE_PROXY_KEY is the public development key"}},
		{"real keys run anywhere", with("0.0.0.0:8080", all...), nil},
		{"S3 needs no blob signing key", func() map[string]string {
			m := with("0.0.0.0:8080", all[1:]...)
			for k, v := range map[string]string{"PRESSROOM_BLOB_BACKEND": "s3", "PRESSROOM_S3_ENDPOINT": "s3.example.com", "PRESSROOM_S3_BUCKET": "b",
				"PRESSROOM_S3_ACCESS_KEY_ID": "id", "PRESSROOM_S3_SECRET_ACCESS_KEY": "secret"} {
				m[k] = v
			}
			return m
		}(), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := LoadConfig(env.Map(tt.vars))
			if err != nil {
				t.Fatal(err)
			}
			err = cfg.Validate()
			if tt.want == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("valid, want an error naming %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
		})
	}
}
