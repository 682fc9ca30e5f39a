package proxyimage_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/renderer/imageapi"
	"github.com/pressroom/pressroom/renderer/membudget"
	"github.com/pressroom/pressroom/renderer/proxyimage"
)

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), 200, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestEndpointRefusesStrangers drives the endpoint on a real HTTP server: only the bff's key gets
// work done, bodies over the cap are refused before they are read, and the pixel cap holds whatever
// the caller asks for.
func TestEndpointRefusesStrangers(t *testing.T) {
	const key = "a renderer key of at least thirty-two bytes"
	img := pngOf(t, 300, 200) // 60 000 pixels
	big := pngOf(t, 400, 300) // 120 000 pixels
	maxBytes := max(len(img), len(big))
	over := append(bytes.Clone(img), make([]byte, maxBytes+1-len(img))...) // one byte over the cap
	budget, err := membudget.New(64 << 20)
	if err != nil {
		t.Fatal(err)
	}
	h, err := proxyimage.New(proxyimage.Config{Key: key, MaxBytes: int64(maxBytes), MaxPixels: 100_000, Concurrency: 1}, budget, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle(imageapi.Path, h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	tests := []struct {
		name    string
		auth    string
		query   string
		body    io.Reader
		status  int
		refusal string
		ctype   string
	}{
		{"no key", "", "variant=thumb", bytes.NewReader(img), 401, imageapi.RefusedKey, ""},
		{"wrong key", "Bearer " + key + "x", "variant=thumb", bytes.NewReader(img), 401, imageapi.RefusedKey, ""},
		{"development key", "Bearer " + imageapi.DevKey, "variant=thumb", bytes.NewReader(img), 401, imageapi.RefusedKey, ""},
		{"key without scheme", key, "variant=thumb", bytes.NewReader(img), 401, imageapi.RefusedKey, ""},
		{"thumbnail", "Bearer " + key, "variant=thumb", bytes.NewReader(img), 200, "", "image/jpeg"},
		{"original is checked only", "Bearer " + key, "variant=original", bytes.NewReader(img), 204, "", "image/png"},
		{"body over the cap", "Bearer " + key, "variant=thumb", bytes.NewReader(over), 413, imageapi.RefusedBytes, ""},
		// No Content-Length: the cap holds on the bytes read.
		{"streamed body over the cap", "Bearer " + key, "variant=thumb", io.MultiReader(bytes.NewReader(over)), 413, imageapi.RefusedBytes, ""},
		{"caller's pixel cap", "Bearer " + key, "variant=thumb&max_pixels=1000", bytes.NewReader(img), 413, imageapi.RefusedPixels, ""},
		{"caller cannot raise the cap", "Bearer " + key, "variant=thumb&max_pixels=1000000000", bytes.NewReader(big), 413, imageapi.RefusedPixels, ""},
		{"not an image", "Bearer " + key, "variant=thumb", strings.NewReader("<svg/>"), 415, imageapi.RefusedType, ""},
		{"unknown variant", "Bearer " + key, "variant=huge", bytes.NewReader(img), 400, imageapi.RefusedInput, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, srv.URL+imageapi.Path+"?"+tc.query, tc.body)
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status || (tc.refusal != "" && resp.Header.Get(imageapi.RefusalHeader) != tc.refusal) {
				t.Fatalf("got %d %q %q, want %d %q", resp.StatusCode, resp.Header.Get(imageapi.RefusalHeader), body, tc.status, tc.refusal)
			}
			if tc.ctype != "" && resp.Header.Get("Content-Type") != tc.ctype {
				t.Errorf("Content-Type %q, want %q", resp.Header.Get("Content-Type"), tc.ctype)
			}
			if tc.status == 200 {
				cfg, _, err := image.DecodeConfig(bytes.NewReader(body))
				if err != nil || cfg.Width != imageapi.ThumbWidth || cfg.Height > imageapi.ThumbHeight {
					t.Errorf("thumbnail %dx%d (%v), want 160 wide within the box", cfg.Width, cfg.Height, err)
				}
			}
		})
	}
}
