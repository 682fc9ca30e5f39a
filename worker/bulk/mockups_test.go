package bulk

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/mockuptask"
	rendertasks "github.com/pressroom/pressroom/renderer/tasks"
	"github.com/pressroom/pressroom/worker/tasks"
)

// mockupResult is a mockup record of a completed record's results.
type mockupResult struct {
	MockupID        int64  `json:"mockup_id"`
	ProductID       int64  `json:"product_id"`
	CampaignID      int64  `json:"campaign_id"`
	PrintSpace      string `json:"print_space"`
	IsDefaultMockup string `json:"is_default_mockup"`
	FileURL         string `json:"file_url"`
}

// exportWithMockups does what the renderer does when it stores the print files of a campaign:
// marks every design done and queues its mockups in the same transaction.
func (f *fixture) exportWithMockups(t *testing.T, campaignID int64) {
	t.Helper()
	for _, d := range f.designs(t, campaignID) {
		tx, err := f.db.Beginx()
		if err != nil {
			t.Fatal(err)
		}
		tx.MustExec(`UPDATE campaign_designs SET export_status = 'done', file_url = $2 WHERE id = $1`,
			d.ID, rendertasks.PrintKey(campaignID, d.ID, d.Revision))
		if _, err := mockuptask.Queue(context.Background(), tx, d.ID, d.Revision, queue.Bulk); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReconcileWaitsForMockups: a record whose print files are done is completed only once its
// mockups are, with them in its results; a failed mockup fails the record. The product's 3D
// template is no part of it: bulk work makes flat mockups only.
func TestReconcileWaitsForMockups(t *testing.T) {
	f := newFixture(t)
	f.upload(t, f.sellerID, "u/1/a.png", "a.png", "ready", 1000, 1000)
	var tpl int64
	const mockupTemplate = `INSERT INTO mockup_templates (template_id, print_space, file_url, design_json)
SELECT id, 'front', 'mockup-templates/tshirt-front/template.json', '{"name": "T-shirt, front"}' FROM product_templates
WHERE name = 'T-shirt' RETURNING id`
	if err := f.db.Get(&tpl, mockupTemplate); err != nil {
		t.Fatal(err)
	}
	f.db.MustExec(`INSERT INTO mockup_templates (template_id, print_space, file_url, design_json, position)
SELECT id, 'front', 'mockup-templates/3d-tshirt/model.glb', '{"name": "T-shirt, 3D", "glb": "mockup-templates/3d-tshirt/model.glb"}', 2
FROM product_templates WHERE name = 'T-shirt'`)
	rec, err := NewReconciler(DefaultConfig(), f.db, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	done := f.record(t, f.sellerID, f.templateID, `[{"new_url": "u/1/a.png", "print_space": "front"}]`)
	broken := f.record(t, f.sellerID, f.templateID, `[{"new_url": "u/1/a.png", "print_space": "front"}]`)
	for _, id := range []int64{done, broken} {
		if err := f.run(t, id); err != nil {
			t.Fatal(err)
		}
		f.exportWithMockups(t, *f.row(t, id).CampaignID)
	}
	if n, err := rec.Reconcile(ctx); err != nil || n != 0 {
		t.Fatalf("reconcile with mockups pending settled %d (%v)", n, err)
	}
	doneCampaign, brokenCampaign := *f.row(t, done).CampaignID, *f.row(t, broken).CampaignID
	f.db.MustExec(`UPDATE campaign_mockups SET status = 'done', file_url = 'p/' || campaign_id || '/design_' || mockup_template_id || '_' || product_id || '.png'
WHERE campaign_id = $1`, doneCampaign)
	f.db.MustExec(`UPDATE campaign_mockups SET status = 'failed', error = $2 WHERE campaign_id = $1`, brokenCampaign, mockuptask.MsgMissingPrint)
	if n, err := rec.Reconcile(ctx); err != nil || n != 2 {
		t.Fatalf("reconcile settled %d (%v), want 2", n, err)
	}
	got := f.row(t, done)
	if got.Status != tasks.BulkCompleted || got.Results == nil {
		t.Fatalf("done record = %+v", got)
	}
	var results []json.RawMessage
	if err := json.Unmarshal([]byte(*got.Results), &results); err != nil || len(results) != 2 {
		t.Fatalf("results %s (%v), want a design and a mockup record", *got.Results, err)
	}
	var m mockupResult
	if err := json.Unmarshal(results[1], &m); err != nil {
		t.Fatal(err)
	}
	var productID int64
	if err := f.db.Get(&productID, `SELECT id FROM campaign_products WHERE campaign_id = $1`, doneCampaign); err != nil {
		t.Fatal(err)
	}
	want := mockupResult{MockupID: tpl, ProductID: productID, CampaignID: doneCampaign, PrintSpace: "front", IsDefaultMockup: "1",
		FileURL: blob.MockupKey(doneCampaign, tpl, productID)}
	if m != want {
		t.Fatalf("mockup record = %+v, want %+v", m, want)
	}
	if got := f.row(t, broken); got.Status != tasks.BulkFailed || got.Message != MsgMockupFailed+mockuptask.MsgMissingPrint || got.Results != nil {
		t.Fatalf("broken record = %+v", got)
	}
}
