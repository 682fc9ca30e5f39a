package app

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/bff/uploads"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/pngmeta"
	"github.com/pressroom/pressroom/renderer/sanitize"
	"github.com/pressroom/pressroom/renderer/tasks"
	"github.com/pressroom/pressroom/renderer/variant"
	"github.com/pressroom/pressroom/renderer/webpenc"
)

// startRenderer runs the renderer's upload handlers on the stack's Redis and blob folder, counting
// WebP encodes; while refuse is set, every encode fails for good, as in a renderer built without cgo.
func (s *stack) startRenderer(encodes *atomic.Int32, refuse *atomic.Bool) {
	s.t.Helper()
	store, err := blob.New(s.cfg.Blob, false)
	if err != nil {
		s.t.Fatal(err)
	}
	san, err := sanitize.NewHandler(s.app.DB, store, imagelimit.DefaultConfig())
	if err != nil {
		s.t.Fatal(err)
	}
	vh, err := variant.NewHandler(store, imagelimit.DefaultConfig(), func(w io.Writer, img image.Image, q int) error {
		encodes.Add(1)
		if refuse.Load() {
			return fmt.Errorf("%w: %w", webpenc.ErrUnavailable, asynq.SkipRetry)
		}
		return webpenc.Encode(w, img, q)
	})
	if err != nil {
		s.t.Fatal(err)
	}
	s.serve(queue.Renderer, 2, map[string]asynq.Handler{tasks.TypeSanitize: san, tasks.TypeVariant: vh})
}

// local turns an absolute URL the bff handed out (signed blob URLs point at the configured public
// address) into one on the test server.
func (s *stack) local(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		s.t.Fatal(err)
	}
	return s.srv.URL + u.RequestURI()
}

func (s *stack) raw(method, rawURL, contentType string, body []byte) (*http.Response, []byte) {
	s.t.Helper()
	req, _ := http.NewRequest(method, rawURL, bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

func testPNG(t testing.TB, w, h, xmpBytes int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), uint8(x * y), 255})
		}
	}
	var buf bytes.Buffer
	(&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
	b := buf.Bytes()
	if xmpBytes == 0 {
		return b
	}
	xmp := append([]byte("XML:com.adobe.xmp\x00\x00\x00\x00\x00"), bytes.Repeat([]byte("<x:xmpmeta/> "), xmpBytes/13+1)...)
	var out bytes.Buffer
	out.Write(b[:33])
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(xmp)))
	out.Write(n[:])
	out.WriteString("iTXt")
	out.Write(xmp)
	binary.BigEndian.PutUint32(n[:], crc32.ChecksumIEEE(append([]byte("iTXt"), xmp...)))
	out.Write(n[:])
	out.Write(b[33:])
	return out.Bytes()
}

// pixels is the raw pixel buffer of a decoded PNG.
func pixels(img image.Image) []byte {
	switch m := img.(type) {
	case *image.RGBA:
		return m.Pix
	case *image.NRGBA:
		return m.Pix
	}
	panic(fmt.Sprintf("unexpected %T", img))
}

func hasTextChunk(b []byte) bool {
	for p := 8; p+8 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[p:]))
		if pngmeta.IsTextChunk(string(b[p+4 : p+8])) {
			return true
		}
		p += 12 + n
	}
	return false
}

