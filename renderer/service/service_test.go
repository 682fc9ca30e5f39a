package service

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/ping"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/renderer/imageapi"
)

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestServiceAnswersPingsAndHealth runs the renderer service on real Postgres and Redis: a ping
// on the renderer's queue is completed by the renderer, its blob sweep removes a stale temporary
// file at start, and its HTTP server answers /healthz.
func TestServiceAnswersPingsAndHealth(t *testing.T) {
	db, dbURL := testinfra.Postgres(t)
	addr, n := testinfra.Redis(t)
	httpAddr := freeAddr(t)
	uiDir := t.TempDir() // a built UI holding only the 3D mockup page
	// What writers killed mid-Put left in the blob folder: one a day old, one being written now.
	blobDir := t.TempDir()
	stale, fresh := filepath.Join(blobDir, "a.png~tmp-1"), filepath.Join(blobDir, "b.png~tmp-2")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-25 * time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(uiDir, "mockup3d.html"), []byte("<!doctype html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(env.Map(map[string]string{
		"PRESSROOM_DATABASE_URL": dbURL, "PRESSROOM_REDIS_ADDR": addr, "PRESSROOM_REDIS_DB": strconv.Itoa(n),
		"PRESSROOM_RENDERER_HTTP_ADDR": httpAddr, "PRESSROOM_QUEUE_SHUTDOWN_TIMEOUT": "5s",
		"PRESSROOM_BLOB_DIR": blobDir, "PRESSROOM_UI_DIR": uiDir,
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	s, err := New(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The Go runtime keeps under the budget less what it does not count, unless GOMEMLIMIT says otherwise.
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		if got, want := debug.SetMemoryLimit(-1), int64(1536<<20-128<<20); got != want {
			t.Errorf("Go memory limit %d MiB, want %d MiB", got>>20, want>>20)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("renderer stopped with %v", err)
		}
	}()

	p, _, err := ping.Request(context.Background(), db, queue.Renderer, 0)
	if err != nil {
		t.Fatal(err)
	}
	job, _ := ping.NewPingJob(p.ID, queue.Renderer)
	client := asynq.NewClient(cfg.Queue.RedisOpt())
	defer client.Close()
	if err := job.Enqueue(context.Background(), client); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, err := ping.Get(context.Background(), db, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.CompletedAt != nil {
			if got.CompletedBy != "renderer" {
				t.Fatalf("completed by %q", got.CompletedBy)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("renderer did not complete the ping within 30s")
		}
		time.Sleep(20 * time.Millisecond)
	}

	// The blob sweep ran at start: the stale temporary file is gone, the fresh one left alone.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(stale); errors.Is(err, fs.ErrNotExist) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stale temporary blob file is still there")
		}
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Fatalf("the fresh temporary file: %v", err)
	}

	res, err := http.Get("http://" + httpAddr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"status":"ok"`) {
		t.Fatalf("healthz: %d %s", res.StatusCode, body)
	}
	// The image proxy's endpoint is mounted, and answers the bff's key only.
	var img bytes.Buffer
	if err := png.Encode(&img, image.NewNRGBA(image.Rect(0, 0, 400, 300))); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		key    string
		status int
	}{{"", http.StatusUnauthorized}, {imageapi.DevKey, http.StatusOK}} {
		req, _ := http.NewRequest(http.MethodPost, "http://"+httpAddr+imageapi.Path+"?variant=thumb", bytes.NewReader(img.Bytes()))
		if tc.key != "" {
			req.Header.Set("Authorization", "Bearer "+tc.key)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.status {
			t.Errorf("POST %s with key %q: %d, want %d", imageapi.Path, tc.key, res.StatusCode, tc.status)
		}
	}
	// The 3D page, its models and the designs being drawn go to the Chrome pool on a loopback port of
	// its own, never out of the renderer's public address.
	for _, path := range []string{"/mockup3d.html", "/mockup3d/models/mug.glb", "/etc/passwd"} {
		res, err := http.Get("http://" + httpAddr + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d; want 404", path, res.StatusCode)
		}
	}
}

// The renderer signs blob URLs and authenticates the bff's image calls: listening beyond this
// machine it refuses the development keys.
func TestConfigRefusesDevelopmentKeyOffLoopback(t *testing.T) {
	const key = "0123456789abcdef0123456789abcdef"
	for _, tt := range []struct {
		name, addr, blobKey, rendererKey, want string
	}{
		{"loopback runs on the development keys", "127.0.0.1:8081", "", "", ""},
		{"every interface needs a blob key", "0.0.0.0:8081", "", key, "PRESSROOM_BLOB_SIGNING_KEY"},
		{"every interface needs a renderer key", "0.0.0.0:8081", key, "", "PRESSROOM_RENDERER_KEY"},
		{"the development renderer key is refused", "0.0.0.0:8081", key, imageapi.DevKey, "PRESSROOM_RENDERER_KEY is the public development key"},
		{"every interface with keys", "0.0.0.0:8081", key, key + "r", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := LoadConfig(env.Map(map[string]string{
				"PRESSROOM_DATABASE_URL": "postgres://x/y", "PRESSROOM_RENDERER_HTTP_ADDR": tt.addr,
				"PRESSROOM_BLOB_SIGNING_KEY": tt.blobKey, "PRESSROOM_RENDERER_KEY": tt.rendererKey,
			}))
			if err != nil {
				t.Fatal(err)
			}
			err = cfg.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "PRESSROOM_RENDERER_HTTP_ADDR=0.0.0.0:8081")):
				t.Fatalf("err = %v, want one naming %s and PRESSROOM_RENDERER_HTTP_ADDR=0.0.0.0:8081", err, tt.want)
			}
		})
	}
}
