package service

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/ping"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/testinfra"
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
// on the renderer's queue is completed by the renderer, and its HTTP server answers /healthz.
func TestServiceAnswersPingsAndHealth(t *testing.T) {
	db, dbURL := testinfra.Postgres(t)
	addr, n := testinfra.Redis(t)
	httpAddr := freeAddr(t)
	uiDir := t.TempDir() // a built UI holding only the 3D mockup page
	if err := os.WriteFile(filepath.Join(uiDir, "mockup3d.html"), []byte("<!doctype html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(env.Map(map[string]string{
		"PRESSROOM_DATABASE_URL": dbURL, "PRESSROOM_REDIS_ADDR": addr, "PRESSROOM_REDIS_DB": strconv.Itoa(n),
		"PRESSROOM_RENDERER_HTTP_ADDR": httpAddr, "PRESSROOM_QUEUE_SHUTDOWN_TIMEOUT": "5s",
		"PRESSROOM_BLOB_DIR": t.TempDir(), "PRESSROOM_UI_DIR": uiDir,
	}))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
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

	res, err := http.Get("http://" + httpAddr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"status":"ok"`) {
		t.Fatalf("healthz: %d %s", res.StatusCode, body)
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
