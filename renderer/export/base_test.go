package export

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// plain is document without its custom object: the same text, printed as the seller wrote it.
func plain(w, h int, src string) string {
	return strings.Replace(document(w, h, src), `"isCustom": true`, `"isCustom": false`, 1)
}

// TestBaseSource: a design with a custom text gets, beside its print file, a base source: the design
// without the text at half its 3000 px width (1500 px, the widest a base source is). Measured against
// the print file halved (2x2 averages): inside the text's box (the opaque pixels of the print's top
// band, above the artwork) the print has the text and the base nothing; everywhere else they match:
// measured equal (0 levels of 255 per channel on average and at most, as the artwork's edges fall on
// whole pixels at both scales), held to at most 0.05 on average and 2 at most.
func TestBaseSource(t *testing.T) {
	f := newFixture(t)
	id := f.design(t, "front", document(3000, 3600, "u/1/art.png"), 1)
	if err := f.run(t, id, 1); err != nil {
		t.Fatal(err)
	}
	key := tasks.PrintKey(f.campaignID, id, 1)
	print, base := premultiplied(f.decode(t, key)), premultiplied(f.decode(t, tasks.BaseSourceKey(key)))
	if b := base.Bounds(); b.Dx() != 1500 || b.Dy() != 1800 {
		t.Fatalf("base source is %v, want 1500x1800", b)
	}
	// The text's box: where the print is opaque in the band above the artwork (which starts at 900).
	box := image.Rectangle{}
	for y := 0; y < 900; y++ {
		for x := 0; x < 3000; x++ {
			if print.RGBAAt(x, y).A != 0 {
				box = box.Union(image.Rect(x/2, y/2, x/2+1, y/2+1))
			}
		}
	}
	if box.Dx() < 100 || box.Dy() < 20 {
		t.Fatalf("the text's box in the print file is %v, want the text", box)
	}
	var textPrint, textBase int
	var sum, worst, n int
	for y := range 1800 {
		for x := range 1500 {
			p, b := halved(print, x, y), base.RGBAAt(x, y)
			if (image.Point{x, y}).In(box) {
				if p.A > 128 {
					textPrint++
				}
				if b.A != 0 {
					textBase++
				}
				continue
			}
			for _, d := range []int{int(p.R) - int(b.R), int(p.G) - int(b.G), int(p.B) - int(b.B), int(p.A) - int(b.A)} {
				d = max(d, -d)
				sum, worst, n = sum+d, max(worst, d), n+1
			}
		}
	}
	if textPrint < 500 || textBase != 0 {
		t.Errorf("the text's box %v: %d text pixels in the print, %d non-transparent in the base; want the text, then nothing", box, textPrint, textBase)
	}
	mean := float64(sum) / float64(n)
	t.Logf("text box %v: %d text pixels; elsewhere the base differs from the halved print by %.3f per channel on average, %d at most", box, textPrint, mean, worst)
	if mean > 0.05 || worst > 2 {
		t.Errorf("outside the text's box the base differs from the print by %.3f on average, %d at most; want <= 0.05 and <= 2", mean, worst)
	}

	// Delivered again: nothing is written.
	info, err := f.store.Stat(context.Background(), tasks.BaseSourceKey(key))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.run(t, id, 1); err != nil {
		t.Fatal(err)
	}
	if again, err := f.store.Stat(context.Background(), tasks.BaseSourceKey(key)); err != nil || !again.ModTime.Equal(info.ModTime) {
		t.Fatalf("second delivery rewrote the base source: %v -> %v (%v)", info.ModTime, again.ModTime, err)
	}
}

