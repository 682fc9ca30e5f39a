package benchdata

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/image/font/gofont/gomono"
)

// TestAssetsUpToDate checks that the committed fixture assets are what WriteAssets makes, so the artwork in
// schema/testdata/designs/assets can always be regenerated rather than edited by hand.
func TestAssetsUpToDate(t *testing.T) {
	dir := t.TempDir()
	if err := WriteAssets(dir, gomono.TTF); err != nil {
		t.Fatal(err)
	}
	committed := "../../../schema/testdata/designs/assets"
	for _, name := range []string{"art.png", "pattern.png", "GoMono.ttf", "not-a-font.ttf"} {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(committed, name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from what WriteAssets makes; run go run ./renderer/internal/benchdata/gen -assets %s", name, committed)
			}
		})
	}
}

func TestInsertXMP(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, Pattern(8, 8)); err != nil {
		t.Fatal(err)
	}
	out, err := InsertXMP(buf.Bytes(), 10000)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(out) - buf.Len(); n < 10000-100 || n > 10000+200 {
		t.Errorf("inserted %d bytes, want about 10000", n)
	}
	if _, err := png.Decode(bytes.NewReader(out)); err != nil {
		t.Errorf("PNG with XMP does not decode: %v", err)
	}
	if _, err := InsertXMP([]byte("not a png"), 10); err == nil {
		t.Error("InsertXMP accepted a non-PNG")
	}
}
