package export

import (
	"context"
	"testing"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/internal/benchdata"
	"github.com/pressroom/pressroom/renderer/raster"
)

// BenchmarkBaseSource measures what a design with custom objects adds to its export: the base source
// of the reference design (a 4500x5400 artwork scaled to 4000x4800, its two texts made custom), drawn
// without the texts at 1500x1800 and encoded as PNG. The print file itself is raster's
// BenchmarkExport/4500x5400.
//
//	go test ./renderer/export -run '^$' -bench BaseSource -cpu 1
func BenchmarkBaseSource(b *testing.B) {
	dir := b.TempDir()
	if err := benchdata.WriteReference(dir); err != nil {
		b.Fatal(err)
	}
	doc, err := design.Parse([]byte(benchdata.ReferenceDesign()))
	if err != nil {
		b.Fatal(err)
	}
	for _, o := range doc.Objects {
		if t, ok := o.(*design.TextObject); ok {
			t.IsCustom = true
		}
	}
	opt := raster.Options{Loader: raster.DirLoader{Dir: dir}}
	for b.Loop() {
		if _, err := baseSource(context.Background(), doc, opt); err != nil {
			b.Fatal(err)
		}
	}
}
