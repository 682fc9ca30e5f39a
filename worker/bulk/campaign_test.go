package bulk

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/worker/tasks"
)

// campaignHandler is the bulk:campaign handler and scheduler on the fixture's database and Redis.
func (f *fixture) campaignHandler(t *testing.T) (*CampaignHandler, *Scheduler) {
	t.Helper()
	client := asynq.NewClient(f.redis)
	t.Cleanup(func() { client.Close() })
	relay, err := outbox.NewRelay(outbox.DefaultConfig(), f.db, client, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewCampaignHandler(f.db, relay, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewScheduler(DefaultConfig(), f.db, relay, nil)
	if err != nil {
		t.Fatal(err)
	}
	return h, s
}

// job adds a pending job of owner from origin and returns its id.
func (f *fixture) job(t *testing.T, owner, origin int64, name, designs string) int64 {
	t.Helper()
	var id int64
	const q = `INSERT INTO bulk_campaign_jobs (user_id, campaign_id, campaign_name, prefix, suffix, collection, designs)
VALUES ($1, $2, $3, 'New ', ' 2026', 'Cats', $4) RETURNING id`
	if err := f.db.Get(&id, q, owner, origin, name, designs); err != nil {
		t.Fatal(err)
	}
	return id
}

type jobRow struct {
	Status        string `db:"status"`
	Message       string `db:"message"`
	NewCampaignID *int64 `db:"new_campaign_id"`
	Logs          string `db:"logs"`
}

func (f *fixture) jobRow(t *testing.T, id int64) jobRow {
	t.Helper()
	var r jobRow
	const q = `SELECT status, message, new_campaign_id,
	(SELECT coalesce(string_agg(log, '|' ORDER BY id), '') FROM bulk_logs WHERE bulk_id = j.id) AS logs
FROM bulk_campaign_jobs j WHERE id = $1`
	if err := f.db.Get(&r, q, id); err != nil {
		t.Fatal(err)
	}
	return r
}

// runJob runs the job's attempt-1 task.
func runJob(t *testing.T, h *CampaignHandler, id int64) error {
	t.Helper()
	j, err := tasks.NewBulkCampaignJob(id, 1)
	if err != nil {
		t.Fatal(err)
	}
	return h.ProcessTask(context.Background(), j.Task())
}

func TestCampaignJob(t *testing.T) {
	f := newFixture(t)
	h, s := f.campaignHandler(t)
	f.upload(t, f.sellerID, "u/1/cat.png", "cat.png", "ready", 1000, 1000)
	id := f.job(t, f.sellerID, f.templateID, "Cat", `[{"new_url": "/api/files/u/1/cat.png"}]`)

	if n, err := s.Schedule(context.Background()); err != nil || n != 1 {
		t.Fatalf("schedule queued %d (%v)", n, err)
	}
	if n, err := s.Schedule(context.Background()); err != nil || n != 0 {
		t.Fatalf("second schedule queued %d (%v)", n, err)
	}
	insp := asynq.NewInspector(f.redis)
	defer insp.Close()
	if _, err := insp.GetTaskInfo(queue.Name(queue.Worker, queue.Bulk), fmt.Sprintf("bulk-campaign-%d-a1", id)); err != nil {
		t.Fatalf("bulk:campaign task not queued: %v", err)
	}
	for range 2 {
		if err := runJob(t, h, id); err != nil {
			t.Fatal(err)
		}
	}
	got := f.jobRow(t, id)
	if got.Status != tasks.BulkCompleted || got.Message != MsgCampaignCreated || got.NewCampaignID == nil || got.Logs != MsgCampaignCreated {
		t.Fatalf("job = %+v", got)
	}
	var name string
	f.db.Get(&name, `SELECT name FROM campaigns WHERE id = $1 AND user_id = $2`, *got.NewCampaignID, f.sellerID)
	if name != "New Cat 2026" {
		t.Fatalf("campaign name %q", name)
	}
	ds := f.designs(t, *got.NewCampaignID)
	if len(ds) != 1 || ds[0].PrintSpace != "front" || ds[0].Status != "pending" {
		t.Fatalf("designs = %+v", ds)
	}
	if src, box := firstImage(t, ds[0].Document); src != "u/1/cat.png" || box != [4]float64{90, 100, 720, 720} {
		t.Fatalf("artwork %s at %v", src, box)
	}
	var exports int
	f.db.Get(&exports, `SELECT count(*) FROM task_outbox WHERE task_type = 'render:export' AND queue = $1`, queue.Name(queue.Renderer, queue.Bulk))
	if exports != 1 {
		t.Fatalf("%d exports queued, want 1", exports)
	}
}

func TestCampaignJobFailures(t *testing.T) {
	f := newFixture(t)
	h, _ := f.campaignHandler(t)
	f.upload(t, f.sellerID, "u/1/cat.png", "cat.png", "ready", 1000, 1000)
	undesigned := f.campaign(t, f.sellerID, "Blank", false)
	noSpaces := f.campaign(t, f.sellerID, "No spaces", true)
	f.db.MustExec(`UPDATE campaign_products SET print_spaces = '[]' WHERE campaign_id = $1`, noSpaces)
	theirs := f.campaign(t, f.designerID, "Theirs", true)
	art := `[{"new_url": "u/1/cat.png"}]`
	tests := []struct {
		name    string
		origin  int64
		designs string
		want    string
	}{
		{"origin of another account", theirs, art, tasks.MsgCampaignNotFound},
		{"origin without designs", undesigned, art, MsgNoDesign},
		{"origin product without print spaces", noSpaces, art, MsgMissingPrintSpace},
		{"designs without new_url", f.templateID, `{"url": "u/1/cat.png"}`, MsgCannotLoadDesigns},
		{"artwork that is no upload", f.templateID, `{"new_url": "u/1/dog.png"}`, MsgCannotLoadDesigns},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := f.job(t, f.sellerID, tt.origin, "X", tt.designs)
			f.db.MustExec(`UPDATE bulk_campaign_jobs SET status = 'queued', attempts = 1 WHERE id = $1`, id)
			if err := runJob(t, h, id); err != nil {
				t.Fatal(err)
			}
			if got, want := f.jobRow(t, id), (jobRow{Status: tasks.BulkFailed, Message: tt.want, Logs: tt.want}); got != want {
				t.Fatalf("job = %+v, want %+v", got, want)
			}
		})
	}
}

func TestCampaignPayloadRoundTripAndMalformed(t *testing.T) {
	j, err := tasks.NewBulkCampaignJob(7, 2)
	if err != nil {
		t.Fatal(err)
	}
	if j.Type != tasks.TypeBulkCampaign || j.TaskID != "bulk-campaign-7-a2" {
		t.Fatalf("job %+v", j)
	}
	got, err := queue.ParsePayload(j.Task(), func(tasks.BulkCampaignPayload) bool { return true })
	if err != nil || got != (tasks.BulkCampaignPayload{JobID: 7, Attempt: 2}) {
		t.Fatalf("payload %+v, %v", got, err)
	}
	// A malformed payload fails before the handler touches its database.
	h := &CampaignHandler{}
	for _, payload := range []string{`not json`, `{"job_id":0,"attempt":1}`, `{"job_id":1,"attempt":0}`} {
		err := h.ProcessTask(context.Background(), asynq.NewTask(tasks.TypeBulkCampaign, []byte(payload)))
		if !errors.Is(err, asynq.SkipRetry) {
			t.Errorf("payload %s: error %v, want asynq.SkipRetry", payload, err)
		}
	}
}
