package mockup

import (
	"encoding/json"
	"testing"
)

// FuzzParse checks that Parse never panics, that an accepted template is valid through and through (a
// convex quad inside the photo, sizes within it), and that it survives a round trip through JSON. Seeds:
// the valid template of the tests and a few broken ones (f.Add below).
func FuzzParse(f *testing.F) {
	f.Add([]byte(goodTemplate))
	f.Add([]byte(`{"version": 1, "id": "x", "width": 16, "height": 16, "base": "b.png", "quad": [[0, 0], [16, 0], [16, 16], [0, 16]], "sizes": [16]}`))
	f.Add([]byte(`{"version": 1, "id": "x", "width": 16, "height": 16, "base": "b.png", "quad": [[0, 0], [16, 16], [16, 0], [0, 16]], "sizes": [16]}`))
	f.Add([]byte(`{"version": 1, "id": "x", "width": 16, "height": 16, "base": "b.png", "quad": [[0, 0], [1e308, 0], [16, 16], [0, 16]], "sizes": [16]}`))
	f.Add([]byte(`{"quad": [[0, 0, 0]]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tpl, err := Parse(data)
		if err != nil {
			if tpl != nil {
				t.Fatal("Parse returned a template with an error")
			}
			return
		}
		if err := checkConvex(tpl.Quad); err != nil {
			t.Fatalf("accepted a bad quad %v: %v", tpl.Quad, err)
		}
		if _, err := rectToQuad(100, 100, tpl.Quad).inverse(); err != nil {
			t.Fatalf("accepted a quad %v with a singular homography", tpl.Quad)
		}
		for _, s := range tpl.Sizes {
			if w, h := tpl.OutputSize(s); w < 1 || h < 1 || w > tpl.Width || h > tpl.Height {
				t.Fatalf("size %d gives %dx%d for a %dx%d photo", s, w, h, tpl.Width, tpl.Height)
			}
		}
		out, err := json.Marshal(tpl)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("re-parsing %s: %v", out, err)
		}
		if again.ID != tpl.ID || again.Quad != tpl.Quad || len(again.Sizes) != len(tpl.Sizes) {
			t.Fatalf("round trip changed the template: %s", out)
		}
	})
}
