package svgdoc

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: whatever the bytes, Parse answers a doc or a *Refusal (never a panic, never another
// error), and a clean file reads back to exactly itself, within every limit. The seed corpus is in
// testdata/fuzz/FuzzParse; the clipart fixtures of package svgraster are added as seeds too.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("../svgraster/testdata/*.svg")
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Parse(data)
		if err != nil {
			var ref *Refusal
			if !errors.As(err, &ref) || ref.Error() == "" {
				t.Fatalf("Parse error %v is no refusal", err)
			}
			return
		}
		if len(doc.Items) > MaxElements || !(doc.Width > 0 && doc.Height > 0) {
			t.Fatalf("doc out of its limits: %d items, %v x %v", len(doc.Items), doc.Width, doc.Height)
		}
		again, err := Parse(doc.Clean)
		if err != nil {
			t.Fatalf("clean file refused: %v\n%s", err, doc.Clean)
		}
		if !bytes.Equal(again.Clean, doc.Clean) {
			t.Fatalf("clean file changed on reading it again:\n%s\n%s", doc.Clean, again.Clean)
		}
	})
}
