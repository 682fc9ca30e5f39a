package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/pressroom/pressroom/"

// pixelWork is what no binary but the renderer may link: the Chrome driver, the cgo WebP encoder,
// the WebP decoder, and the renderer's pixel pipeline and Chrome pool.
var pixelWork = []string{
	"github.com/chromedp/",
	"github.com/chai2010/webp",
	"golang.org/x/image/webp",
	module + "renderer/pngenc",
	module + "renderer/pngdec",
	module + "renderer/imagelimit",
	module + "renderer/raster",
	module + "renderer/blobsource",
	module + "renderer/mockup",
	module + "renderer/webpenc",
	module + "renderer/tiles",
	module + "renderer/chromepool",
	module + "renderer/svgraster",
	"github.com/srwiley/rasterx",
	"golang.org/x/image/vector",
}

// codecs are the image decoders and resamplers beyond PNG that only the renderer needs: the bff
// links image/png for the two-factor QR code and the demo seed, and the fonts' glyph packages of
// x/image, but no JPEG, GIF or WebP codec and no resampler.
var codecs = []string{
	"image/jpeg",
	"image/gif",
	"golang.org/x/image/webp",
	"golang.org/x/image/vp8",
	"golang.org/x/image/vp8l",
	"golang.org/x/image/draw",
	"golang.org/x/image/bmp",
	"golang.org/x/image/tiff",
	"github.com/disintegration/imaging",
}

// pureRenderer lists the renderer packages other binaries may link: the task contracts, the pure
// rules the bff validates with (the design document, the DPI rule, the fonts a document may name, the
// SVG cliparts it refuses before storing them) and the products' outlines the bff serves to the editor
// (data the demo mockups are drawn from).
// Every other renderer package, a new one included, is the renderer's alone.
var pureRenderer = []string{
	module + "renderer/tasks",
	module + "renderer/design",
	module + "renderer/dpi",
	module + "renderer/fonts",
	module + "renderer/imageapi",
	module + "renderer/outlines",
	module + "renderer/svgdoc",
}

// rule is what one binary may link.
type rule struct {
	// main is the binary's package, relative to the module root.
	main string
	// optional binaries are checked once their folder exists.
	optional bool
	// banned are import path prefixes the binary must not reach.
	banned []string
	// allowed are exceptions to banned (exact paths or prefixes).
	allowed []string
	// tolerated are packages whose own imports are not followed, each with the reason: what only
	// they pull in is let through until their work moves where it belongs.
	tolerated map[string]string
}

// DependencyRules are the rules of every binary.
var DependencyRules = []rule{
	{
		main:    "bff/cmd/bff",
		banned:  slices.Concat([]string{module + "renderer/", module + "worker/", module + "storefront/"}, pixelWork, codecs),
		allowed: append([]string{module + "worker/tasks"}, pureRenderer...),
	},
	{
		main:     "storefront/cmd/storefront",
		optional: true,
		banned:   slices.Concat([]string{module + "bff/", module + "renderer/", module + "worker/"}, pixelWork, codecs),
		allowed:  append([]string{module + "worker/tasks"}, pureRenderer...),
	},
	{
		// The worker runs its own handlers; the renderer's are not its to link.
		main:    "worker/cmd/worker",
		banned:  slices.Concat([]string{module + "bff/", module + "renderer/", module + "storefront/"}, pixelWork, codecs),
		allowed: pureRenderer,
	},
	{
		main:   "renderer/cmd/renderer",
		banned: []string{module + "bff/", module + "worker/", module + "storefront/"},
	},
}

// pkg is what `go list -json` tells of a package.
type pkg struct {
	ImportPath string
	Imports    []string
	Standard   bool
}

func TestBinariesLinkOnlyWhatTheyMay(t *testing.T) {
	root := moduleRoot(t)
	for _, r := range DependencyRules {
		t.Run(r.main, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(root, r.main)); errors.Is(err, os.ErrNotExist) && r.optional {
				t.Skipf("%s does not exist yet", r.main)
			}
			graph := imports(t, root, "./"+r.main)
			for _, chain := range r.violations(module+r.main, graph) {
				t.Errorf("%s must not link %s:\n\t%s", r.main, chain[len(chain)-1], strings.Join(chain, "\n\t-> "))
			}
		})
	}
}

// TestRulesCatchAViolation checks the rule reading on a made-up graph, so that a rule that can no
// longer fail is noticed.
func TestRulesCatchAViolation(t *testing.T) {
	r := rule{
		banned:    append([]string{module + "renderer/"}, pixelWork...),
		allowed:   pureRenderer,
		tolerated: map[string]string{module + "bff/imageproxy": "a tolerated package"},
	}
	graph := map[string][]string{
		module + "bff/cmd/bff":     {module + "bff/app"},
		module + "bff/app":         {module + "renderer/tasks", module + "bff/imageproxy", module + "bff/seed"},
		module + "bff/imageproxy":  {module + "renderer/webpenc"},
		module + "bff/seed":        {module + "renderer/mockup"},
		module + "renderer/mockup": {"github.com/chromedp/chromedp"},
	}
	got := r.violations(module+"bff/cmd/bff", graph)
	want := [][]string{
		{module + "bff/cmd/bff", module + "bff/app", module + "bff/seed", module + "renderer/mockup"},
	}
	if len(got) != len(want) || strings.Join(got[0], " ") != strings.Join(want[0], " ") {
		t.Fatalf("violations = %q, want %q (the first banned package on each path, the tolerated one skipped)", got, want)
	}
}

// violations walks the import graph from main and answers, for every banned package it reaches, the
// shortest chain of imports leading there. It does not walk past a banned package (its own imports
// are its business) nor into a tolerated one.
func (r rule) violations(main string, graph map[string][]string) [][]string {
	from := map[string]string{main: ""}
	queue := []string{main}
	var out [][]string
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p != main && r.bans(p) {
			chain := []string{p}
			for q := from[p]; q != ""; q = from[q] {
				chain = append([]string{q}, chain...)
			}
			out = append(out, chain)
			continue
		}
		if _, ok := r.tolerated[p]; ok {
			continue
		}
		for _, q := range graph[p] {
			if _, seen := from[q]; !seen {
				from[q] = p
				queue = append(queue, q)
			}
		}
	}
	return out
}

func (r rule) bans(path string) bool {
	return matches(path, r.banned) && !matches(path, r.allowed)
}

// matches tells whether path is one of prefixes or lies under one: a prefix ending in "/" matches
// everything under it, another one the package itself and its subpackages.
func matches(path string, prefixes []string) bool {
	for _, p := range prefixes {
		if path == p || strings.HasPrefix(path, strings.TrimSuffix(p, "/")+"/") {
			return true
		}
	}
	return false
}

// imports is the import graph of pattern's package and its dependencies, standard library left out,
// as the go command builds the binary.
func imports(t *testing.T, root, pattern string) map[string][]string {
	t.Helper()
	cmd := exec.Command(goTool(t), "list", "-deps", "-json=ImportPath,Imports,Standard", pattern)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pattern, err, stderr.String())
	}
	graph := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if !p.Standard {
			graph[p.ImportPath] = p.Imports
		}
	}
	return graph
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command(goTool(t), "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		t.Fatalf("find the module: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

func goTool(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	p := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("no go command on PATH or in GOROOT: %v", err)
	}
	return p
}
