package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/internal/benchdata"
	"github.com/pressroom/pressroom/renderer/pngmeta"
	"github.com/pressroom/pressroom/renderer/raster"
)

const valid = "../../schema/testdata/designs/valid"

func runCLI(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := Run(context.Background(), args, &out, &errOut)
	return out.String(), errOut.String(), err
}

// TestDPIGolden compares the dpi command's output with testdata/*.golden.json; PRESSROOM_UPDATE_GOLDEN=1
// rewrites them.
func TestDPIGolden(t *testing.T) {
	for _, name := range []string{"image", "image-rotated-clipped", "empty"} {
		t.Run(name, func(t *testing.T) {
			out, _, err := runCLI(t, "dpi", filepath.Join(valid, name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "dpi-"+name+".golden.json")
			if os.Getenv("PRESSROOM_UPDATE_GOLDEN") == "1" {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (PRESSROOM_UPDATE_GOLDEN=1 writes it)", err)
			}
			if out != string(want) {
				t.Errorf("dpi output:\n%s\nwant:\n%s", out, want)
			}
		})
	}
}

func TestExport(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name         string
		args         []string
		wantW, wantH int
	}{
		{"full size by default", []string{"export", filepath.Join(valid, "text-convert.json"), "OUT"}, 1200, 1500},
		{"--width after", []string{"export", filepath.Join(valid, "text-rotated.json"), "OUT", "--width", "300", "--level", "1"}, 300, 375},
		{"--width before", []string{"export", "--width=240", filepath.Join(valid, "text-rotated.json"), "OUT"}, 240, 300},
		{"--width export", []string{"export", filepath.Join(valid, "image.json"), "OUT", "--width", "export"}, 1000, 1250},
		{"--width preview", []string{"export", filepath.Join(valid, "text-convert.json"), "OUT", "--width", "preview"}, 1536, 1920},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, "out"+string(rune('a'+i))+".png")
			for j, a := range tt.args {
				if a == "OUT" {
					tt.args[j] = out
				}
			}
			stdout, _, err := runCLI(t, tt.args...)
			if err != nil {
				t.Fatal(err)
			}
			var rep raster.Report
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.Width != tt.wantW {
				t.Errorf("report %q (%v)", stdout, err)
			}
			f, err := os.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cfg, err := png.DecodeConfig(f)
			if err != nil || cfg.Width != tt.wantW || cfg.Height != tt.wantH {
				t.Errorf("output %dx%d (%v), want %dx%d", cfg.Width, cfg.Height, err, tt.wantW, tt.wantH)
			}
		})
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestExportReportsFontFallbackOnStderr(t *testing.T) {
	_, stderr, err := runCLI(t, "export", filepath.Join(valid, "text-font-url.json"), filepath.Join(t.TempDir(), "o.png"), "--width", "100")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "warning: text broken-font: font ../assets/not-a-font.ttf") {
		t.Errorf("stderr = %q, want the fallback", stderr)
	}
}

func TestStrip(t *testing.T) {
	dir := t.TempDir()
	plain := pngOf(t)
	withXMP, err := benchdata.InsertXMP(plain, 4096)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in.png")
	os.WriteFile(in, withXMP, 0o644)
	out := filepath.Join(dir, "out.png")
	stdout, _, err := runCLI(t, "strip", in, out)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	if !bytes.Equal(got, plain) {
		t.Errorf("stripped file (%d bytes) is not the file without its iTXt chunk (%d bytes)", len(got), len(plain))
	}
	if !strings.Contains(stdout, `"chunks_removed": 1`) {
		t.Errorf("stdout = %q", stdout)
	}
}

func pngOf(t *testing.T) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, benchdata.Pattern(16, 16)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	notPNG := filepath.Join(dir, "not.png")
	os.WriteFile(notPNG, []byte("hello"), 0o644)
	badDesign := filepath.Join(dir, "bad.json")
	os.WriteFile(badDesign, []byte(`{"version": 1, "printSpace": {"width": 10, "height": 10, "dpi": 300, "minDpi": 150},
		"objects": [{"type": "text", "id": "t", "text": "x", "fontSize": 10, "x": 0, "y": 0, "width": 5,
		"textWidth": "wide", "displayStyle": "color", "fill": "#000"}]}`), 0o644)
	truncated := filepath.Join(dir, "truncated.png")
	whole := pngOf(t)
	os.WriteFile(truncated, whole[:len(whole)-20], 0o644)        // no IEND, the last IDAT cut short
	missingArt := filepath.Join(valid, "design-md-example.json") // its src is a blob key not in the folder
	out := filepath.Join(dir, "out.png")
	tests := []struct {
		name    string
		args    []string
		wantErr error
		wantIn  string
	}{
		{"no command", nil, ErrUsage, "no command"},
		{"unknown command", []string{"frobnicate"}, ErrUsage, `unknown command "frobnicate"`},
		{"strip without output", []string{"strip", notPNG}, ErrUsage, "renderer strip IN.png OUT.png"},
		{"strip of a non-PNG", []string{"strip", notPNG, out}, nil, "strip " + notPNG},
		{"strip of a missing file", []string{"strip", filepath.Join(dir, "nope.png"), out}, os.ErrNotExist, "nope.png"},
		{"strip of a truncated PNG", []string{"strip", truncated, out}, pngmeta.ErrTruncated, "truncated.png"},
		{"dpi of an invalid design", []string{"dpi", badDesign}, design.ErrInvalid, `objects[0].textWidth: unknown value "wide"`},
		{"export of an invalid design", []string{"export", badDesign, out}, design.ErrInvalid, "textWidth"},
		{"export with a missing source", []string{"export", missingArt, out}, os.ErrNotExist, "image art-1"},
		{"export with a bad width", []string{"export", filepath.Join(valid, "empty.json"), out, "--width", "huge"}, ErrUsage, "--width"},
		{"export with an unknown flag", []string{"export", badDesign, out, "--height", "3"}, ErrUsage, "height"},
		{"export with a bad level", []string{"export", filepath.Join(valid, "empty.json"), out, "--level", "12"}, ErrUsage, "--level"},
		{"export with too many arguments", []string{"export", badDesign, out, "extra"}, ErrUsage, "renderer export"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runCLI(t, tt.args...)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantIn) {
				t.Errorf("err = %q, want it to mention %q", err, tt.wantIn)
			}
			if !oneLine(err) {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed run left %s behind (%v)", out, err)
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, ".out.png.*")); len(tmps) > 0 {
		t.Errorf("a failed run left temporary files behind: %v", tmps)
	}
}