// waitUpload polls GET /api/uploads/{id} until the upload leaves pending.
func (s *stack) waitUpload(token string, id float64) map[string]any {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := s.do("GET", fmt.Sprintf("/api/uploads/%d", int64(id)), token, nil)
		if r.status != 200 {
			s.t.Fatalf("upload status: %d %s", r.status, r.raw)
		}
		data := r.body.Data.(map[string]any)
		if data["status"] != "pending" {
			return data
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("upload %v still pending", id)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// signAndPut uploads body through the pre-signed URL and the ingest call, and returns the ingest's upload.
func (s *stack) signAndPut(token, name string, body []byte) map[string]any {
	s.t.Helper()
	r := s.do("POST", "/api/pre-signed-url", token, map[string]string{"fileName": name, "filePath": "artworks"})
	if r.status != 200 {
		s.t.Fatalf("sign: %d %s", r.status, r.raw)
	}
	signed := r.body.Data.(map[string]any)
	key := signed["filePath"].(string)
	if signed["fileUrl"] != "/api/files/"+key || signed["method"] != "PUT" {
		s.t.Fatalf("signed = %v", signed)
	}
	res, raw := s.raw("PUT", s.local(signed["preSignedUrl"].(string)), signed["contentType"].(string), body)
	if res.StatusCode != 200 {
		s.t.Fatalf("PUT: %d %s", res.StatusCode, raw)
	}
	r = s.do("POST", "/api/uploads/complete", token, map[string]string{"filePath": key, "fileName": name})
	if r.status != 202 {
		s.t.Fatalf("complete: %d %s", r.status, r.raw)
	}
	return r.body.Data.(map[string]any)
}

func TestUploads(t *testing.T) {
	if !webpenc.Available {
		t.Skip("built without cgo: no WebP encoder")
	}
	s := newStack(t)
	var encodes atomic.Int32
	var refuseEncodes atomic.Bool
	s.startRenderer(&encodes, &refuseEncodes)
	seller := s.login("seller", "seller@example.com")
	var sellerID int64
	s.app.DB.Get(&sellerID, `SELECT id FROM users WHERE email = 'seller@example.com'`)

	t.Run("pre-signed URL under the caller's prefix", func(t *testing.T) {
		r := s.do("POST", "/api/pre-signed-url", seller, map[string]string{"fileName": "My Art (final).PNG", "filePath": "../../etc"})
		if r.status != 200 || !r.body.Success {
			t.Fatalf("%d %s", r.status, r.raw)
		}
		key := r.body.Data.(map[string]any)["filePath"].(string)
		prefix := fmt.Sprintf("u/%d/etc/", sellerID)
		if !strings.HasPrefix(key, prefix) || !strings.HasSuffix(key, "-My-Art--final.png") || blob.ValidateKey(key) != nil {
			t.Fatalf("key %q, want under %s", key, prefix)
		}
	})

	t.Run("other file types are refused", func(t *testing.T) {
		for _, name := range []string{"notes.txt", "art.gif", "noext", "art.svg"} {
			r := s.do("POST", "/api/pre-signed-url", seller, map[string]string{"fileName": name})
			if r.status != 422 || r.body.Errors[0].Message != uploads.MsgFileType {
				t.Fatalf("%s: %d %s", name, r.status, r.raw)
			}
		}
	})

	t.Run("4500 px PNG with XMP: stripped, identical pixels, design variant as WebP", func(t *testing.T) {
		orig := testPNG(t, 4500, 120, 2<<20)
		up := s.signAndPut(seller, "big.png", orig)
		if up["status"] != "pending" {
			t.Fatalf("ingest = %v", up)
		}
		done := s.waitUpload(seller, up["id"].(float64))
		if done["status"] != "ready" || done["stripped"] != true || done["width"].(float64) != 4500 {
			t.Fatalf("upload = %v", done)
		}
		res, _ := s.raw("GET", s.srv.URL+done["fileUrl"].(string), "", nil)
		if res.StatusCode != 302 {
			t.Fatalf("file: %d", res.StatusCode)
		}
		res, stored := s.raw("GET", s.local(res.Header.Get("Location")), "", nil)
		if res.StatusCode != 200 || hasTextChunk(stored) {
			t.Fatalf("stored file: %d, text chunks %v", res.StatusCode, hasTextChunk(stored))
		}
		a, _ := png.Decode(bytes.NewReader(orig))
		b, _ := png.Decode(bytes.NewReader(stored))
		if !bytes.Equal(pixels(a), pixels(b)) {
			t.Fatal("pixels differ")
		}

		// Concurrent first requests of one variant render it once.
		var wg sync.WaitGroup
		results := make([]*http.Response, 6)
		bodies := make([][]byte, 6)
		for i := range results {
			wg.Go(func() {
				req, _ := http.NewRequest("GET", s.srv.URL+done["fileUrl"].(string)+"?variant=design", nil)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				defer res.Body.Close()
				results[i] = res
				bodies[i], _ = io.ReadAll(res.Body)
			})
		}
		wg.Wait()
		for i, res := range results {
			if res == nil || res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/webp" ||
				!strings.Contains(res.Header.Get("Cache-Control"), "immutable") || res.Header.Get("ETag") == "" {
				t.Fatalf("variant request %d: %+v %s", i, res, bodies[i])
			}
			if string(bodies[i][:4]) != "RIFF" || string(bodies[i][8:12]) != "WEBP" {
				t.Fatalf("variant is not WebP: %q", bodies[i][:16])
			}
		}
		if n := encodes.Load(); n != 1 {
			t.Fatalf("%d encodes for 6 concurrent first requests, want 1", n)
		}
		etag := results[0].Header.Get("ETag")
		res, _ = s.raw("GET", s.srv.URL+done["fileUrl"].(string)+"?variant=design", "", nil)
		if res.StatusCode != 200 || res.Header.Get("ETag") != etag {
			t.Fatalf("cached variant: %d", res.StatusCode)
		}
		r := s.do("GET", done["fileUrl"].(string)+"?variant=huge", "", nil)
		if r.status != 400 {
			t.Fatalf("unknown variant: %d %s", r.status, r.raw)
		}
	})

	t.Run("1000 px PNG is stored byte for byte", func(t *testing.T) {
		orig := testPNG(t, 1000, 50, 10_000)
		up := s.signAndPut(seller, "small.png", orig)
		done := s.waitUpload(seller, up["id"].(float64))
		res, _ := s.raw("GET", s.srv.URL+done["fileUrl"].(string), "", nil)
		_, stored := s.raw("GET", s.local(res.Header.Get("Location")), "", nil)
		if done["status"] != "ready" || done["stripped"] != false || !bytes.Equal(stored, orig) {
			t.Fatalf("upload = %v, stored identical: %v", done, bytes.Equal(stored, orig))
		}
	})

	t.Run("a file replaced through its signed URL after the check is not served", func(t *testing.T) {
		r := s.do("POST", "/api/pre-signed-url", seller, map[string]string{"fileName": "swap.png"})
		signed := r.body.Data.(map[string]any)
		put := func(body []byte) {
			res, raw := s.raw("PUT", s.local(signed["preSignedUrl"].(string)), "image/png", body)
			if res.StatusCode != 200 {
				t.Fatalf("PUT: %d %s", res.StatusCode, raw)
			}
		}
		put(testPNG(t, 100, 10, 0))
		r = s.do("POST", "/api/uploads/complete", seller, map[string]string{"filePath": signed["filePath"].(string)})
		done := s.waitUpload(seller, r.body.Data.(map[string]any)["id"].(float64))
		if res, _ := s.raw("GET", s.srv.URL+done["fileUrl"].(string), "", nil); res.StatusCode != 302 {
			t.Fatalf("checked file: %d", res.StatusCode)
		}
		put([]byte("not an image any more"))
		for _, q := range []string{"", "?variant=thumb"} {
			if r := s.do("GET", done["fileUrl"].(string)+q, "", nil); r.status != 409 || r.body.Message != uploads.MsgChanged {
				t.Fatalf("replaced file%s: %d %s", q, r.status, r.raw)
			}
		}
	})

	t.Run("a variant the renderer cannot make fails fast, again on retry", func(t *testing.T) {
		up := s.signAndPut(seller, "no-variant.png", testPNG(t, 200, 20, 0))
		done := s.waitUpload(seller, up["id"].(float64))
		if done["status"] != "ready" {
			t.Fatalf("upload = %v", done)
		}
		refuseEncodes.Store(true)
		defer refuseEncodes.Store(false)
		for range 2 {
			start := time.Now()
			r := s.do("GET", done["fileUrl"].(string)+"?variant=thumb", "", nil)
			if r.status != 422 || r.body.Message != uploads.MsgNoVariant {
				t.Fatalf("variant the renderer cannot encode: %d %s", r.status, r.raw)
			}
			t.Logf("refused in %s", time.Since(start))
		}
	})

	t.Run("a PNG cut short in its pixel data is refused on ingest, and never served", func(t *testing.T) {
		whole := testPNG(t, 600, 400, 0)
		up := s.signAndPut(seller, "short.png", whole[:len(whole)/2])
		done := s.waitUpload(seller, up["id"].(float64))
		if done["status"] != "rejected" || done["message"] != sanitize.MsgDamaged {
			t.Fatalf("upload = %v", done)
		}
		if r := s.do("GET", done["fileUrl"].(string)+"?variant=thumb", "", nil); r.status != http.StatusNotFound {
			t.Fatalf("variant of a refused upload: %d %s", r.status, r.raw)
		}
	})

	t.Run("renamed text file is refused with a clear message", func(t *testing.T) {
		up := s.signAndPut(seller, "notes.png", []byte("these are my notes\n"))
		done := s.waitUpload(seller, up["id"].(float64))
		if done["status"] != "rejected" || done["message"] != sanitize.MsgNotImage {
			t.Fatalf("upload = %v", done)
		}
		if r := s.do("GET", done["fileUrl"].(string), "", nil); r.status != 404 {
			t.Fatalf("rejected file served: %d", r.status)
		}
	})

	t.Run("multipart upload", func(t *testing.T) {
		orig := testPNG(t, 300, 30, 0)
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		mw.WriteField("type", "logo")
		mw.WriteField("id", "7")
		fw, _ := mw.CreateFormFile("file", "logo.png")
		fw.Write(orig)
		mw.Close()
		req, _ := http.NewRequest("POST", s.srv.URL+"/api/upload", &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Authorization", "Bearer "+seller)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 202 || !strings.Contains(string(raw), fmt.Sprintf(`"filePath":"u/%d/logo/7/`, sellerID)) {
			t.Fatalf("%d %s", res.StatusCode, raw)
		}
	})

	t.Run("multipart upload over the body limit", func(t *testing.T) {
		big := make([]byte, 2<<20) // over the 1M JSON body limit, under the upload cap
		copy(big, testPNG(t, 10, 10, 0))
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		fw, _ := mw.CreateFormFile("file", "big.png")
		fw.Write(big)
		mw.Close()
		req, _ := http.NewRequest("POST", s.srv.URL+"/api/upload", &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Authorization", "Bearer "+seller)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 202 {
			t.Fatalf("2 MB multipart: %d", res.StatusCode)
		}
	})

	t.Run("another user's key cannot be ingested", func(t *testing.T) {
		r := s.do("POST", "/api/uploads/complete", seller, map[string]string{"filePath": "u/999999/uploads/x.png"})
		if r.status != 422 || r.body.Message != uploads.MsgNotYours {
			t.Fatalf("%d %s", r.status, r.raw)
		}
		r = s.do("POST", "/api/uploads/complete", seller, map[string]string{"filePath": fmt.Sprintf("u/%d/uploads/never.png", sellerID)})
		if r.status != 422 || r.body.Message != uploads.MsgNotUploaded {
			t.Fatalf("%d %s", r.status, r.raw)
		}
	})

	t.Run("public upload under public/", func(t *testing.T) {
		r := s.do("POST", "/api/public/pre-signed-url", "", map[string]string{"fileName": "avatar.jpg", "filePath": "u/1/x"})
		if r.status != 200 {
			t.Fatalf("%d %s", r.status, r.raw)
		}
		key := r.body.Data.(map[string]any)["filePath"].(string)
		if !strings.HasPrefix(key, "public/") {
			t.Fatalf("public key %q", key)
		}
	})

	t.Run("list shows the seller's uploads", func(t *testing.T) {
		r := s.do("GET", "/api/uploads", seller, nil)
		if r.status != 200 || !strings.Contains(string(r.raw), `"total":`) || !strings.Contains(string(r.raw), "big.png") {
			t.Fatalf("%d %s", r.status, r.raw)
		}
	})

}
