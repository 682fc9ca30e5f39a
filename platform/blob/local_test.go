package blob

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestHandlerRefusals(t *testing.T) {
	s := newLocalServer(t, func(c *Config) { c.MaxUploadBytes = 1000 })
	ctx := context.Background()
	put(t, s, "u/1/there.png", "png bytes", "image/png")
	signCapped := func(key string, max int64) string {
		u, err := s.SignUpload(ctx, key, "image/png", max, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return u.URL
	}
	signPut := func(key string) string { return signCapped(key, 1<<20) }
	getURL, err := s.SignGet(ctx, "u/1/there.png", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	downloadURL, err := s.SignDownload(ctx, "u/1/there.png", "There.png", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	png := http.Header{"Content-Type": {"image/png"}}
	base := s.srv.URL + "/blobs/"

	cases := []struct {
		name    string
		method  string
		url     string
		body    io.Reader
		header  http.Header
		status  int
		message string
	}{
		{"unsigned GET", http.MethodGet, base + "u/1/there.png", nil, nil, 403, "The address is not signed."},
		{"bad expires", http.MethodGet, strings.Replace(getURL, "expires=", "expires=x", 1), nil, nil, 403, "The address signature is invalid."},
		{"expiry moved later", http.MethodGet, strings.Replace(getURL, "expires=", "expires=9", 1), nil, nil, 403, "The address signature is invalid."},
		{"tampered signature", http.MethodGet, tamper(t, getURL), nil, nil, 403, "The address signature is invalid."},
		{"download name added", http.MethodGet, getURL + "&name=There.png", nil, nil, 403, "The address signature is invalid."},
		{"download name changed", http.MethodGet, strings.Replace(downloadURL, "name=There", "name=Elsewhere", 1), nil, nil, 403, "The address signature is invalid."},
		{"download name removed", http.MethodGet, strings.Replace(downloadURL, "name=There.png", "", 1), nil, nil, 403, "The address signature is invalid."},
		{"signature not base64", http.MethodGet, strings.Replace(getURL, "sig=", "sig=%25", 1), nil, nil, 403, "The address signature is invalid."},
		{"PUT with a GET signature", http.MethodPut, getURL, strings.NewReader("x"), png, 403, "The address is not signed for this method."},
		{"wrong content type", http.MethodPut, signPut("u/1/new.png"), strings.NewReader("x"), http.Header{"Content-Type": {"image/jpeg"}}, 403, "The Content-Type header does not match the signed upload."},
		{"declared body too large", http.MethodPut, signPut("u/1/big.png"), strings.NewReader(strings.Repeat("x", 1001)), png, 413, "The file is too large."},
		{"streamed body too large", http.MethodPut, signPut("u/1/big.png"), io.MultiReader(strings.NewReader(strings.Repeat("x", 1001))), png, 413, "The file is too large."},
		{"declared body over the signed cap", http.MethodPut, signCapped("u/1/capped.png", 10), strings.NewReader(strings.Repeat("x", 11)), png, 413, "The file is too large."},
		{"streamed body over the signed cap", http.MethodPut, signCapped("u/1/capped.png", 10), io.MultiReader(strings.NewReader(strings.Repeat("x", 11))), png, 413, "The file is too large."},
		{"PUT signed without a cap", http.MethodPut, s.sign(http.MethodPut, "u/1/uncapped.png", "image/png", 0, "", time.Minute), strings.NewReader("x"), png, 403, "The address is not signed."},
		{"invalid key", http.MethodGet, base + "u/1/..%2F..%2Fetc", nil, nil, 404, "The file does not exist."},
		{"outside the base path", http.MethodGet, s.srv.URL + "/blobs", nil, nil, 404, ""},
		{"other method", http.MethodPost, getURL, strings.NewReader("x"), nil, 405, "This method is not allowed here."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body, h := do(t, c.method, c.url, c.body, c.header)
			if status != c.status {
				t.Fatalf("status %d, want %d (%s)", status, c.status, body)
			}
			if c.message == "" {
				return
			}
			if ct := h.Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			var got map[string]any
			if err := json.Unmarshal([]byte(body), &got); err != nil {
				t.Fatalf("body %q: %v", body, err)
			}
			want := map[string]any{"success": false, "message": c.message, "data": nil, "errors": []any{map[string]any{"message": c.message}}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
		})
	}
	for _, key := range []string{"u/1/new.png", "u/1/big.png", "u/1/capped.png", "u/1/uncapped.png"} {
		if _, err := s.Stat(ctx, key); !errors.Is(err, ErrNotFound) {
			t.Errorf("Stat(%s) = %v after a refused PUT, want ErrNotFound", key, err)
		}
	}
}

func TestHandlerServing(t *testing.T) {
	s := newLocalServer(t, nil)
	ctx := context.Background()
	put(t, s, "p/1/design_2_3.png", "0123456789", "image/png")
	u, err := s.SignGet(ctx, "p/1/design_2_3.png", time.Hour)
	if err != nil {
		t.Fatal(err)
	}

	status, _, h := do(t, http.MethodGet, u, nil, nil)
	if status != 200 {
		t.Fatalf("GET = %d", status)
	}
	wantHeaders := map[string]string{
		"Content-Type":            "image/png",
		"Content-Length":          "10",
		"Cache-Control":           "private, max-age=3600",
		"X-Content-Type-Options":  "nosniff",
		"Content-Security-Policy": "default-src 'none'; sandbox",
		"Accept-Ranges":           "bytes",
	}
	for k, v := range wantHeaders {
		if h.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, h.Get(k), v)
		}
	}

	cases := []struct {
		name   string
		method string
		header http.Header
		status int
		body   string
	}{
		{"HEAD", http.MethodHead, nil, 200, ""},
		{"If-None-Match", http.MethodGet, http.Header{"If-None-Match": {h.Get("ETag")}}, 304, ""},
		{"If-Modified-Since", http.MethodGet, http.Header{"If-Modified-Since": {h.Get("Last-Modified")}}, 304, ""},
		{"suffix range", http.MethodGet, http.Header{"Range": {"bytes=-3"}}, 206, "789"},
		{"unsatisfiable range", http.MethodGet, http.Header{"Range": {"bytes=20-30"}}, 416, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body, _ := do(t, c.method, u, nil, c.header)
			if status != c.status || (c.body != "" && body != c.body) {
				t.Errorf("%s = %d %q, want %d %q", c.method, status, body, c.status, c.body)
			}
		})
	}

	t.Run("ETag changes on overwrite", func(t *testing.T) {
		put(t, s, "p/1/design_2_3.png", "replaced", "image/png")
		status, body, h2 := do(t, http.MethodGet, u, nil, http.Header{"If-None-Match": {h.Get("ETag")}})
		if status != 200 || body != "replaced" || h2.Get("ETag") == h.Get("ETag") {
			t.Errorf("GET after overwrite = %d %q ETag %s (was %s)", status, body, h2.Get("ETag"), h.Get("ETag"))
		}
	})

	t.Run("PUT answers the envelope with the stored object", func(t *testing.T) {
		pu, err := s.SignUpload(ctx, "u/2/a.webp", "image/webp", 100, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		status, body, h := do(t, http.MethodPut, pu.URL, strings.NewReader("webp"), http.Header{"Content-Type": {"image/webp"}})
		var got envelope
		if err := json.Unmarshal([]byte(body), &got); err != nil || status != 200 {
			t.Fatalf("PUT = %d %q: %v", status, body, err)
		}
		want := envelope{Success: true, Message: "Uploaded.", Data: map[string]any{"key": "u/2/a.webp", "size": 4.0, "contentType": "image/webp"}, Errors: []errorItem{}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("body (-want +got):\n%s", diff)
		}
		if h.Get("ETag") == "" {
			t.Error("PUT answered no ETag")
		}
	})
}

func TestHandlerCORS(t *testing.T) {
	s := newLocalServer(t, func(c *Config) { c.CORSOrigins = []string{"https://app.example.com"} })
	up, err := s.SignUpload(context.Background(), "u/1/x.png", "image/png", 100, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	u := up.URL
	cases := []struct {
		origin string
		want   string
	}{
		{"https://app.example.com", "https://app.example.com"},
		{"https://evil.example.com", ""},
		{"", ""},
	}
	for _, c := range cases {
		t.Run("preflight from "+c.origin, func(t *testing.T) {
			h := http.Header{"Access-Control-Request-Method": {"PUT"}, "Access-Control-Request-Headers": {"content-type"}}
			if c.origin != "" {
				h.Set("Origin", c.origin)
			}
			status, _, got := do(t, http.MethodOptions, u, nil, h)
			if status != http.StatusNoContent || got.Get("Access-Control-Allow-Origin") != c.want {
				t.Errorf("preflight = %d, Allow-Origin %q, want %q", status, got.Get("Access-Control-Allow-Origin"), c.want)
			}
			if c.want != "" && (got.Get("Access-Control-Allow-Methods") == "" || got.Get("Access-Control-Allow-Headers") == "") {
				t.Errorf("preflight lacks allowed methods or headers: %v", got)
			}
		})
	}
}

// Processes that share the folder and the key (bff signs, renderer reads) accept each other's
// URLs; a process with another key refuses them. With no key set, development processes agree.
func TestSigningKeyIsSharedNotRandom(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name           string
		signer, server string
		want           int
	}{
		{"same configured key", strings.Repeat("k", 32), strings.Repeat("k", 32), 200},
		{"development key in both", "", "", 200},
		{"different keys", strings.Repeat("k", 32), strings.Repeat("j", 32), 403},
		{"development key against a real one", "", strings.Repeat("k", 32), 403},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			server := newLocalServer(t, func(cfg *Config) { cfg.Dir, cfg.SigningKey = dir, c.server })
			cfg := DefaultConfig()
			cfg.Dir, cfg.SigningKey, cfg.PublicURL = dir, c.signer, server.publicURL
			signer, err := NewLocal(cfg, false)
			if err != nil {
				t.Fatal(err)
			}
			put(t, signer, "u/1/shared.png", "shared", "image/png")
			u, err := signer.SignGet(context.Background(), "u/1/shared.png", time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if status, body, _ := do(t, http.MethodGet, u, nil, nil); status != c.want {
				t.Errorf("GET = %d %q, want %d", status, body, c.want)
			}
		})
	}
}

