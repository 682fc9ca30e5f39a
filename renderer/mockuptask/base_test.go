package mockuptask

import (
	"context"
	"errors"
	"image"
	"image/color"
	"testing"

	"golang.org/x/image/webp"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/tasks"
	"github.com/pressroom/pressroom/renderer/webpenc"
)

// baseURL is the base_url of campaign mockup id.
func (f *fixture) baseURL(t *testing.T, id int64) string {
	t.Helper()
	var key string
	if err := f.db.Get(&key, `SELECT base_url FROM campaign_mockups WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	return key
}

// storedWebP reads and decodes the WebP stored under key.
func (f *fixture) storedWebP(t *testing.T, key string) image.Image {
	t.Helper()
	r, _, err := f.store.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	img, err := webp.Decode(r)
	if err != nil {
		t.Fatalf("decode %s: %v", key, err)
	}
	return img
}

// TestBaseMockup: a print file with a base source beside it (what the export stores for a design
// with custom objects; here green where the print is red) gets a base mockup: the same template in the
// product's colour showing the base source, 500 px, WebP, recorded in base_url once. A later
// revision whose print file has none (the seller removed the custom objects) gets no base mockup:
// base_url is cleared and the old file deleted.
func TestBaseMockup(t *testing.T) {
	if !webpenc.Available {
		t.Skip("a build without cgo has no WebP encoder, so no base mockup")
	}
	f := newFixture(t)
	put(t, f.store, tasks.BaseSourceKey("print/1/front.png"), solid(t, 1500, 1800, color.NRGBA{20, 200, 40, 255}))
	f.queue(t, 1, queue.Interactive)
	m := f.mockups(t)[0]
	if err := f.run(t, m.ID, 1); err != nil {
		t.Fatal(err)
	}
	key := blob.MockupBaseKey(f.campaignID, f.tshirt, f.productID)
	if got := f.baseURL(t, m.ID); got != key {
		t.Fatalf("base_url = %q, want %q", got, key)
	}
	base := f.storedWebP(t, key)
	if b := base.Bounds(); b.Dx() != mockup.PreviewSize || b.Dy() != mockup.PreviewSize {
		t.Fatalf("base mockup %v, want a %d px square", b, mockup.PreviewSize)
	}
	if c := color.RGBAModel.Convert(base.At(250, 275)).(color.RGBA); c.G < 170 || c.R > 60 {
		t.Errorf("base mockup print area pixel = %v, want the base source's green", c)
	}
	if c := color.RGBAModel.Convert(base.At(25, 25)).(color.RGBA); c.R > 40 || c.G > 40 {
		t.Errorf("base mockup photo pixel = %v, want the base tinted black as in the mockup", c)
	}
	// the mockup and its preview still show the print file
	preview := f.storedWebP(t, blob.MockupPreviewKey(f.campaignID, f.tshirt, f.productID))
	if c := color.RGBAModel.Convert(preview.At(250, 275)).(color.RGBA); c.R < 190 || c.G > 60 {
		t.Errorf("preview print area pixel = %v, want the print's red", c)
	}

	// Delivered again: nothing is rendered or written.
	info, err := f.store.Stat(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.run(t, m.ID, 1); err != nil {
		t.Fatal(err)
	}
	if again, err := f.store.Stat(context.Background(), key); err != nil || !again.ModTime.Equal(info.ModTime) {
		t.Fatalf("second delivery rewrote the base mockup: %v -> %v (%v)", info.ModTime, again.ModTime, err)
	}

	// Revision 2 has no custom objects: its print file has no base source.
	put(t, f.store, "print/1/front_r2.png", solid(t, 450, 540, color.NRGBA{220, 20, 30, 255}))
	f.db.MustExec(`UPDATE campaign_designs SET revision = 2, file_url = 'print/1/front_r2.png' WHERE id = $1`, f.design)
	f.queue(t, 2, queue.Interactive)
	if got := f.baseURL(t, m.ID); got != key {
		t.Fatalf("base_url while revision 2 is made = %q, want revision 1's %q kept until then", got, key)
	}
	if err := f.run(t, m.ID, 2); err != nil {
		t.Fatal(err)
	}
	if got := f.mockups(t)[0]; got.Status != tasks.MockupDone || got.Revision != 2 {
		t.Fatalf("row = %+v, want revision 2 done", got)
	}
	if got := f.baseURL(t, m.ID); got != "" {
		t.Fatalf("base_url = %q, want it cleared", got)
	}
	if _, err := f.store.Stat(context.Background(), key); !errors.Is(err, blob.ErrNotFound) {
		t.Fatalf("base mockup of revision 1: %v, want deleted", err)
	}
}

func TestBaseSize(t *testing.T) {
	for _, tt := range []struct {
		sizes []int
		want  int
	}{{[]int{2000, 500}, 500}, {[]int{500}, 500}, {[]int{2000}, 2000}, {[]int{256}, 256}, {[]int{1000, 800}, 1000}} {
		if got := baseSize(&mockup.Template{Sizes: tt.sizes}); got != tt.want {
			t.Errorf("baseSize(%v) = %d, want %d", tt.sizes, got, tt.want)
		}
	}
}
