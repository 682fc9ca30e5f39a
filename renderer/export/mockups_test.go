package export

import (
	"context"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// mockupTemplates gives the fixture's product template a front mockup template for any product
// and one for hoodies, which the fixture's product (mockup type empty) does not take.
func (f *fixture) mockupTemplates(t *testing.T) (applicable int64) {
	t.Helper()
	const q = `INSERT INTO mockup_templates (template_id, print_space, type_detail, file_url, design_json)
SELECT template_id, 'front', $2, $3, '{"name": "Front"}' FROM campaign_products WHERE id = $1 RETURNING id`
	if err := f.db.Get(&applicable, q, f.productID, "", "tpl/front.json"); err != nil {
		t.Fatal(err)
	}
	var other int64
	if err := f.db.Get(&other, q, f.productID, "hoodie", "tpl/hoodie.json"); err != nil {
		t.Fatal(err)
	}
	return applicable
}

type outboxTask struct {
	Type   string `db:"task_type"`
	Queue  string `db:"queue"`
	TaskID string `db:"task_id"`
}

// mockupTasks lists the render:mockup tasks in the outbox.
func (f *fixture) mockupTasks(t *testing.T) []outboxTask {
	t.Helper()
	var out []outboxTask
	if err := f.db.Select(&out, `SELECT task_type, queue, task_id FROM task_outbox WHERE task_type = $1 ORDER BY id`, tasks.TypeMockup); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestExportQueuesItsMockups(t *testing.T) {
	f := newFixture(t)
	tpl := f.mockupTemplates(t)
	id := f.design(t, "front", document(450, 540, "u/1/art.png"), 1)
	if queued := f.mockupTasks(t); len(queued) != 0 {
		t.Fatalf("mockup tasks before the export: %+v", queued)
	}
	if err := f.run(t, id, 1); err != nil {
		t.Fatal(err)
	}
	var m struct {
		ID       int64 `db:"id"`
		Template int64 `db:"mockup_template_id"`
		Revision int64 `db:"design_revision"`
		Status   string
	}
	if err := f.db.Get(&m, `SELECT id, mockup_template_id, design_revision, status FROM campaign_mockups WHERE design_id = $1`, id); err != nil {
		t.Fatalf("the applicable template's mockup: %v", err)
	}
	if m.Template != tpl || m.Revision != 1 || m.Status != tasks.MockupPending {
		t.Fatalf("mockup = %+v", m)
	}
	job, err := tasks.NewMockupJob(false, m.ID, 1, 0, queue.Interactive)
	if err != nil {
		t.Fatal(err)
	}
	want := outboxTask{Type: tasks.TypeMockup, Queue: "renderer.interactive", TaskID: job.TaskID}
	if queued := f.mockupTasks(t); len(queued) != 1 || queued[0] != want {
		t.Fatalf("outbox = %+v, want %+v", queued, want)
	}
	// Delivered again, the export is done already and queues nothing more.
	if err := f.run(t, id, 1); err != nil {
		t.Fatal(err)
	}
	if queued := f.mockupTasks(t); len(queued) != 1 {
		t.Fatalf("second delivery queued mockups again: %+v", queued)
	}
}

// TestBulkExportQueuesBulkMockups runs an export taken from the renderer's bulk queue by a real
// Asynq server: its mockups go to the bulk queue too.
func TestBulkExportQueuesBulkMockups(t *testing.T) {
	f := newFixture(t)
	f.mockupTemplates(t)
	id := f.design(t, "front", document(450, 540, "u/1/art.png"), 1)
	addr, db := testinfra.Redis(t)
	opt := asynq.RedisClientOpt{Addr: addr, DB: db}
	client := asynq.NewClient(opt)
	defer client.Close()
	job, err := tasks.NewExportJob(id, 1, queue.Bulk)
	if err != nil {
		t.Fatal(err)
	}
	if err := job.Enqueue(context.Background(), client); err != nil {
		t.Fatal(err)
	}
	srv := asynq.NewServer(opt, asynq.Config{Concurrency: 1, Queues: map[string]int{job.Queue: 1},
		TaskCheckInterval: 20 * time.Millisecond, LogLevel: asynq.FatalLevel, Logger: quiet{}})
	if err := srv.Start(f.h); err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	for deadline := time.Now().Add(time.Minute); f.state(t, id).Status != tasks.ExportDone; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("export not done: %+v", f.state(t, id))
		}
	}
	if queued := f.mockupTasks(t); len(queued) != 1 || queued[0].Queue != "renderer.bulk" {
		t.Fatalf("outbox = %+v, want one mockup task on renderer.bulk", queued)
	}
}

// quiet is an asynq.Logger that logs nothing.
type quiet struct{}

func (q quiet) Debug(args ...any) {}
func (q quiet) Info(args ...any)  {}
func (q quiet) Warn(args ...any)  {}
func (q quiet) Error(args ...any) {}
func (q quiet) Fatal(args ...any) {}
