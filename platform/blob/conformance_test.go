package blob

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/pressroom/pressroom/platform/testinfra"
)

// fixture is one store on a backend under test, with keys of the test's own.
type fixture struct {
	store Store
	// key makes a key unique to the test from a name such as "u/7/art.png".
	key func(name string) string
	// expire moves time past every URL signed so far with MinTTL.
	expire func()
}

// backend opens stores of one implementation; tweak adjusts the configuration.
type backend struct {
	name string
	open func(t *testing.T, tweak func(*Config)) fixture
}

// testClock is the local store's clock in tests: it only moves when told.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// localServer is a Local store served by its Handler on a loopback listener, as the bff mounts it.
type localServer struct {
	*Local
	srv   *httptest.Server
	clock *testClock
}

func newLocalServer(t *testing.T, tweak func(*Config)) *localServer {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	cfg := DefaultConfig()
	cfg.Dir = t.TempDir()
	cfg.PublicURL = "http://" + srv.Listener.Addr().String() + "/blobs"
	cfg.MaxObjectBytes = 256 << 20
	if tweak != nil {
		tweak(&cfg)
	}
	s, err := NewLocal(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	clock := &testClock{t: time.Now()}
	s.now = clock.Now
	mux := http.NewServeMux()
	mux.Handle("/blobs/", s.Handler(nil))
	srv.Config.Handler = mux
	srv.Start()
	t.Cleanup(srv.Close)
	return &localServer{Local: s, srv: srv, clock: clock}
}

var localBackend = backend{name: "local", open: func(t *testing.T, tweak func(*Config)) fixture {
	s := newLocalServer(t, tweak)
	return fixture{
		store:  s,
		key:    func(name string) string { return name },
		expire: func() { s.clock.Add(MinTTL + time.Second) },
	}
}}

var s3Backend = backend{name: "s3", open: func(t *testing.T, tweak func(*Config)) fixture {
	srv := testinfra.S3(t)
	cfg := DefaultConfig()
	cfg.Backend = BackendS3
	cfg.MaxObjectBytes = 256 << 20
	cfg.S3 = S3Config{
		Endpoint: srv.Endpoint, Region: srv.Region, Bucket: srv.Bucket,
		AccessKeyID: srv.AccessKeyID, SecretAccessKey: srv.SecretAccessKey,
		UsePathStyle: true, UseTLS: false,
	}
	if tweak != nil {
		tweak(&cfg)
	}
	s, err := New(cfg, true)
	if err != nil {
		t.Fatal(err)
	}
	return fixture{
		store: s,
		key:   func(name string) string { return srv.Prefix + name },
		// The service reads its own clock; pre-signed URLs carry whole seconds.
		expire: func() { time.Sleep(MinTTL + 1100*time.Millisecond) },
	}
}}

func TestConformance(t *testing.T) {
	for _, b := range []backend{localBackend, s3Backend} {
		t.Run(b.name, func(t *testing.T) {
			for _, c := range conformanceCases {
				t.Run(c.name, func(t *testing.T) {
					c.run(t, b)
				})
			}
		})
	}
}

var conformanceCases = []struct {
	name string
	run  func(t *testing.T, b backend)
}{
	{"check passes on a working store and leaves nothing behind", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		if err := f.store.Check(context.Background()); err != nil {
			t.Fatal(err)
		}
		if l, ok := f.store.(*Local); ok {
			if n, err := l.SweepTemp(context.Background(), 0); err != nil || n != 0 {
				t.Errorf("Check left %d temporary files (%v)", n, err)
			}
		}
	}},
	{"round trip", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		ctx := context.Background()
		key := f.key("u/7/art.png")
		body := []byte("\x89PNG not really")
		before := time.Now().Add(-2 * time.Second)
		if err := f.store.Put(ctx, key, bytes.NewReader(body), int64(len(body)), "image/png"); err != nil {
			t.Fatal(err)
		}
		info, err := f.store.Stat(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		want := Info{Key: key, Size: int64(len(body)), ContentType: "image/png"}
		if diff := cmp.Diff(want, info, ignoreModTime); diff != "" {
			t.Errorf("Stat (-want +got):\n%s", diff)
		}
		if info.ModTime.Before(before) || info.ModTime.After(time.Now().Add(2*time.Second)) {
			t.Errorf("ModTime %v is not about now", info.ModTime)
		}
		got, ginfo := readAll(t, f.store, key)
		if !bytes.Equal(got, body) {
			t.Errorf("Get = %q, want %q", got, body)
		}
		if diff := cmp.Diff(info, ginfo); diff != "" {
			t.Errorf("Get's Info differs from Stat's (-stat +get):\n%s", diff)
		}
		if err := f.store.Delete(ctx, key); err != nil {
			t.Fatal(err)
		}
		if _, err := f.store.Stat(ctx, key); !errors.Is(err, ErrNotFound) {
			t.Errorf("Stat after Delete: %v, want ErrNotFound", err)
		}
		if err := f.store.Delete(ctx, key); err != nil {
			t.Errorf("Delete of a missing key: %v, want nil", err)
		}
	}},
	{"missing key is ErrNotFound", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		key := f.key("p/1/missing.png")
		if _, err := f.store.Stat(context.Background(), key); !errors.Is(err, ErrNotFound) {
			t.Errorf("Stat: %v, want ErrNotFound", err)
		}
		if r, _, err := f.store.Get(context.Background(), key); !errors.Is(err, ErrNotFound) {
			if r != nil {
				r.Close()
			}
			t.Errorf("Get: %v, want ErrNotFound", err)
		}
	}},
	{"invalid keys are refused by every method", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		ctx := context.Background()
		for _, key := range []string{"", "/abs.png", "a//b", "a/../b", "./a", "a/", "a b", "a\\b", "é.png", "a?b", "a%2Fb", strings.Repeat("a", MaxKeyLength+1)} {
			calls := map[string]error{
				"Put":    f.store.Put(ctx, key, strings.NewReader("x"), 1, "text/plain"),
				"Delete": f.store.Delete(ctx, key),
			}
			_, calls["Stat"] = f.store.Stat(ctx, key)
			_, _, calls["Get"] = f.store.Get(ctx, key)
			_, calls["SignUpload"] = f.store.SignUpload(ctx, key, "image/png", 100, time.Minute)
			_, calls["SignGet"] = f.store.SignGet(ctx, key, time.Minute)
			for name, err := range calls {
				if !errors.Is(err, ErrInvalidKey) {
					t.Errorf("%s(%q) = %v, want ErrInvalidKey", name, key, err)
				}
			}
		}
	}},
	{"overwrite replaces body and content type", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		ctx := context.Background()
		key := f.key("p/3/design_1_2.png")
		put(t, f.store, key, "a much longer first body", "image/png")
		put(t, f.store, key, "second", "image/jpeg")
		got, info := readAll(t, f.store, key)
		if string(got) != "second" || info.ContentType != "image/jpeg" || info.Size != 6 {
			t.Errorf("after overwrite: %q %+v", got, info)
		}
		if _, err := f.store.Stat(ctx, key); err != nil {
			t.Error(err)
		}
	}},
	{"unknown length", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		key := f.key("u/1/stream.bin")
		if err := f.store.Put(context.Background(), key, strings.NewReader("streamed"), -1, ""); err != nil {
			t.Fatal(err)
		}
		got, info := readAll(t, f.store, key)
		if string(got) != "streamed" || info.ContentType != defaultContentType {
			t.Errorf("got %q %+v", got, info)
		}
	}},
	{"short body stores nothing", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		key := f.key("u/1/short.png")
		if err := f.store.Put(context.Background(), key, strings.NewReader("12345"), 10, "image/png"); err == nil {
			t.Fatal("Put of 5 bytes declared as 10 succeeded")
		}
		if _, err := f.store.Stat(context.Background(), key); !errors.Is(err, ErrNotFound) {
			t.Errorf("Stat after failed Put: %v, want ErrNotFound", err)
		}
	}},
	{"over MaxObjectBytes is ErrTooLarge", func(t *testing.T, b backend) {
		f := b.open(t, func(c *Config) { c.MaxObjectBytes = 1024 })
		ctx := context.Background()
		for _, size := range []int64{2000, -1} {
			key := f.key(fmt.Sprintf("u/1/big%d.bin", size))
			err := f.store.Put(ctx, key, bytes.NewReader(make([]byte, 2000)), size, "application/octet-stream")
			if !errors.Is(err, ErrTooLarge) {
				t.Errorf("Put of 2000 bytes (size %d) over a 1024 limit: %v, want ErrTooLarge", size, err)
			}
			if _, err := f.store.Stat(ctx, key); !errors.Is(err, ErrNotFound) {
				t.Errorf("Stat after refused Put: %v, want ErrNotFound", err)
			}
		}
		if err := f.store.Put(ctx, f.key("u/1/fits.bin"), bytes.NewReader(make([]byte, 1024)), -1, ""); err != nil {
			t.Errorf("Put of exactly the limit: %v", err)
		}
	}},
	{"signed GET serves the object to plain HTTP, with ranges", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		key := f.key("p/9/design_1_2.png")
		put(t, f.store, key, "0123456789", "image/png")
		u, err := f.store.SignGet(context.Background(), key, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		status, body, h := do(t, http.MethodGet, u, nil, nil)
		if status != http.StatusOK || body != "0123456789" || h.Get("Content-Type") != "image/png" || h.Get("Content-Length") != "10" {
			t.Errorf("GET = %d %q %v", status, body, h)
		}
		if h.Get("ETag") == "" || h.Get("Last-Modified") == "" {
			t.Errorf("GET lacks ETag or Last-Modified: %v", h)
		}
		status, body, h = do(t, http.MethodGet, u, nil, http.Header{"Range": {"bytes=2-5"}})
		if status != http.StatusPartialContent || body != "2345" || h.Get("Content-Range") != "bytes 2-5/10" {
			t.Errorf("ranged GET = %d %q %v", status, body, h)
		}
	}},
	{"signed GET of a missing object is 404", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		u, err := f.store.SignGet(context.Background(), f.key("p/9/none.png"), time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if status, body, _ := do(t, http.MethodGet, u, nil, nil); status != http.StatusNotFound {
			t.Errorf("GET = %d %q, want 404", status, body)
		}
	}},
	{"signed download names the file, in ASCII and beyond", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		ctx := context.Background()
		key := f.key("print/41/90_r3.png")
		put(t, f.store, key, "0123456789", "image/png")
		for _, name := range []string{"Summer tee - T-shirt - front - r3.png", "Été « 2025 » - Mug, wrap - mockup.png"} {
			u, err := f.store.SignDownload(ctx, key, name, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			want, err := ContentDisposition(name)
			if err != nil {
				t.Fatal(err)
			}
			status, body, h := do(t, http.MethodGet, u, nil, nil)
			if status != http.StatusOK || body != "0123456789" || h.Get("Content-Type") != "image/png" {
				t.Errorf("GET %q = %d %q %v", name, status, body, h)
			}
			if got := h.Get("Content-Disposition"); got != want {
				t.Errorf("Content-Disposition = %q, want %q", got, want)
			}
			// The name a browser reads back is the one signed.
			if _, params, err := mime.ParseMediaType(h.Get("Content-Disposition")); err != nil || params["filename"] != name {
				t.Errorf("Content-Disposition %q names %q (%v), want %q", h.Get("Content-Disposition"), params["filename"], err, name)
			}
			status, body, h = do(t, http.MethodGet, u, nil, http.Header{"Range": {"bytes=2-5"}})
			if status != http.StatusPartialContent || body != "2345" || h.Get("Content-Disposition") != want {
				t.Errorf("ranged GET = %d %q %v", status, body, h)
			}
			// The name is signed: another one in the URL is refused.
			if status, body, _ := do(t, http.MethodGet, renamed(t, u), nil, nil); status != http.StatusForbidden {
				t.Errorf("GET with the name changed = %d %q, want 403", status, body)
			}
		}
		// A plain signed GET names nothing.
		u, err := f.store.SignGet(ctx, key, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, h := do(t, http.MethodGet, u, nil, nil); h.Get("Content-Disposition") != "" {
			t.Errorf("signed GET answered Content-Disposition %q", h.Get("Content-Disposition"))
		}
	}},
	{"signed download refuses a name no browser can save", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		key := f.key("print/41/90_r3.png")
		for _, name := range []string{"", "a/b.png", `a\b.png`, "line\nbreak.png", "nul\x00.png", "bad\xff.png", strings.Repeat("a", MaxFileNameLength+1)} {
			if _, err := f.store.SignDownload(context.Background(), key, name, time.Minute); err == nil {
				t.Errorf("SignDownload(%q) signed a URL", name)
			}
		}
		if _, err := f.store.SignDownload(context.Background(), "a//b", "ok.png", time.Minute); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("SignDownload of an invalid key: %v, want ErrInvalidKey", err)
		}
	}},
	{"signed GET expires", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		key := f.key("p/9/soon.png")
		put(t, f.store, key, "x", "image/png")
		u, err := f.store.SignGet(context.Background(), key, MinTTL)
		if err != nil {
			t.Fatal(err)
		}
		f.expire()
		if status, body, _ := do(t, http.MethodGet, u, nil, nil); status != http.StatusForbidden {
			t.Errorf("GET after expiry = %d %q, want 403", status, body)
		}
	}},
	{"signed upload stores the body with its content type", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		key := f.key("u/7/upload.png")
		up, err := f.store.SignUpload(context.Background(), key, "image/png", 1000, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if status, body := upload(t, up, "image/png", strings.NewReader("uploaded bytes")); status/100 != 2 {
			t.Fatalf("upload = %d %q", status, body)
		}
		got, info := readAll(t, f.store, key)
		if string(got) != "uploaded bytes" || info.ContentType != "image/png" {
			t.Errorf("stored %q %+v", got, info)
		}
	}},
	{"signed upload refuses a body over its cap and stores nothing", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		ctx := context.Background()
		const max = 64 << 10
		for _, size := range []int64{max + 1, 4 << 20} {
			key := f.key(fmt.Sprintf("public/over%d.png", size))
			up, err := f.store.SignUpload(ctx, key, "image/png", max, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if up.MaxBytes != max {
				t.Errorf("MaxBytes = %d, want %d", up.MaxBytes, max)
			}
			body, _ := io.ReadAll(&patternReader{left: size})
			if status, resp := upload(t, up, "image/png", bytes.NewReader(body)); status/100 == 2 {
				t.Errorf("upload of %d bytes under a cap of %d = %d %q, want a refusal", size, max, status, resp)
			}
			if _, err := f.store.Stat(ctx, key); !errors.Is(err, ErrNotFound) {
				t.Errorf("Stat after a refused %d-byte upload = %v, want ErrNotFound", size, err)
			}
		}
		// A body of exactly the cap is fine.
		key := f.key("public/exact.png")
		up, err := f.store.SignUpload(ctx, key, "image/png", max, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(&patternReader{left: max})
		if status, resp := upload(t, up, "image/png", bytes.NewReader(body)); status/100 != 2 {
			t.Fatalf("upload of exactly the cap = %d %q", status, resp)
		}
		if info, err := f.store.Stat(ctx, key); err != nil || info.Size != max {
			t.Errorf("Stat = %+v, %v; want %d bytes", info, err, max)
		}
	}},
	{"signed upload is refused when anything differs from what was signed", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		ctx := context.Background()
		key := f.key("u/7/refused.png")
		other := f.key("u/7/other.png")
		sign := func() SignedUpload {
			up, err := f.store.SignUpload(ctx, key, "image/png", 1000, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			return up
		}
		cases := []struct {
			name   string
			change func(*SignedUpload)
			ct     string
			key    string
		}{
			{"wrong content type", nil, "text/html", key},
			{"no content type", nil, "", key},
			{"other key", func(u *SignedUpload) { retarget(t, u, key, other) }, "image/png", other},
			{"tampered signature", func(u *SignedUpload) { tamperUpload(t, u) }, "image/png", key},
			{"cap raised", func(u *SignedUpload) { raiseCap(t, u) }, "image/png", key},
		}
		for _, c := range cases {
			up := sign()
			if c.change != nil {
				c.change(&up)
			}
			if status, resp := upload(t, up, c.ct, strings.NewReader("evil")); status != http.StatusForbidden && status != http.StatusBadRequest {
				t.Errorf("%s: upload = %d %q, want 403 or 400", c.name, status, resp)
			}
			if _, err := f.store.Stat(ctx, c.key); !errors.Is(err, ErrNotFound) {
				t.Errorf("%s: Stat = %v, want ErrNotFound", c.name, err)
			}
		}
		if up := sign(); up.Method == http.MethodPut {
			if status, resp, _ := do(t, http.MethodGet, up.URL, nil, nil); status != http.StatusForbidden {
				t.Errorf("GET with an upload signature = %d %q, want 403", status, resp)
			}
		}
	}},
	{"signed upload expires", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		key := f.key("u/7/late.png")
		up, err := f.store.SignUpload(context.Background(), key, "image/png", 1000, MinTTL)
		if err != nil {
			t.Fatal(err)
		}
		f.expire()
		if status, body := upload(t, up, "image/png", strings.NewReader("late")); status != http.StatusForbidden {
			t.Errorf("upload after expiry = %d %q, want 403", status, body)
		}
		if _, err := f.store.Stat(context.Background(), key); !errors.Is(err, ErrNotFound) {
			t.Errorf("Stat = %v, want ErrNotFound", err)
		}
	}},
	{"signing checks lifetime, content type and cap", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		ctx := context.Background()
		key := f.key("u/7/x.png")
		for _, ttl := range []time.Duration{0, -time.Second, MinTTL - 1, MaxTTL + time.Second} {
			if _, err := f.store.SignGet(ctx, key, ttl); err == nil {
				t.Errorf("SignGet with ttl %s succeeded", ttl)
			}
			if _, err := f.store.SignUpload(ctx, key, "image/png", 100, ttl); err == nil {
				t.Errorf("SignUpload with ttl %s succeeded", ttl)
			}
		}
		for _, ct := range []string{"", "image/png\r\nX-Evil: 1", "not a type"} {
			if _, err := f.store.SignUpload(ctx, key, ct, 100, time.Minute); err == nil {
				t.Errorf("SignUpload with content type %q succeeded", ct)
			}
		}
		for _, max := range []int64{0, -1} {
			if _, err := f.store.SignUpload(ctx, key, "image/png", max, time.Minute); err == nil {
				t.Errorf("SignUpload with cap %d succeeded", max)
			}
		}
	}},
	{"concurrent puts to one key leave one complete body", func(t *testing.T, b backend) {
		f := b.open(t, nil)
		ctx := context.Background()
		key := f.key("p/5/race.bin")
		const writers, size = 8, 1 << 20
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for i := range writers {
			wg.Go(func() {
				body := bytes.Repeat([]byte{byte('a' + i)}, size)
				errs <- f.store.Put(ctx, key, bytes.NewReader(body), size, fmt.Sprintf("application/x-writer-%d", i))
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
		got, info := readAll(t, f.store, key)
		if len(got) != size {
			t.Fatalf("stored %d bytes, want %d", len(got), size)
		}
		w := got[0] - 'a'
		if !bytes.Equal(got, bytes.Repeat([]byte{got[0]}, size)) {
			t.Errorf("stored body mixes writers")
		}
		if want := fmt.Sprintf("application/x-writer-%d", w); info.ContentType != want {
			t.Errorf("content type %q belongs to another writer than the body (%q)", info.ContentType, want)
		}
	}},
	{"large bodies stream in and out", func(t *testing.T, b backend) {
		if testing.Short() {
			t.Skip("-short")
		}
		f := b.open(t, nil)
		ctx := context.Background()
		const size = 50 << 20
		for _, declared := range []int64{size, -1} {
			key := f.key(fmt.Sprintf("p/7/large%d.bin", declared))
			src := &patternReader{left: size}
			alloc := allocated()
			if err := f.store.Put(ctx, key, src, declared, "application/octet-stream"); err != nil {
				t.Fatal(err)
			}
			putAlloc := allocated() - alloc
			alloc = allocated()
			r, info, err := f.store.Get(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			h := sha256.New()
			n, err := io.Copy(h, r)
			r.Close()
			getAlloc := allocated() - alloc
			if err != nil || n != size || info.Size != size {
				t.Fatalf("read back %d bytes (Info.Size %d): %v", n, info.Size, err)
			}
			if want := (&patternReader{left: size}).sum(); !bytes.Equal(h.Sum(nil), want) {
				t.Errorf("body read back differs from the body written")
			}
			// One multipart chunk (16 MiB) plus change may be held; a whole body (50 MiB) may not.
			const budget = 32 << 20
			t.Logf("size %d: Put allocated %d MiB, Get %d MiB", declared, putAlloc>>20, getAlloc>>20)
			if putAlloc > budget || getAlloc > budget {
				t.Errorf("allocated %d MiB to put and %d MiB to get a %d MiB body: want under %d MiB each", putAlloc>>20, getAlloc>>20, size>>20, budget>>20)
			}
		}
	}},
}

var ignoreModTime = cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".ModTime" }, cmp.Ignore())

func put(t *testing.T, s Store, key, body, ct string) {
	t.Helper()
	if err := s.Put(context.Background(), key, strings.NewReader(body), int64(len(body)), ct); err != nil {
		t.Fatal(err)
	}
}

func readAll(t *testing.T, s Store, key string) ([]byte, Info) {
	t.Helper()
	r, info, err := s.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b, info
}

// do sends one request with a plain net/http client, as a browser or the renderer would.
func do(t *testing.T, method, u string, body io.Reader, h http.Header) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b), resp.Header
}

