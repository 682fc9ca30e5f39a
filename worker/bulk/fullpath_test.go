package bulk

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/export"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	rendertasks "github.com/pressroom/pressroom/renderer/tasks"
	"github.com/pressroom/pressroom/worker/tasks"
)

// putPNG stores a w x h opaque PNG of one colour under key.
func putPNG(t *testing.T, store blob.Store, key string, w, h int, c color.NRGBA) {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		copy(img.Pix[i:], []byte{c.R, c.G, c.B, c.A})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := store.Put(context.Background(), key, &buf, int64(buf.Len()), "image/png"); err != nil {
		t.Fatal(err)
	}
}

// TestRecordToPrintFiles runs a record through the whole path: the bulk:record task, the
// render:export tasks it queued (taken from Redis and run by the renderer's own handler), and the
// reconcile that completes the record with the print files as results.
func TestRecordToPrintFiles(t *testing.T) {
	f := newFixture(t)
	cfg := blob.DefaultConfig()
	cfg.Dir = t.TempDir()
	store, err := blob.New(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	putPNG(t, store, "u/1/bulk/front.png", 300, 300, color.NRGBA{200, 30, 30, 255})
	putPNG(t, store, "u/1/bulk/back.png", 200, 100, color.NRGBA{30, 30, 200, 255})
	f.upload(t, f.sellerID, "u/1/bulk/front.png", "front.png", "ready", 300, 300)
	f.upload(t, f.sellerID, "u/1/bulk/back.png", "back.png", "ready", 200, 100)
	id := f.record(t, f.sellerID, f.templateID,
		`[{"new_url": "u/1/bulk/front.png", "print_space": "front"}, {"new_url": "u/1/bulk/back.png", "print_space": "back"}]`)
	if err := f.run(t, id); err != nil {
		t.Fatalf("bulk:record: %v", err)
	}

	renderer, err := export.NewHandler(f.db, store, imagelimit.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	insp := asynq.NewInspector(f.redis)
	defer insp.Close()
	queued, err := insp.ListPendingTasks(queue.Name(queue.Renderer, queue.Bulk))
	if err != nil || len(queued) != 2 {
		t.Fatalf("queued exports: %d (%v), want 2", len(queued), err)
	}
	for _, tk := range queued {
		if err := renderer.ProcessTask(context.Background(), asynq.NewTask(tk.Type, tk.Payload)); err != nil {
			t.Fatalf("%s %s: %v", tk.Type, tk.ID, err)
		}
	}

	rec, err := NewReconciler(DefaultConfig(), f.db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := rec.Reconcile(context.Background()); err != nil || n != 1 {
		t.Fatalf("reconcile settled %d (%v)", n, err)
	}
	got := f.row(t, id)
	if got.Status != tasks.BulkCompleted || got.Results == nil {
		t.Fatalf("record = %+v", got)
	}
	for _, d := range f.designs(t, *got.CampaignID) {
		key := rendertasks.PrintKey(*got.CampaignID, d.ID, 1)
		info, err := store.Stat(context.Background(), key)
		if err != nil || info.Size == 0 {
			t.Fatalf("print file %s of %s: %+v %v", key, d.PrintSpace, info, err)
		}
	}
}
