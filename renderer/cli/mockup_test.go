package cli

import (
	"encoding/json"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/webp"

	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/mockup/demo"
	"github.com/pressroom/pressroom/renderer/webpenc"
)

// demoTemplate writes the tshirt-front demo template with a 256 px photo into a temporary folder and
// returns its template.json.
func demoTemplate(t *testing.T) string {
	t.Helper()
	set, err := demo.Draw("tshirt-front", 256)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := set.Write(dir); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "tshirt-front", "template.json")
}

func TestMockup(t *testing.T) {
	tpl := demoTemplate(t)
	dir := t.TempDir()
	design := filepath.Join(valid, "image.json")

	out := filepath.Join(dir, "m.png")
	stdout, _, err := runCLI(t, "mockup", design, "--template", tpl, out, "--color", "#1f3a68", "--size", "256")
	if err != nil {
		t.Fatal(err)
	}
	var rep mockupReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.Width != 256 || rep.Template != "tshirt-front" || rep.PrintWidth != 1000 {
		t.Errorf("report %q (%v)", stdout, err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() != 256 || img.Bounds().Dy() != 256 {
		t.Fatalf("output %v, %v", img.Bounds(), err)
	}
	// the shirt's body, outside the print area, is the product colour times the white base's shading
	if r, g, b, _ := img.At(128, 215).RGBA(); !(b > r && b > g && r>>8 < 0x40) {
		t.Errorf("shirt below the print is %d,%d,%d, want dark blue", r>>8, g>>8, b>>8)
	}

	if !webpenc.Available {
		return
	}
	outW := filepath.Join(dir, "m.webp")
	if _, _, err := runCLI(t, "mockup", "--size=256", "--template="+tpl, design, outW); err != nil {
		t.Fatal(err)
	}
	fw, err := os.Open(outW)
	if err != nil {
		t.Fatal(err)
	}
	defer fw.Close()
	if cfg, err := webp.DecodeConfig(fw); err != nil || cfg.Width != 256 {
		t.Errorf("webp output %+v, %v", cfg, err)
	}
}

func TestMockupBadInput(t *testing.T) {
	tpl := demoTemplate(t)
	dir := t.TempDir()
	design := filepath.Join(valid, "image.json")
	out := filepath.Join(dir, "out.png")

	noMask := filepath.Join(dir, "no-mask")
	os.MkdirAll(noMask, 0o755)
	data, _ := os.ReadFile(tpl)
	os.WriteFile(filepath.Join(noMask, "template.json"), data, 0o644) // its images are not there
	outside := filepath.Join(dir, "outside.json")
	os.WriteFile(outside, []byte(strings.Replace(string(data), `"width": 256`, `"width": 100`, 1)), 0o644)
	threeD := filepath.Join(dir, "3d.json")
	os.WriteFile(threeD, []byte(strings.Replace(string(data), `"sizes"`, `"glb": "tee.glb", "sizes"`, 1)), 0o644)

	tests := []struct {
		name    string
		args    []string
		wantErr error
		wantIn  string
	}{
		{"no template", []string{"mockup", design, out}, ErrUsage, "--template TEMPLATE.json"},
		{"missing template file", []string{"mockup", design, "--template", filepath.Join(dir, "nope.json"), out}, os.ErrNotExist, "nope.json"},
		{"template images missing", []string{"mockup", design, "--template", filepath.Join(noMask, "template.json"), out, "--size", "256"}, os.ErrNotExist, `base "base.png"`},
		{"quad outside the photo", []string{"mockup", design, "--template", outside, out}, mockup.ErrInvalidTemplate, "outside the 100x256 photo"},
		{"3D template", []string{"mockup", design, "--template", threeD, out}, mockup.ErrNotFlat, "Chrome pool"},
		{"size the template lacks", []string{"mockup", design, "--template", tpl, out}, mockup.ErrInvalidOptions, "size 2000: template tshirt-front has sizes [256]"},
		{"bad colour", []string{"mockup", design, "--template", tpl, out, "--size", "256", "--color", "navy"}, mockup.ErrInvalidOptions, `"navy"`},
		{"bad size", []string{"mockup", design, "--template", tpl, out, "--size", "huge"}, ErrUsage, `--size "huge"`},
		{"unknown output format", []string{"mockup", design, "--template", tpl, filepath.Join(dir, "out.jpg")}, ErrUsage, "out.jpg: unknown output format"},
		{"missing design", []string{"mockup", filepath.Join(dir, "none.json"), "--template", tpl, out}, os.ErrNotExist, "none.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := runCLI(t, tt.args...)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, tt.wantErr) {
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
}
