package app

import (
	"fmt"
	"testing"
)

// TestBulkCampaignLimit: bulk records and bulk campaign jobs each become a campaign, so creating
// them is refused with 422 when the account's campaigns, the records and jobs still to become
// campaigns and the new ones would pass its campaign_limit; nothing is created then.
func TestBulkCampaignLimit(t *testing.T) {
	b := newBulkStack(t)
	var have int
	b.app.DB.Get(&have, `SELECT count(*) FROM campaigns WHERE user_id = $1`, b.sellerID)
	setLimit := func(limit int) {
		t.Helper()
		if _, err := b.app.DB.Exec(`UPDATE users SET campaign_limit = $1 WHERE id = $2`, limit, b.sellerID); err != nil {
			t.Fatal(err)
		}
	}
	counts := func() (records, jobs, campaigns int) {
		t.Helper()
		b.app.DB.Get(&records, `SELECT count(*) FROM bulk_records WHERE user_id = $1`, b.sellerID)
		b.app.DB.Get(&jobs, `SELECT count(*) FROM bulk_campaign_jobs WHERE user_id = $1`, b.sellerID)
		b.app.DB.Get(&campaigns, `SELECT count(*) FROM campaigns WHERE user_id = $1`, b.sellerID)
		return
	}
	records := func(n int) map[string]any {
		rs := make([]string, n)
		for i := range rs {
			rs[i] = fmt.Sprintf(`[{"new_url": "u/1/art%d.png", "print_space": "front"}]`, i)
		}
		return map[string]any{"template_campaign_id": b.templateID, "records": rs}
	}
	refused := func(what string, r reply, limit int) {
		t.Helper()
		want := fmt.Sprintf("Campaign limit reached: your account may have %d campaigns.", limit)
		if r.status != 422 || r.body.Message != want {
			t.Fatalf("%s: %d %s, want 422 %q", what, r.status, r.raw, want)
		}
	}

	setLimit(have + 1)
	r := b.do("POST", bulkBase+"/records", b.token, records(3))
	refused("3 records with room for 1", r, have+1)
	if rs, _, cs := counts(); rs != 0 || cs != have {
		t.Fatalf("refused create left %d records and %d campaigns", rs, cs)
	}
	var uploads int
	b.app.DB.Get(&uploads, `SELECT count(*) FROM bulk_uploads WHERE user_id = $1`, b.sellerID)
	if uploads != 0 {
		t.Fatalf("refused create left %d uploads", uploads)
	}

	setLimit(have + 2)
	if r := b.do("POST", bulkBase+"/records", b.token, records(2)); r.status != 202 {
		t.Fatalf("2 records with room for 2: %d %s", r.status, r.raw)
	}
	if rs, _, _ := counts(); rs != 2 {
		t.Fatalf("%d records, want 2", rs)
	}
	// The two queued records take the room left: one more record, or a campaign job, does not fit.
	refused("1 more record", b.do("POST", bulkBase+"/records", b.token, records(1)), have+2)
	job := map[string]any{"campaign_id": b.templateID, "campaign_name": "Tabby", "designs": `{"new_url": "u/1/tabby.png"}`}
	refused("a campaign job", b.do("POST", "/api/seller/bulk-campaigns", b.token, job), have+2)
	if rs, js, _ := counts(); rs != 2 || js != 0 {
		t.Fatalf("refused creates left %d records and %d jobs", rs, js)
	}

	setLimit(0)
	if r := b.do("POST", "/api/seller/bulk-campaigns", b.token, job); r.status != 202 {
		t.Fatalf("a campaign job without a limit: %d %s", r.status, r.raw)
	}
}
