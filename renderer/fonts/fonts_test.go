package fonts

import (
	"testing"

	"golang.org/x/image/font/sfnt"
)

func TestDefault(t *testing.T) {
	f, err := Default()
	if err != nil {
		t.Fatalf("Default: %v", err)
	}
	var buf sfnt.Buffer
	name, err := f.Name(&buf, sfnt.NameIDFamily)
	if err != nil {
		t.Fatalf("family name: %v", err)
	}
	if name != DefaultFamily {
		t.Errorf("family = %q, want %q", name, DefaultFamily)
	}
	for _, r := range "Hello ÄÖÜ ß 0123" {
		if idx, err := f.GlyphIndex(&buf, r); err != nil || idx == 0 {
			t.Errorf("no glyph for %q (err %v)", r, err)
		}
	}
	if again, _ := Default(); again != f {
		t.Error("Default parsed the font twice")
	}
}

func TestContentType(t *testing.T) {
	for key, want := range map[string]string{
		"fonts/7/a1b2.otf":             "font/otf",
		"fonts/7/a1b2.ttf":             "font/ttf",
		PlatformPrefix + "Lobster.ttf": "font/ttf",
	} {
		if got := ContentType(key); got != want {
			t.Errorf("ContentType(%q) = %q, want %q", key, got, want)
		}
	}
}