// upload sends body to a signed upload as a browser would, with contentType in place of the signed
// one ("" sends none).
func upload(t *testing.T, up SignedUpload, contentType string, body io.Reader) (int, string) {
	t.Helper()
	switch up.Method {
	case http.MethodPut:
		h := http.Header{}
		if contentType != "" {
			h.Set("Content-Type", contentType)
		}
		status, resp, _ := do(t, http.MethodPut, up.URL, body, h)
		return status, resp
	case http.MethodPost:
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		for k, v := range up.Fields {
			if k == "Content-Type" {
				continue
			}
			mw.WriteField(k, v)
		}
		if contentType != "" {
			mw.WriteField("Content-Type", contentType)
		}
		fw, err := mw.CreateFormFile("file", "upload")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(fw, body); err != nil {
			t.Fatal(err)
		}
		mw.Close()
		status, resp, _ := do(t, http.MethodPost, up.URL, &buf, http.Header{"Content-Type": {mw.FormDataContentType()}})
		return status, resp
	}
	t.Fatalf("upload method %q", up.Method)
	return 0, ""
}

// retarget points a signed upload at another key without signing it again.
func retarget(t *testing.T, up *SignedUpload, from, to string) {
	t.Helper()
	if up.Method == http.MethodPost {
		up.Fields["key"] = to
		return
	}
	up.URL = strings.Replace(up.URL, "/"+from+"?", "/"+to+"?", 1)
}

