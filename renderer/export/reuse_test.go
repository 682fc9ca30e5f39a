package export

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"testing"

	"github.com/pressroom/pressroom/renderer/tasks"
)

// nextProduct adds another product like the fixture's to its campaign and makes it the product of the
// designs inserted next (a product has one design per print space).
func (f *fixture) nextProduct(t *testing.T) {
	t.Helper()
	const q = `INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces)
SELECT campaign_id, template_id, name, product_type, print_spaces FROM campaign_products WHERE id = $1 RETURNING id`
	if err := f.db.Get(&f.productID, q, f.productID); err != nil {
		t.Fatal(err)
	}
}

// TestIdenticalDesignsArePrintedOnce: a second design with the same document and artwork (the same
// document written with other spacing and key order) copies the first one's print file and mockup
// source instead of rendering: the copies hold what is stored under the first design's keys, which
// the test replaces by a marker to tell a copy from a render. Once the artwork changes, the design is
// rendered.
func TestIdenticalDesignsArePrintedOnce(t *testing.T) {
	f := newFixture(t)
	first := f.design(t, "front", document(450, 540, "u/1/art.png"), 1)
	if err := f.run(t, first, 1); err != nil {
		t.Fatal(err)
	}
	firstKey := tasks.PrintKey(f.campaignID, first, 1)
	marker := image.NewNRGBA(image.Rect(0, 0, 3, 3))
	var buf bytes.Buffer
	if err := png.Encode(&buf, marker); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{firstKey, tasks.MockupSourceKey(firstKey)} {
		if err := f.store.Put(context.Background(), k, bytes.NewReader(buf.Bytes()), int64(buf.Len()), "image/png"); err != nil {
			t.Fatal(err)
		}
	}

	respaced := bytes.ReplaceAll([]byte(document(450, 540, "u/1/art.png")), []byte(", "), []byte(",\n  "))
	f.nextProduct(t)
	second := f.design(t, "front", string(respaced), 1)
	if err := f.run(t, second, 1); err != nil {
		t.Fatal(err)
	}
	secondKey := tasks.PrintKey(f.campaignID, second, 1)
	for _, k := range []string{secondKey, tasks.MockupSourceKey(secondKey)} {
		if !bytes.Equal(f.stored(t, k), buf.Bytes()) {
			t.Fatalf("%s was rendered, want it copied from design %d", k, first)
		}
	}
	a, b := f.state(t, first), f.state(t, second)
	if b.Status != tasks.ExportDone || b.Width != a.Width || b.Height != a.Height || b.FileSize != a.FileSize || !bytes.Equal(b.Report, a.Report) {
		t.Fatalf("second design recorded %+v, want the first's result %+v", b, a)
	}

	// The artwork is uploaded again (another size): a third design with the same document is rendered.
	art := f.stored(t, "u/1/art.png")
	art = append(art, 0) // trailing bytes after IEND: the same picture, another file
	if err := f.store.Put(context.Background(), "u/1/art.png", bytes.NewReader(art), int64(len(art)), "image/png"); err != nil {
		t.Fatal(err)
	}
	f.nextProduct(t)
	third := f.design(t, "front", document(450, 540, "u/1/art.png"), 1)
	if err := f.run(t, third, 1); err != nil {
		t.Fatal(err)
	}
	if got := f.stored(t, tasks.PrintKey(f.campaignID, third, 1)); bytes.Equal(got, buf.Bytes()) {
		t.Fatal("the design of a changed artwork was copied, want it rendered")
	}
}

// TestReuseRendersWhenTheFilesAreGone: a finished design whose print file has been removed is no
// source for a copy; the new design is rendered.
func TestReuseRendersWhenTheFilesAreGone(t *testing.T) {
	f := newFixture(t)
	first := f.design(t, "front", document(450, 540, "u/1/art.png"), 1)
	if err := f.run(t, first, 1); err != nil {
		t.Fatal(err)
	}
	if err := f.store.Delete(context.Background(), tasks.PrintKey(f.campaignID, first, 1)); err != nil {
		t.Fatal(err)
	}
	f.nextProduct(t)
	second := f.design(t, "front", document(450, 540, "u/1/art.png"), 1)
	if err := f.run(t, second, 1); err != nil {
		t.Fatal(err)
	}
	if got := f.state(t, second); got.Status != tasks.ExportDone {
		t.Fatalf("second design = %+v, want done", got)
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(f.stored(t, tasks.PrintKey(f.campaignID, second, 1)))); err != nil || cfg.Width != 450 {
		t.Fatalf("second print file %+v (%v), want a 450 px render", cfg, err)
	}
}