// TestBaseSourceOfAnOldRevisionIsDeleted: a later revision replaces the print file, and the old
// base source goes with the old files.
func TestBaseSourceOfAnOldRevisionIsDeleted(t *testing.T) {
	f := newFixture(t)
	id := f.design(t, "front", document(450, 540, "u/1/art.png"), 1)
	if err := f.run(t, id, 1); err != nil {
		t.Fatal(err)
	}
	key := tasks.PrintKey(f.campaignID, id, 1)
	if _, err := f.store.Stat(context.Background(), tasks.BaseSourceKey(key)); err != nil {
		t.Fatalf("base source of revision 1: %v", err)
	}
	if _, err := f.db.Exec(`UPDATE campaign_designs SET revision = 2, export_status = 'pending' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	if err := f.run(t, id, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.Stat(context.Background(), tasks.BaseSourceKey(key)); !errors.Is(err, blob.ErrNotFound) {
		t.Fatalf("base source of revision 1: %v, want deleted", err)
	}
	if _, err := f.store.Stat(context.Background(), tasks.BaseSourceKey(tasks.PrintKey(f.campaignID, id, 2))); err != nil {
		t.Fatalf("base source of revision 2: %v", err)
	}
}

// TestNoBaseSourceWithoutCustomObjects: a design without custom objects, smaller than a base source
// would be, stores none.
func TestNoBaseSourceWithoutCustomObjects(t *testing.T) {
	f := newFixture(t)
	id := f.design(t, "front", plain(450, 540, "u/1/art.png"), 1)
	if err := f.run(t, id, 1); err != nil {
		t.Fatal(err)
	}
	key := tasks.PrintKey(f.campaignID, id, 1)
	if got := f.state(t, id); got.Status != tasks.ExportDone || got.FileURL != key {
		t.Fatalf("row = %+v, want done", got)
	}
	if _, err := f.store.Stat(context.Background(), tasks.BaseSourceKey(key)); !errors.Is(err, blob.ErrNotFound) {
		t.Fatalf("base source of a design without custom objects: %v, want none", err)
	}
}

// TestReuseCopiesTheBaseSource: a design copying the print file of an identical one copies its base
// source too (the first design's is replaced by a marker to tell a copy from a render); when the one
// to copy has none (exported before base sources were made), the design is rendered instead.
func TestReuseCopiesTheBaseSource(t *testing.T) {
	f := newFixture(t)
	doc := document(450, 540, "u/1/art.png")
	first := f.design(t, "front", doc, 1)
	if err := f.run(t, first, 1); err != nil {
		t.Fatal(err)
	}
	firstBase := tasks.BaseSourceKey(tasks.PrintKey(f.campaignID, first, 1))
	var marker bytes.Buffer
	if err := png.Encode(&marker, image.NewNRGBA(image.Rect(0, 0, 3, 3))); err != nil {
		t.Fatal(err)
	}
	if err := f.store.Put(context.Background(), firstBase, bytes.NewReader(marker.Bytes()), int64(marker.Len()), "image/png"); err != nil {
		t.Fatal(err)
	}
	f.nextProduct(t)
	second := f.design(t, "front", doc, 1)
	if err := f.run(t, second, 1); err != nil {
		t.Fatal(err)
	}
	if got := f.stored(t, tasks.BaseSourceKey(tasks.PrintKey(f.campaignID, second, 1))); !bytes.Equal(got, marker.Bytes()) {
		t.Fatal("the second design's base source was rendered, want it copied")
	}

	// Without a base source beside them, the files of the first two are no source for a copy.
	for _, id := range []int64{first, second} {
		if err := f.store.Delete(context.Background(), tasks.BaseSourceKey(tasks.PrintKey(f.campaignID, id, 1))); err != nil {
			t.Fatal(err)
		}
	}
	f.nextProduct(t)
	third := f.design(t, "front", doc, 1)
	if err := f.run(t, third, 1); err != nil {
		t.Fatal(err)
	}
	base := f.decode(t, tasks.BaseSourceKey(tasks.PrintKey(f.campaignID, third, 1)))
	if b := base.Bounds(); b.Dx() != 450 || b.Dy() != 540 {
		t.Fatalf("third design's base source is %v, want a 450x540 render", b)
	}
}

// premultiplied is img as premultiplied RGBA, to read and average pixels of.
func premultiplied(img image.Image) *image.RGBA {
	out := image.NewRGBA(img.Bounds())
	draw.Draw(out, out.Rect, img, img.Bounds().Min, draw.Src)
	return out
}

// halved is pixel (x, y) of img halved: the average of its 2x2 pixels from (2x, 2y).
func halved(img *image.RGBA, x, y int) color.RGBA {
	var s [4]int
	for _, d := range []image.Point{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
		c := img.RGBAAt(2*x+d.X, 2*y+d.Y)
		s[0], s[1], s[2], s[3] = s[0]+int(c.R), s[1]+int(c.G), s[2]+int(c.B), s[3]+int(c.A)
	}
	return color.RGBA{uint8((s[0] + 2) / 4), uint8((s[1] + 2) / 4), uint8((s[2] + 2) / 4), uint8((s[3] + 2) / 4)}
}