// tamperUpload flips one character of a signed upload's signature.
func tamperUpload(t *testing.T, up *SignedUpload) {
	t.Helper()
	if up.Method == http.MethodPut {
		up.URL = tamper(t, up.URL)
		return
	}
	v := up.Fields["x-amz-signature"]
	if v == "" {
		t.Fatalf("no signature in %v", up.Fields)
	}
	c := byte('a')
	if v[0] == 'a' {
		c = 'b'
	}
	up.Fields["x-amz-signature"] = string(c) + v[1:]
}

// raiseCap rewrites the size cap of a signed upload without signing it again: the local URL's max,
// or the S3 policy's content-length-range.
func raiseCap(t *testing.T, up *SignedUpload) {
	t.Helper()
	if up.Method == http.MethodPut {
		u, err := url.Parse(up.URL)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Set("max", "999999999")
		u.RawQuery = q.Encode()
		up.URL = u.String()
		return
	}
	policy, err := base64.StdEncoding.DecodeString(up.Fields["policy"])
	if err != nil {
		t.Fatal(err)
	}
	raised := strings.Replace(string(policy), `"content-length-range", 1, 1000]`, `"content-length-range", 1, 999999999]`, 1)
	if raised == string(policy) {
		t.Fatalf("no content-length-range in the policy %s", policy)
	}
	up.Fields["policy"] = base64.StdEncoding.EncodeToString([]byte(raised))
}

