package chromepool

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// TestSiteServesOnlyItsFiles checks what the tabs can load: the pages and their assets, the demo models,
// the renderer's fonts, a registered file until it is released, and nothing else of the UI folder or beyond.
func TestSiteServesOnlyItsFiles(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"mockup3d.html": "page", "invoice.html": "invoice", "assets/a.js": "js", "index.html": "app", "secret.txt": "no"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	site, err := NewSite(dir)
	if err != nil {
		t.Fatal(err)
	}
	path, release := site.register([]byte("design"), "image/png")
	get := func(method, p string) (int, string) {
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest(method, p, nil))
		body, _ := io.ReadAll(rec.Body)
		return rec.Code, string(body)
	}
	for _, tc := range []struct {
		method, path string
		code         int
		body         string
	}{
		{"GET", "/mockup3d.html", 200, "page"},
		{"GET", "/assets/a.js", 200, "js"},
		{"GET", "/index.html", 404, ""},
		{"GET", "/secret.txt", 404, ""},
		{"GET", "/assets/../secret.txt", 404, ""},
		{"GET", path, 200, "design"},
		{"POST", path, 405, ""},
		{"GET", "/mockup3d/models/mug.glb", 200, ""},
		{"GET", "/mockup3d/models/hat.glb", 404, ""},
		{"GET", "/invoice.html", 200, "invoice"},
		{"GET", "/fonts/Roboto-Regular.ttf", 200, ""},
		{"GET", "/fonts/secret.txt", 404, ""},
	} {
		code, body := get(tc.method, tc.path)
		if code != tc.code || (tc.body != "" && body != tc.body) {
			t.Errorf("%s %s: %d %q; want %d %q", tc.method, tc.path, code, body, tc.code, tc.body)
		}
	}
	release()
	if code, _ := get("GET", path); code != http.StatusNotFound {
		t.Errorf("released file: %d; want 404", code)
	}
	if _, err := NewSite(t.TempDir()); err == nil {
		t.Error("NewSite of a folder without mockup3d.html succeeded")
	}
}
