package bulk

import (
	"context"
	"fmt"
	"testing"

	"github.com/pressroom/pressroom/worker/tasks"
)

// TestBulkCampaignLimitInWorker: a record or campaign job whose account reached its campaign_limit
// after it was queued (the limit lowered meanwhile) fails with the limit's message and makes no
// campaign; a record that still fits makes its campaign.
func TestBulkCampaignLimitInWorker(t *testing.T) {
	f := newFixture(t)
	h, s := f.campaignHandler(t)
	f.upload(t, f.sellerID, "u/1/cat.png", "cat.png", "ready", 1000, 1000)
	campaigns := func() int {
		var n int
		f.db.Get(&n, `SELECT count(*) FROM campaigns WHERE user_id = $1`, f.sellerID)
		return n
	}
	have := campaigns()
	f.db.MustExec(`UPDATE users SET campaign_limit = $1 WHERE id = $2`, have+1, f.sellerID)
	fits := f.record(t, f.sellerID, f.templateID, `[{"new_url": "u/1/cat.png", "print_space": "front"}]`)
	late := f.record(t, f.sellerID, f.templateID, `[{"new_url": "u/1/cat.png", "print_space": "front"}]`)
	job := f.job(t, f.sellerID, f.templateID, "Cat", `[{"new_url": "u/1/cat.png"}]`)
	if n, err := s.Schedule(context.Background()); err != nil || n != 1 {
		t.Fatalf("schedule queued %d (%v)", n, err)
	}

	if err := f.run(t, fits); err != nil {
		t.Fatal(err)
	}
	if got := f.row(t, fits); got.Status != tasks.BulkProcessing || got.CampaignID == nil {
		t.Fatalf("record within the limit = %+v", got)
	}
	want := fmt.Sprintf("Campaign limit reached: your account may have %d campaigns.", have+1)
	if err := f.run(t, late); err != nil {
		t.Fatal(err)
	}
	if got := f.row(t, late); got.Status != tasks.BulkFailed || got.Message != want || got.CampaignID != nil {
		t.Fatalf("record over the limit = %+v, want failed with %q", got, want)
	}
	if err := runJob(t, h, job); err != nil {
		t.Fatal(err)
	}
	if got := f.jobRow(t, job); got.Status != tasks.BulkFailed || got.Message != want || got.NewCampaignID != nil {
		t.Fatalf("job over the limit = %+v, want failed with %q", got, want)
	}
	if n := campaigns(); n != have+1 {
		t.Fatalf("%d campaigns, want %d", n, have+1)
	}
}