// tamper flips one character of the URL's signature, whichever scheme signed it.
func tamper(t *testing.T, raw string) string {
	return alterQuery(t, raw, []string{"sig", "X-Amz-Signature"}, func(v string) string {
		c := byte('a')
		if v[0] == 'a' {
			c = 'b'
		}
		return string(c) + v[1:]
	})
}

// renamed changes the file name a signed download URL carries, whichever scheme signed it.
func renamed(t *testing.T, raw string) string {
	return alterQuery(t, raw, []string{"name", "response-content-disposition"}, func(v string) string {
		return strings.Replace(v, ".png", " (2).png", 1)
	})
}

// alterQuery changes, with alter, the first of the query parameters params the URL carries.
func alterQuery(t *testing.T, raw string, params []string, alter func(string) string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	for _, name := range params {
		if v := q.Get(name); v != "" {
			q.Set(name, alter(v))
			u.RawQuery = q.Encode()
			return u.String()
		}
	}
	t.Fatalf("none of %v in %s", params, raw)
	return ""
}

// patternReader yields left pseudo-random bytes without holding them.
type patternReader struct {
	left int64
	rng  *rand.ChaCha8
}

func (p *patternReader) Read(b []byte) (int, error) {
	if p.left <= 0 {
		return 0, io.EOF
	}
	if p.rng == nil {
		p.rng = rand.NewChaCha8([32]byte{'p', 'r', 'e', 's', 's'})
	}
	if int64(len(b)) > p.left {
		b = b[:p.left]
	}
	n, _ := p.rng.Read(b)
	p.left -= int64(n)
	return n, nil
}

func (p *patternReader) sum() []byte {
	h := sha256.New()
	io.Copy(h, p)
	return h.Sum(nil)
}

// allocated is the process's running total of heap allocation, an upper bound on what one step
// held at once.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}
