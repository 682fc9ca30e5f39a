package chromepool

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pressroom/pressroom/renderer/chromepool/models"
	"github.com/pressroom/pressroom/renderer/fonts"
)

// Pages Site serves: the 3D mockup page, and the invoice page PrintPDF prints.
const (
	PagePath        = "/mockup3d.html"
	InvoicePagePath = "/invoice.html"
)

// Paths under which Site serves models and the files of running renders.
const (
	modelsPrefix = "/mockup3d/models/"
	filesPrefix  = "/mockup3d/files/"
	// FontsPrefix serves the renderer's own fonts (renderer/fonts), so printed pages draw with the
	// outlines the print files use.
	FontsPrefix = "/fonts/"
)

// Site serves what the pool's tabs load, and nothing else: the built pages and their assets from the UI
// folder, the demo models, the renderer's fonts, and the design (and an optional model) of each running render under an
// unguessable path that stops answering when the render ends.
type Site struct {
	ui     http.Handler
	models map[string][]byte
	fonts  map[string][]byte

	mu    sync.Mutex
	files map[string]file
}

type file struct {
	data        []byte
	contentType string
}

// NewSite serves the UI built into uiDir (PRESSROOM_UI_DIR), which must hold mockup3d.html.
func NewSite(uiDir string) (*Site, error) {
	if _, err := os.Stat(filepath.Join(uiDir, PagePath)); err != nil {
		return nil, fmt.Errorf("chromepool: the UI folder %q has no built 3D page (PRESSROOM_UI_DIR; build ui/ first): %w", uiDir, err)
	}
	s := &Site{ui: http.FileServerFS(os.DirFS(uiDir)), models: map[string][]byte{}, fonts: map[string][]byte{}, files: map[string]file{}}
	for _, f := range fonts.Files() {
		s.fonts[f.Name] = f.Data
	}
	for _, name := range models.Names {
		glb, err := models.Model(name)
		if err != nil {
			return nil, err
		}
		s.models[name] = glb
	}
	return s, nil
}

// ServeHTTP serves GET and HEAD of the page, its assets, the models and the registered files.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.Path
	if path.Clean(p) != p {
		// No dot segments or doubled slashes: the prefixes below must mean what they say.
		http.NotFound(w, r)
		return
	}
	switch {
	case p == PagePath || p == InvoicePagePath || strings.HasPrefix(p, "/assets/"):
		s.ui.ServeHTTP(w, r)
	case strings.HasPrefix(p, FontsPrefix):
		data, ok := s.fonts[strings.TrimPrefix(p, FontsPrefix)]
		if !ok {
			http.NotFound(w, r)
			return
		}
		serveBytes(w, r, data, "font/ttf")
	case strings.HasPrefix(p, modelsPrefix):
		glb, ok := s.models[strings.TrimSuffix(strings.TrimPrefix(p, modelsPrefix), ".glb")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		serveBytes(w, r, glb, "model/gltf-binary")
	case strings.HasPrefix(p, filesPrefix):
		s.mu.Lock()
		f, ok := s.files[strings.TrimPrefix(p, filesPrefix)]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		serveBytes(w, r, f.data, f.contentType)
	default:
		http.NotFound(w, r)
	}
}

func serveBytes(w http.ResponseWriter, r *http.Request, data []byte, contentType string) {
	w.Header().Set("Content-Type", contentType)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
}

// ModelPath is the path of a demo model (one of models.Names), or "" when there is none by that name.
func (s *Site) ModelPath(name string) string {
	if _, ok := s.models[name]; !ok {
		return ""
	}
	return modelsPrefix + name + ".glb"
}

// register serves data under a new random path until release is called.
func (s *Site) register(data []byte, contentType string) (urlPath string, release func()) {
	var b [16]byte
	rand.Read(b[:])
	name := hex.EncodeToString(b[:])
	s.mu.Lock()
	s.files[name] = file{data: data, contentType: contentType}
	s.mu.Unlock()
	return filesPrefix + name, func() {
		s.mu.Lock()
		delete(s.files, name)
		s.mu.Unlock()
	}
}

// Listen serves the site on a free loopback port, for a pool in a process without the renderer's HTTP
// server (the CLI, tests). It returns the base URL and a func that stops serving.
func (s *Site) Listen() (baseURL string, stop func() error, err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("chromepool: listen for the 3D page: %w", err)
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() error {
		err := srv.Close()
		if serr := <-done; !errors.Is(serr, http.ErrServerClosed) {
			return serr
		}
		return err
	}, nil
}