// A writer that dies mid-body leaves nothing under the key: the bytes went to a temporary file.
func TestInterruptedPutLeavesNoObject(t *testing.T) {
	s := newLocalServer(t, nil)
	ctx := context.Background()
	put(t, s, "u/1/kept.png", "old complete body", "image/png")
	broken := io.MultiReader(strings.NewReader("half a bo"), errReader{errors.New("connection reset")})
	if err := s.Put(ctx, "u/1/kept.png", broken, -1, "image/png"); err == nil {
		t.Fatal("Put from a failing reader succeeded")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.Put(cancelled, "u/1/kept.png", strings.NewReader("new"), 3, "image/png"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Put with a cancelled context: %v", err)
	}
	if got, _ := readAll(t, s, "u/1/kept.png"); string(got) != "old complete body" {
		t.Errorf("after failed Puts the object is %q", got)
	}
	if leftovers := files(t, s.root); !cmp.Equal(leftovers, []string{"u", "u/1", "u/1/kept.png~blob"}) {
		t.Errorf("files on disk %v, want only the object", leftovers)
	}
}

func TestDeletePrunesEmptyFolders(t *testing.T) {
	s := newLocalServer(t, nil)
	ctx := context.Background()
	put(t, s, "p/1/a/b.png", "b", "image/png")
	put(t, s, "p/1/c.png", "c", "image/png")
	if err := s.Delete(ctx, "p/1/a/b.png"); err != nil {
		t.Fatal(err)
	}
	if got := files(t, s.root); !cmp.Equal(got, []string{"p", "p/1", "p/1/c.png~blob"}) {
		t.Errorf("after deleting p/1/a/b.png: %v", got)
	}
	if err := s.Delete(ctx, "p/1/c.png"); err != nil {
		t.Fatal(err)
	}
	if got := files(t, s.root); len(got) != 0 {
		t.Errorf("after deleting everything: %v", got)
	}
	if _, err := os.Stat(s.root); err != nil {
		t.Errorf("root folder removed: %v", err)
	}
}

func TestForeignFileIsNotABlob(t *testing.T) {
	s := newLocalServer(t, nil)
	if err := os.WriteFile(filepath.Join(s.root, "stray.png~blob"), []byte("\x89PNG raw"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := s.Stat(context.Background(), "stray.png")
	if err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("Stat of a file without header = %v, want a read error", err)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// files lists the folders and files under root, slash-separated.
func files(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Check fails, naming the folder, when the folder is gone (a volume not mounted).
func TestLocalCheckFailsWithoutItsFolder(t *testing.T) {
	s := newLocalServer(t, nil)
	if err := os.RemoveAll(s.root); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(context.Background()); err == nil || !strings.Contains(err.Error(), s.root) {
		t.Fatalf("Check = %v, want an error naming %s", err, s.root)
	}
}

func TestSweepTemp(t *testing.T) {
	s := newLocalServer(t, nil)
	ctx := context.Background()
	put(t, s, "u/1/kept.png", "kept", "image/png")
	dir := filepath.Join(s.root, "u", "1")
	old, fresh := filepath.Join(dir, "kept.png~tmp-123"), filepath.Join(dir, "other.png~tmp-456")
	for _, p := range []string{old, fresh} {
		if err := os.WriteFile(p, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(old, hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	n, err := s.SweepTemp(ctx, 10*time.Minute)
	if err != nil || n != 1 {
		t.Fatalf("SweepTemp = %d, %v; want 1 removed", n, err)
	}
	if got := files(t, s.root); !cmp.Equal(got, []string{"u", "u/1", "u/1/kept.png~blob", "u/1/other.png~tmp-456"}) {
		t.Errorf("after sweep: %v", got)
	}
}

// A writer killed with SIGKILL in the middle of a body leaves the previous object intact and only
// a temporary file, which SweepTemp removes.
func TestKilledWriterLeavesOldObject(t *testing.T) {
	const childEnv = "PRESSROOM_BLOB_TEST_CHILD_DIR"
	if dir := os.Getenv(childEnv); dir != "" {
		cfg := DefaultConfig()
		cfg.Dir = dir
		s, err := NewLocal(cfg, false)
		if err != nil {
			t.Fatal(err)
		}
		s.Put(context.Background(), "u/1/victim.png", slowEndless{}, -1, "image/png")
		t.Fatal("the endless Put returned")
	}
	s := newLocalServer(t, nil)
	put(t, s, "u/1/victim.png", "old complete body", "image/png")

	child := exec.Command(os.Args[0], "-test.run=^TestKilledWriterLeavesOldObject$")
	child.Env = append(os.Environ(), childEnv+"="+s.root)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Process.Kill()
	// Kill once the child is well into the body.
	deadline := time.Now().Add(30 * time.Second)
	for !tempFileOver(t, filepath.Join(s.root, "u", "1"), 1<<20) {
		if time.Now().After(deadline) {
			t.Fatal("the child never started writing")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	child.Wait()

	if got, info := readAll(t, s, "u/1/victim.png"); string(got) != "old complete body" || info.ContentType != "image/png" {
		t.Errorf("after the kill the object is %q %+v", got, info)
	}
	if n, err := s.SweepTemp(context.Background(), 0); err != nil || n != 1 {
		t.Errorf("SweepTemp = %d, %v; want the one temporary file removed", n, err)
	}
}

// slowEndless is a body that never ends, at about 12 MB/s.
type slowEndless struct{}

func (slowEndless) Read(p []byte) (int, error) {
	time.Sleep(5 * time.Millisecond)
	return len(p[:min(len(p), 64<<10)]), nil
}

func tempFileOver(t *testing.T, dir string, size int64) bool {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && strings.Contains(e.Name(), tempInfix) && fi.Size() > size {
			return true
		}
	}
	return false
}
