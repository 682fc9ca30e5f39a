package chaos

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/bff/seed"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// rerunBound is how long after the kill the killed export may start again at most. The figure itself
// is printed, not asserted: on this shared machine it varies with load. Asynq alone takes at least a
// minute (a 30 s lease, then a recoverer that runs once a minute and waits 30 s more, then the retry
// delay); the queue's rescue takes about 10 s (the dead server's list expiring), so 30 s tells the two
// apart with room for a loaded machine.
const rerunBound = 30 * time.Second

// TestKilledExportRerunsSoon kills the renderer with SIGKILL while it renders an editor's export (a
// 4500x5400 print file on the interactive queue), starts it again at once, as a supervisor would, and
// measures how long the export took to start again. It marks the design pending again after the kill,
// so that the rerun shows when its handler marks it rendering.
func TestKilledExportRerunsSoon(t *testing.T) {
	if testing.Short() {
		t.Skip("the chaos test builds and runs the renderer: skipped in -short mode")
	}
	bins := buildServices(t)
	r := newRun(t, bins)
	designID := r.bigDesign()
	job, err := tasks.NewExportJob(designID, 1, queue.Interactive)
	if err != nil {
		t.Fatal(err)
	}
	client := asynq.NewClient(r.redis)
	defer client.Close()
	if err := job.Enqueue(context.Background(), client); err != nil {
		t.Fatal(err)
	}
	r.renderer.start()
	status := func() string {
		t.Helper()
		var s string
		if err := r.db.Get(&s, `SELECT export_status FROM campaign_designs WHERE id = $1`, designID); err != nil {
			t.Fatal(err)
		}
		return s
	}
	waitStatus := func(what string, want ...string) string {
		t.Helper()
		for deadline := time.Now().Add(runDeadline); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			r.renderer.checkAlive()
			s := status()
			for _, w := range want {
				if s == w {
					return s
				}
			}
		}
		t.Fatalf("%s: the design stayed %q for %s", what, status(), runDeadline)
		return ""
	}
	if s := waitStatus("the first run", tasks.ExportRendering, "done"); s != tasks.ExportRendering {
		t.Fatalf("the export ended (%s) before the renderer could be killed in the middle of it", s)
	}
	r.renderer.kill()
	killed := time.Now()
	r.db.MustExec(`UPDATE campaign_designs SET export_status = 'pending' WHERE id = $1 AND export_status = 'rendering'`, designID)
	r.renderer.start()

	waitStatus("the rerun", tasks.ExportRendering, "done")
	rerun := time.Since(killed)
	waitStatus("the rerun's end", "done")
	t.Logf("kill to rerun: %.1f s (to the rerun's print file: %.1f s)", rerun.Seconds(), time.Since(killed).Seconds())
	if rerun > rerunBound {
		t.Errorf("the killed export started again %.1f s after the kill; want within %s (Asynq alone takes over a minute)", rerun.Seconds(), rerunBound)
	}
}

// bigDesign adds a campaign of the seller with a 4500x5400 front design of the demo artwork, pending
// its export at revision 1, and returns the design's id.
func (r *run) bigDesign() int64 {
	r.t.Helper()
	const w, h = 4500, 5400
	var campaignID, productID, designID int64
	if err := r.db.Get(&campaignID, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'Rerun') RETURNING id`, r.sellerID); err != nil {
		r.t.Fatal(err)
	}
	const qp = `INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, mockup_type)
SELECT $1, template_id, name, product_type, print_spaces, mockup_type FROM campaign_products WHERE campaign_id = $2 RETURNING id`
	if err := r.db.Get(&productID, qp, campaignID, r.templateID); err != nil {
		r.t.Fatal(err)
	}
	doc := design.Document{Version: design.Version,
		PrintSpace: design.PrintSpace{Name: "front", Width: w, Height: h, DPI: 300, MinDPI: 150},
		Objects: []design.Object{&design.ImageObject{ID: "artwork", Src: seed.BulkArtworkKey(r.sellerID), X: 250, Y: 300,
			Width: w - 500, Height: w - 500}}}
	b, err := json.Marshal(&doc)
	if err != nil {
		r.t.Fatal(err)
	}
	const qd = `INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json, option, export_status)
VALUES ($1, $2, 'front', $3::jsonb, 'print', 'pending') RETURNING id`
	if err := r.db.Get(&designID, qd, campaignID, productID, string(b)); err != nil {
		r.t.Fatal(err)
	}
	return designID
}
