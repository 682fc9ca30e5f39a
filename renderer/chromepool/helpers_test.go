package chromepool

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/platform/testinfra"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testinfra.RemoveUI()
	os.Exit(code)
}

// Colours of the test design: the mockup must show both.
var (
	designRed  = color.RGBA{220, 20, 30, 255}
	designBlue = color.RGBA{20, 50, 220, 255}
)

// designPNG is a 500 x 600 design: red on the left, blue on the right.
func designPNG(t testing.TB) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 500, 600))
	for y := range 600 {
		for x := range 500 {
			c := designRed
			if x >= 250 {
				c = designBlue
			}
			img.SetRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// solidPNG is a 500 x 600 design of one colour.
func solidPNG(t testing.TB, c color.RGBA) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 500, 600))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// startPool starts a pool over a site of dir, served through wrap (nil serves the site as is), in a
// TMPDIR of the test's own so that leftover profiles can be counted. It closes the pool at cleanup.
func startPool(t testing.TB, cfg Config, dir string, wrap func(http.Handler) http.Handler) (*Pool, string) {
	t.Helper()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	site, err := NewSite(dir)
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = site
	if wrap != nil {
		h = wrap(site)
	}
	srv := &http.Server{Handler: h}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	cfg.ExecPath = testinfra.Chromium(t)
	p, err := New(cfg, site, "http://"+ln.Addr().String(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, tmp
}

// assertNothingLeft checks, after Close, that no process of the browsers' groups runs (or lingers as a
// zombie) and that no profile folder is left in tmp.
func assertNothingLeft(t *testing.T, pids map[int]bool, tmp string) {
	t.Helper()
	if len(pids) == 0 {
		t.Fatal("no browser was seen running")
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		pid := atoi(e.Name())
		ppid, pgrp, ok := procStat(pid)
		if !ok {
			continue // gone meanwhile
		}
		state := "?"
		if stat, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
			state = strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))[0]
		}
		if pids[pgrp] {
			t.Errorf("process %s (state %s) of browser group %d still exists", e.Name(), state, pgrp)
		}
		if ppid == os.Getpid() && state == "Z" {
			t.Errorf("zombie child %s left unreaped: pgrp %d, cmd %s", e.Name(), pgrp, stateCmd(pid))
		}
	}
	left, err := filepath.Glob(filepath.Join(tmp, "pressroom-chrome-*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(left) > 0 {
		t.Errorf("profiles left behind: %v", left)
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// colourCount counts the sampled pixels (every other row and column) close in hue to want (near).
func colourCount(img image.Image, want color.RGBA) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			if near(color.RGBAModel.Convert(img.At(x, y)).(color.RGBA), want) {
				n++
			}
		}
	}
	return n
}

// designWidths is how many pixels of the design's colours the row at fraction at of the design's
// height holds (0 the design's top row, 1 its bottom row).
func designWidths(img image.Image, at float64) int {
	b := img.Bounds()
	inDesign := func(x, y int) bool {
		c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
		return near(c, designRed) || near(c, designBlue)
	}
	width := func(y int) int {
		n := 0
		for x := b.Min.X; x < b.Max.X; x++ {
			if inDesign(x, y) {
				n++
			}
		}
		return n
	}
	first, last := -1, -1
	for y := b.Min.Y; y < b.Max.Y; y++ {
		if width(y) > 0 {
			if first < 0 {
				first = y
			}
			last = y
		}
	}
	if first < 0 {
		return 0
	}
	return width(first + int(at*float64(last-first)))
}

// near reports whether c is close in hue to want, red or blue: want's dominant channel leads by a margin.
func near(c, want color.RGBA) bool {
	switch {
	case want.R > want.B:
		return c.R > 90 && int(c.R) > 2*int(c.G) && int(c.R) > 2*int(c.B)
	case want.B > want.R:
		return c.B > 90 && int(c.B) > 2*int(c.G) && int(c.B) > 2*int(c.R)
	}
	return false
}

func stateCmd(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return string(b)
}
