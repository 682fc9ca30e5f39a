package app

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/bff/uploads"
	"github.com/pressroom/pressroom/platform/blob"
)

// zeros is an endless body of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// putStream PUTs size bytes to a signed URL, chunked (no declared length) unless declared, and
// answers the status.
func (s *stack) putStream(rawURL, contentType string, size int64, declared bool) int {
	s.t.Helper()
	req, _ := http.NewRequest("PUT", s.local(rawURL), io.LimitReader(zeros{}, size))
	req.Header.Set("Content-Type", contentType)
	if declared {
		req.ContentLength = size
	} else {
		req.ContentLength = -1
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		// The server may close the connection once it has refused the body.
		return 0
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

func (s *stack) blobStore() blob.Store {
	s.t.Helper()
	store, err := blob.New(s.cfg.Blob, false)
	if err != nil {
		s.t.Fatal(err)
	}
	return store
}

// TestUploadSizeIsSigned: the size cap is in the signature of every pre-signed upload, so a body
// over it is refused while it streams and nothing is stored; the ingest check is no longer the
// only guard.
func TestUploadSizeIsSigned(t *testing.T) {
	s := newStackWith(t, map[string]string{"PRESSROOM_UPLOAD_MAX_BYTES": "1048576"})
	store := s.blobStore()
	ctx := context.Background()
	seller := s.login("seller", "seller@example.com")
	const publicMax = 10 << 20

	t.Run("a 60 MB anonymous upload is refused and nothing is stored", func(t *testing.T) {
		for _, declared := range []bool{true, false} {
			r := s.do("POST", "/api/public/pre-signed-url", "", map[string]string{"fileName": "huge.png"})
			if r.status != 200 {
				t.Fatalf("sign: %d %s", r.status, r.raw)
			}
			signed := r.body.Data.(map[string]any)
			if signed["method"] != "PUT" || signed["maxBytes"].(float64) != publicMax {
				t.Fatalf("signed = %v, want a PUT capped at %d", signed, publicMax)
			}
			key := signed["filePath"].(string)
			if status := s.putStream(signed["preSignedUrl"].(string), "image/png", 60<<20, declared); status != http.StatusRequestEntityTooLarge && status != 0 {
				t.Errorf("60 MB PUT (declared length %v) = %d, want 413", declared, status)
			}
			if _, err := store.Stat(ctx, key); !errors.Is(err, blob.ErrNotFound) {
				t.Errorf("after a refused 60 MB PUT (declared length %v): Stat = %v, want ErrNotFound", declared, err)
			}
		}
	})

	t.Run("a declared size caps the signature", func(t *testing.T) {
		r := s.do("POST", "/api/public/pre-signed-url", "", map[string]any{"fileName": "small.png", "fileSize": 100})
		signed := r.body.Data.(map[string]any)
		if r.status != 200 || signed["maxBytes"].(float64) != 100 {
			t.Fatalf("sign: %d %s", r.status, r.raw)
		}
		if status := s.putStream(signed["preSignedUrl"].(string), "image/png", 101, false); status != http.StatusRequestEntityTooLarge {
			t.Errorf("101 bytes to a 100-byte signature = %d, want 413", status)
		}
		if status := s.putStream(signed["preSignedUrl"].(string), "image/png", 100, true); status != 200 {
			t.Errorf("100 bytes to a 100-byte signature = %d, want 200", status)
		}
	})

	t.Run("a declared size over the cap is refused at signing", func(t *testing.T) {
		r := s.do("POST", "/api/public/pre-signed-url", "", map[string]any{"fileName": "big.png", "fileSize": publicMax + 1})
		if r.status != 413 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != "fileSize" {
			t.Fatalf("sign over the cap: %d %s", r.status, r.raw)
		}
		r = s.do("POST", "/api/public/pre-signed-url", "", map[string]any{"fileName": "neg.png", "fileSize": -1})
		if r.status != 422 {
			t.Fatalf("negative size: %d %s", r.status, r.raw)
		}
	})

	t.Run("the signed-in upload is capped by its signature too", func(t *testing.T) {
		r := s.do("POST", "/api/pre-signed-url", seller, map[string]string{"fileName": "art.png"})
		signed := r.body.Data.(map[string]any)
		if r.status != 200 || signed["maxBytes"].(float64) != 1<<20 {
			t.Fatalf("sign: %d %s", r.status, r.raw)
		}
		if status := s.putStream(signed["preSignedUrl"].(string), "image/png", 2<<20, false); status != http.StatusRequestEntityTooLarge && status != 0 {
			t.Errorf("2 MiB to a 1 MiB signature = %d, want 413", status)
		}
		if _, err := store.Stat(ctx, signed["filePath"].(string)); !errors.Is(err, blob.ErrNotFound) {
			t.Errorf("Stat = %v, want ErrNotFound", err)
		}
	})
}

// TestPublicUploadBytesPerDay: each public signature reserves its cap from the client's daily
// bytes; past them the answer is 429 with a clear message, and other clients are not affected.
func TestPublicUploadBytesPerDay(t *testing.T) {
	s := newStackWith(t, map[string]string{
		"PRESSROOM_TRUST_PROXY": "true", "PRESSROOM_UPLOAD_PUBLIC_PER_HOUR": "100",
		"PRESSROOM_UPLOAD_PUBLIC_MAX_BYTES": "1048576", "PRESSROOM_UPLOAD_PUBLIC_BYTES_PER_DAY": "2621440", // 2.5 MiB
	})
	sign := func(client string, size int64) reply {
		t.Helper()
		return s.do("POST", "/api/public/pre-signed-url", "", map[string]any{"fileName": "a.png", "fileSize": size}, "X-Forwarded-For", client)
	}
	for i := range 2 {
		if r := sign("203.0.113.1", 0); r.status != 200 {
			t.Fatalf("signature %d within the day's bytes: %d %s", i+1, r.status, r.raw)
		}
	}
	r := sign("203.0.113.1", 0)
	if r.status != 429 || !strings.Contains(r.body.Message, "limited to 2 MiB a day") || r.header.Get("Retry-After") == "" {
		t.Fatalf("third full-size signature: %d %s (Retry-After %q), want 429", r.status, r.raw, r.header.Get("Retry-After"))
	}
	// The refused reservation was given back: a small file still fits.
	if r := sign("203.0.113.1", 100<<10); r.status != 200 {
		t.Fatalf("small file after a refusal: %d %s", r.status, r.raw)
	}
	if r := sign("203.0.113.2", 0); r.status != 200 {
		t.Fatalf("another client: %d %s", r.status, r.raw)
	}
}

// TestAbandonedUploadsAreSwept: a signed upload nobody completed is deleted once its signature has
// been expired for the grace period; completed uploads and live signatures are left alone.
func TestAbandonedUploadsAreSwept(t *testing.T) {
	s := newStack(t)
	store := s.blobStore()
	ctx := context.Background()
	seller := s.login("seller", "seller@example.com")
	signPut := func(path, token string) string {
		t.Helper()
		r := s.do("POST", path, token, map[string]string{"fileName": "a.png"})
		if r.status != 200 {
			t.Fatalf("sign: %d %s", r.status, r.raw)
		}
		signed := r.body.Data.(map[string]any)
		if status := s.putStream(signed["preSignedUrl"].(string), "image/png", 10, true); status != 200 {
			t.Fatalf("PUT: %d", status)
		}
		return signed["filePath"].(string)
	}
	abandonedPublic := signPut("/api/public/pre-signed-url", "")
	abandonedUser := signPut("/api/pre-signed-url", seller)
	completed := signPut("/api/pre-signed-url", seller)
	if r := s.do("POST", "/api/uploads/complete", seller, map[string]string{"filePath": completed}); r.status != 202 {
		t.Fatalf("complete: %d %s", r.status, r.raw)
	}
	live := signPut("/api/pre-signed-url", seller)
	// Time passes for all but the live one: their signatures expired two hours ago.
	if _, err := s.app.DB.Exec(`UPDATE upload_grants SET expires_at = now() - interval '2 hours' WHERE blob_key <> $1`, live); err != nil {
		t.Fatal(err)
	}
	n, err := s.app.uploads.SweepAbandoned(ctx)
	if err != nil || n != 2 {
		t.Fatalf("SweepAbandoned = %d, %v; want 2", n, err)
	}
	for key, want := range map[string]bool{abandonedPublic: false, abandonedUser: false, completed: true, live: true} {
		_, err := store.Stat(ctx, key)
		if got := err == nil; got != want {
			t.Errorf("%s kept %v, want %v (Stat: %v)", key, got, want, err)
		}
	}
	var grants []string
	if err := s.app.DB.Select(&grants, `SELECT blob_key FROM upload_grants`); err != nil || len(grants) != 1 || grants[0] != live {
		t.Fatalf("grants left = %v, %v; want only the live one", grants, err)
	}
	if r := s.do("POST", "/api/public/uploads/complete", "", map[string]string{"filePath": abandonedPublic}); r.status != 422 || r.body.Message != uploads.MsgNotUploaded {
		t.Fatalf("completing a swept upload: %d %s", r.status, r.raw)
	}
	// Within the grace nothing is swept.
	if _, err := s.app.DB.Exec(`UPDATE upload_grants SET expires_at = now() - interval '1 minute'`); err != nil {
		t.Fatal(err)
	}
	if n, err := s.app.uploads.SweepAbandoned(ctx); err != nil || n != 0 {
		t.Fatalf("sweep within the grace = %d, %v; want 0", n, err)
	}
	if _, err := store.Stat(ctx, live); err != nil {
		t.Fatalf("swept within the grace: %v", err)
	}
}
