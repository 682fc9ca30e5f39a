package mockup

import (
	"errors"
	"strings"
	"testing"
)

const goodTemplate = `{"version": 1, "id": "tee-front", "name": "T-shirt, front", "print_space": "front",
 "width": 2000, "height": 2000, "base": "base.png", "shadow": "shadow.png", "mask": "mask.png", "tint": "tint.png",
 "displacement": "displacement.png", "displacement_scale": 6, "color": "#fff",
 "quad": [[700, 520], [1300, 520], [1300, 1240], [700, 1240]], "sizes": [2000, 500]}`

func TestParse(t *testing.T) {
	tpl, err := Parse([]byte(goodTemplate))
	if err != nil {
		t.Fatal(err)
	}
	if tpl.ID != "tee-front" || tpl.Quad[2] != (Point{1300, 1240}) || len(tpl.Sizes) != 2 || tpl.Fingerprint() == "" {
		t.Errorf("parsed %+v", tpl)
	}
	if w, h := tpl.OutputSize(500); w != 500 || h != 500 {
		t.Errorf("OutputSize(500) = %dx%d", w, h)
	}
	other, err := Parse([]byte(strings.Replace(goodTemplate, `"displacement_scale": 6`, `"displacement_scale": 5`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if other.Fingerprint() == tpl.Fingerprint() {
		t.Error("an edited template has the same fingerprint")
	}
}

func TestParseErrors(t *testing.T) {
	edit := func(old, new string) string {
		if !strings.Contains(goodTemplate, old) {
			t.Fatalf("%q not in the template", old)
		}
		return strings.Replace(goodTemplate, old, new, 1)
	}
	tests := []struct {
		name    string
		json    string
		wantErr error
		wantIn  string
	}{
		{"quad outside the photo", edit("[1300, 1240]", "[2100, 1240]"), ErrInvalidTemplate, "quad[2] (2100, 1240) is outside the 2000x2000 photo"},
		{"quad with a negative corner", edit("[700, 520]", "[-1, 520]"), ErrInvalidTemplate, "quad[0]"},
		{"quad outside the crop", edit(`"sizes"`, `"crop": {"x": 0, "y": 0, "width": 1000, "height": 1000}, "sizes"`), ErrInvalidTemplate, "outside the crop"},
		{"concave quad", edit("[1300, 520]", "[900, 900]"), ErrInvalidTemplate, "not convex"},
		{"crossed quad", edit("[[700, 520], [1300, 520], [1300, 1240], [700, 1240]]", "[[700, 520], [1300, 1240], [1300, 520], [700, 1240]]"), ErrInvalidTemplate, "quad"},
		{"quad corners in a line", edit("[[700, 520], [1300, 520], [1300, 1240], [700, 1240]]", "[[700, 520], [1000, 520], [1300, 520], [700, 1240]]"), ErrInvalidTemplate, "in a line"},
		{"quad with three numbers", edit("[700, 520]", "[700, 520, 1]"), ErrInvalidTemplate, "point [700, 520, 1]: want [x, y]"},
		{"unknown field", edit(`"sizes"`, `"shading": "s.png", "sizes"`), ErrInvalidTemplate, `unknown field "shading"`},
		{"3D template", edit(`"sizes"`, `"glb": "tee.glb", "sizes"`), ErrNotFlat, "tee.glb"},
		{"size larger than the photo", edit("[2000, 500]", "[3000]"), ErrInvalidTemplate, "sizes[0] 3000: want 16..2000"},
		{"no sizes", edit("[2000, 500]", "[]"), ErrInvalidTemplate, "sizes: none"},
		{"bad colour", edit(`"#fff"`, `"red"`), ErrInvalidTemplate, `color: "red": want #rgb or #rrggbb`},
		{"no base", edit(`"base.png"`, `""`), ErrInvalidTemplate, "base: missing"},
		{"wrong version", edit(`"version": 1`, `"version": 2`), ErrInvalidTemplate, "version 2"},
		{"bad id", edit(`"tee-front"`, `"../etc"`), ErrInvalidTemplate, "id"},
		{"photo too large", edit(`"width": 2000`, `"width": 20000`), ErrInvalidTemplate, "photo size 20000x2000"},
		{"displacement without scale", edit(`"displacement_scale": 6`, `"displacement_scale": 0`), ErrInvalidTemplate, "without a displacement_scale"},
		{"displacement too large", edit(`"displacement_scale": 6`, `"displacement_scale": 100`), ErrInvalidTemplate, "displacement_scale 100"},
		{"crop outside the photo", edit(`"sizes"`, `"crop": {"x": 100, "y": 0, "width": 2000, "height": 2000}, "sizes"`), ErrInvalidTemplate, "crop"},
		{"trailing data", goodTemplate + "{}", ErrInvalidTemplate, "after the template"},
		{"not JSON", "hello", ErrInvalidTemplate, "invalid character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.json))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantIn) {
				t.Errorf("err = %q, want it to mention %q", err, tt.wantIn)
			}
		})
	}
}

func TestCropOutputSize(t *testing.T) {
	tpl, err := Parse([]byte(strings.Replace(goodTemplate, `"sizes": [2000, 500]`,
		`"crop": {"x": 400, "y": 200, "width": 1200, "height": 1600}, "sizes": [1600, 500]`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if w, h := tpl.OutputSize(500); w != 375 || h != 500 {
		t.Errorf("OutputSize(500) of a 1200x1600 crop = %dx%d, want 375x500", w, h)
	}
}

func TestParseColor(t *testing.T) {
	for in, want := range map[string][3]uint8{"": {255, 255, 255}, "#fff": {255, 255, 255}, "#1f3a68": {0x1f, 0x3a, 0x68}, "#C81E3C": {0xc8, 0x1e, 0x3c}} {
		c, err := ParseColor(in)
		if err != nil || [3]uint8{c.R, c.G, c.B} != want || c.A != 255 {
			t.Errorf("ParseColor(%q) = %v, %v; want %v", in, c, err, want)
		}
	}
	for _, in := range []string{"fff", "#ffff", "#ggg", "#12345", "red"} {
		if _, err := ParseColor(in); err == nil {
			t.Errorf("ParseColor(%q) accepted", in)
		}
	}
}
