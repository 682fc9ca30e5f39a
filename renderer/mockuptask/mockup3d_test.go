package mockuptask

import (
	"context"
	"errors"
	"image/color"
	"os"
	"strings"
	"testing"

	"github.com/hibiken/asynq"
	"golang.org/x/image/webp"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/renderer/chromepool/chrometest"
	"github.com/pressroom/pressroom/renderer/chromepool/models"
	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/tasks"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testinfra.RemoveUI()
	os.Exit(code)
}

// with3D stores demo model (one of models.Names) as the fixture's 3D template and returns a handler
// drawing through a one-browser Chrome pool over the built UI; the browser starts with the first render.
func (f *fixture) with3D(t *testing.T, model string) *Handler {
	t.Helper()
	glb, err := models.Model(model)
	if err != nil {
		t.Fatal(err)
	}
	put(t, f.store, "tpl/shirt.glb", glb)
	pool := chrometest.Pool(t)
	h, err := NewHandler(f.db, f.store, mockup.Config{}, pool, nil)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// run3D delivers the render:mockup3d task of the fixture's 3D mockup to h.
func (f *fixture) run3D(t *testing.T, h *Handler) (mockupRow, error) {
	t.Helper()
	f.queue(t, 1, queue.Interactive)
	m := f.mockups(t)[2]
	if m.TemplateID != f.back3 {
		t.Fatalf("mockup %+v is not the 3D one", m)
	}
	job, err := tasks.NewMockupJob(true, m.ID, 1, 0, queue.Interactive)
	if err != nil {
		t.Fatal(err)
	}
	return m, h.ProcessTask(context.Background(), job.Task())
}

// TestMockup3D draws the red print file on the T-shirt model in Chromium and stores the 1500x1875
// frame as the mockup, red where the print goes and the product's colour around it.
func TestMockup3D(t *testing.T) {
	f := newFixture(t)
	m, err := f.run3D(t, f.with3D(t, "tshirt"))
	if err != nil {
		t.Fatal(err)
	}
	key := blob.MockupKey(f.campaignID, f.back3, f.productID)
	got := f.mockups(t)[2]
	if got.ID != m.ID || got.Status != tasks.MockupDone || got.FileURL != key || got.Error != "" {
		t.Fatalf("row after render = %+v", got)
	}
	img := f.storedPNG(t, key, "mockup3d-tshirt.png")
	if img.Bounds().Dx() != 1500 || img.Bounds().Dy() != 1875 {
		t.Fatalf("3D mockup %v, want 1500x1875", img.Bounds())
	}
	// its preview, scaled from the same frame: 400x500
	pr, _, err := f.store.Get(context.Background(), blob.MockupPreviewKey(f.campaignID, f.back3, f.productID))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := webp.DecodeConfig(pr)
	pr.Close()
	if err != nil || cfg.Width != 400 || cfg.Height != mockup.PreviewSize {
		t.Fatalf("3D mockup preview %+v (%v), want 400x500 WebP", cfg, err)
	}
	red := 0
	for y := 0; y < 1875; y += 5 {
		for x := 0; x < 1500; x += 5 {
			if c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA); c.R > 150 && c.G < 80 && c.B < 80 {
				red++
			}
		}
	}
	// The print mesh covers about a tenth of the frame; every fifth pixel of it is sampled.
	if red < 2000 {
		t.Fatalf("%d red samples in the 3D mockup, want the print on the shirt", red)
	}
	// The shirt below the print (500..1000 x 1150..1350 lies inside its torso) takes the product's
	// default colour, Black (#111111, about 12 when lit), not the model's light grey (about 205).
	sum, n := 0, 0
	for y := 1150; y < 1350; y += 5 {
		for x := 500; x < 1000; x += 5 {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			sum += int(c.R) + int(c.G) + int(c.B)
			n++
		}
	}
	if mean := sum / (3 * n); mean > 40 {
		t.Errorf("the shirt below the print averages %d of 255; want the product's Black", mean)
	}
}

// TestMockup3DPoster draws a red print file on the framed poster in Chromium: the middle of the frame,
// where the print plane hangs, is red throughout, and around it the black frame shows.
func TestMockup3DPoster(t *testing.T) {
	f := newFixture(t)
	put(t, f.store, "print/1/front.png", solid(t, 540, 720, color.NRGBA{220, 20, 30, 255})) // the poster's 3:4
	if _, err := f.run3D(t, f.with3D(t, "poster")); err != nil {
		t.Fatal(err)
	}
	img := f.storedPNG(t, blob.MockupKey(f.campaignID, f.back3, f.productID), "mockup3d-poster.png")
	if img.Bounds().Dx() != 1500 || img.Bounds().Dy() != 1875 {
		t.Fatalf("3D mockup %v, want 1500x1875", img.Bounds())
	}
	// The camera frames the model's bounding box: the print (0.9 x 1.2 of the 1.02 x 1.32 framed
	// poster) spans about 800 x 1030 pixels around the middle. Its inner 600 x 800 is sampled.
	var inside, red, dark int
	for y := 0; y < 1875; y += 5 {
		for x := 0; x < 1500; x += 5 {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			isRed := c.R > 150 && c.G < 80 && c.B < 80
			if x >= 450 && x < 1050 && y >= 537 && y < 1337 {
				inside++
				if isRed {
					red++
				}
			} else if max(c.R, c.G, c.B) < 110 {
				dark++
			}
		}
	}
	if red != inside {
		t.Errorf("%d of %d samples in the middle of the poster are red, want all", red, inside)
	}
	// The frame's bars, about 50 pixels wide around the print, hold some 8000 samples.
	if dark < 2000 {
		t.Errorf("%d dark samples outside the print, want the poster's frame", dark)
	}
}

// TestMockup3DFailures: a template whose model is not a GLB fails at once with the template message,
// and a product colour that is not #rgb or #rrggbb with the render message, as on a flat mockup; a
// renderer without a Chrome pool leaves the mockup pending for a retry.
func TestMockup3DFailures(t *testing.T) {
	f := newFixture(t)
	h := f.with3D(t, "tshirt")
	put(t, f.store, "tpl/shirt.glb", []byte("not a model"))
	if _, err := f.run3D(t, h); !errors.Is(err, asynq.SkipRetry) {
		t.Fatalf("err = %v, want SkipRetry", err)
	}
	if got := f.mockups(t)[2]; got.Status != tasks.MockupFailed || !strings.HasPrefix(got.Error, MsgMissingTemplate) {
		t.Fatalf("row = %+v, want failed with %q", got, MsgMissingTemplate)
	}

	f = newFixture(t)
	h = f.with3D(t, "tshirt")
	f.db.MustExec(`UPDATE campaign_products SET options = '{"colors":[{"name":"Black","hex":"black"}]}' WHERE id = $1`, f.productID)
	if _, err := f.run3D(t, h); !errors.Is(err, asynq.SkipRetry) {
		t.Fatalf("err = %v, want SkipRetry", err)
	}
	if got := f.mockups(t)[2]; got.Status != tasks.MockupFailed || got.Error != MsgCannotRender {
		t.Fatalf("row = %+v, want failed with %q", got, MsgCannotRender)
	}

	f = newFixture(t)
	if _, err := f.run3D(t, f.h); !errors.Is(err, errNo3D) || errors.Is(err, asynq.SkipRetry) {
		t.Fatalf("err = %v, want errNo3D, retried", err)
	}
	if got := f.mockups(t)[2]; got.Status != tasks.MockupPending {
		t.Fatalf("row = %+v, want still pending", got)
	}
}
