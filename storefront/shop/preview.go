package shop

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strings"
	"sync"

	"github.com/pressroom/pressroom/renderer/fonts"
)

// templateQuads reads where the print lands on a flat mockup template's photo, for the
// personalization preview: the template JSON's quad, as fractions of the mockup's width and height
// (of its crop when it has one). Templates do not change under their key, so each is read once.
type templateQuads struct {
	read  func(ctx context.Context, key string) (io.ReadCloser, error)
	mu    sync.Mutex
	quads map[string][4][2]float64
}

// maxTemplateJSON bounds a template JSON read: a real one is well under a kilobyte.
const maxTemplateJSON = 64 << 10

func (t *templateQuads) quad(ctx context.Context, key string) ([4][2]float64, error) {
	t.mu.Lock()
	q, ok := t.quads[key]
	t.mu.Unlock()
	if ok {
		return q, nil
	}
	rc, err := t.read(ctx, key)
	if err != nil {
		return q, err
	}
	defer rc.Close()
	var tpl struct {
		Width, Height int
		Quad          [4][2]float64
		Crop          *struct{ X, Y, Width, Height int }
	}
	if err := json.NewDecoder(io.LimitReader(rc, maxTemplateJSON)).Decode(&tpl); err != nil {
		return q, fmt.Errorf("template %s: %w", key, err)
	}
	x, y, w, h := 0, 0, tpl.Width, tpl.Height
	if c := tpl.Crop; c != nil {
		x, y, w, h = c.X, c.Y, c.Width, c.Height
	}
	if w <= 0 || h <= 0 {
		return q, fmt.Errorf("template %s: no size", key)
	}
	for i, p := range tpl.Quad {
		q[i] = [2]float64{(p[0] - float64(x)) / float64(w), (p[1] - float64(y)) / float64(h)}
	}
	t.mu.Lock()
	t.quads[key] = q
	t.mu.Unlock()
	return q, nil
}

// readFileIn reads name inside dir.
func readFileIn(dir, name string) ([]byte, error) {
	return fs.ReadFile(os.DirFS(dir), name)
}

// assetsPrefix is where the UI build's scripts are served, on any host, as the bff serves them.
const assetsPrefix = "/assets/"

// serveAssets serves the UI build's hashed files under /assets/ (the personalization preview and the
// chunks it imports), cached for a year: their names change with their content.
func (s *Server) serveAssets(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if s.cfg.UIDir == "" || !strings.HasPrefix(name, "assets/") || !fs.ValidPath(name) {
		http.NotFound(w, r)
		return
	}
	f, err := os.DirFS(s.cfg.UIDir).Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || info.IsDir() {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	http.ServeContent(w, r, info.Name(), info.ModTime(), f.(io.ReadSeeker))
}

// defaultFontsPath is where the editor's drawing code loads the default font from (editor/fonts
// loadServedFonts): the storefront answers it on any host, with the renderer's own embedded files,
// as the bff does for the dashboard.
const defaultFontsPath = "/api/fonts"

// serveDefaultFonts answers GET /api/fonts (the embedded fonts) and GET /api/fonts/{file} (one of them).
func (s *Server) serveDefaultFonts(w http.ResponseWriter, r *http.Request) {
	type served struct {
		Family  string `json:"family"`
		URL     string `json:"url"`
		FontURL string `json:"font_url"`
	}
	if r.URL.Path == defaultFontsPath {
		var list []served
		for _, f := range fonts.Files() {
			list = append(list, served{Family: f.Family, URL: defaultFontsPath + "/" + f.Name})
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		writeJSON(w, http.StatusOK, envelope{Success: true, Data: list})
		return
	}
	name := strings.TrimPrefix(r.URL.Path, defaultFontsPath+"/")
	for _, f := range fonts.Files() {
		if f.Name == name {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			w.Header().Set("Content-Type", "font/ttf")
			w.Write(f.Data)
			return
		}
	}
	http.NotFound(w, r)
}
