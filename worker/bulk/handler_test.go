package bulk

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"testing"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/export"
	rendertasks "github.com/pressroom/pressroom/renderer/tasks"
	"github.com/pressroom/pressroom/worker/tasks"
)

// Print space of the fixture's products: small, so that the full-path test renders quickly.
const (
	spaceW = 900
	spaceH = 1080
)

// fixture is a database with a seller, a designer, a template campaign on a two-sided product
// (front designed with an artwork and a custom text, back empty), the seller's ready artworks, and
// the handler with a relay on a Redis database of its own.
type fixture struct {
	db         *sqlx.DB
	redis      asynq.RedisClientOpt
	h          *Handler
	sellerID   int64
	designerID int64
	templateID int64
}

// frontDocument is the template's front design: an artwork 720x720 at (90, 100) and a custom text.
func frontDocument(src string) string {
	return fmt.Sprintf(`{"version": 1, "printSpace": {"name": "front", "width": %d, "height": %d, "dpi": 300, "minDpi": 150, "printType": 0},
 "objects": [
  {"type": "image", "id": "art", "src": %q, "x": 90, "y": 100, "width": 720, "height": 720, "rotation": 0},
  {"type": "text", "id": "t", "text": "Hello", "fontFamily": "Roboto", "fontUrl": "", "fontSize": 60, "fill": "#111111",
   "x": 90, "y": 900, "width": 720, "rotation": 0, "textWidth": "limited", "textAlign": "center", "maxLength": 16,
   "convertText": "uppercase", "displayStyle": "color", "backgroundUrl": "", "isCustom": true}
 ]}`, spaceW, spaceH, src)
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	addr, n := testinfra.Redis(t)
	opt := asynq.RedisClientOpt{Addr: addr, DB: n}
	client := asynq.NewClient(opt)
	t.Cleanup(func() { client.Close() })
	relay, err := outbox.NewRelay(outbox.DefaultConfig(), db, client, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHandler(db, relay, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{db: db, redis: opt, h: h}
	spaces := fmt.Sprintf(`[{"name":"front","width":%d,"height":%d,"DPI":300,"minDPI":150,"printType":0,"isMain":true},
{"name":"back","width":%d,"height":%d,"DPI":300,"minDPI":150,"printType":0,"isMain":true}]`, spaceW, spaceH, spaceW, spaceH)
	db.MustExec(`INSERT INTO product_templates (name, product_type, print_spaces, mockup_type) VALUES ('T-shirt', 'tshirt', $1, 'tshirt')`, spaces)
	if err := db.Get(&f.sellerID, `INSERT INTO users (name, email, password_hash, roles) VALUES ('S', 's@example.com', 'x', '{seller}') RETURNING id`); err != nil {
		t.Fatal(err)
	}
	if err := db.Get(&f.designerID, `INSERT INTO users (name, email, password_hash, roles) VALUES ('D', 'd@example.com', 'x', '{designer}') RETURNING id`); err != nil {
		t.Fatal(err)
	}
	f.upload(t, f.sellerID, "u/1/template-art.png", "template-art.png", "ready", 720, 720)
	f.templateID = f.campaign(t, f.sellerID, "Summer tee", true)
	return f
}

// campaign makes a campaign of owner on the T-shirt; with front, its front carries the template design.
func (f *fixture) campaign(t *testing.T, owner int64, name string, front bool) int64 {
	t.Helper()
	var id, productID int64
	if err := f.db.Get(&id, `INSERT INTO campaigns (user_id, name) VALUES ($1, $2) RETURNING id`, owner, name); err != nil {
		t.Fatal(err)
	}
	const product = `INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, mockup_type)
SELECT $1, id, name, product_type, print_spaces, mockup_type FROM product_templates WHERE name = 'T-shirt' RETURNING id`
	if err := f.db.Get(&productID, product, id); err != nil {
		t.Fatal(err)
	}
	if front {
		f.db.MustExec(`INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json, option, export_status)
VALUES ($1, $2, 'front', $3, 'custom', 'none')`, id, productID, frontDocument("u/1/template-art.png"))
	}
	return id
}

// upload records an upload of owner in status with its size.
func (f *fixture) upload(t *testing.T, owner int64, key, name, status string, w, h int) {
	t.Helper()
	f.db.MustExec(`INSERT INTO uploads (owner_id, blob_key, file_name, status, width, height) VALUES ($1, $2, $3, $4, $5, $6)`,
		owner, key, name, status, w, h)
}

// record adds a queued record of owner at attempt 1 and returns its id.
func (f *fixture) record(t *testing.T, owner, templateID int64, designs string) int64 {
	t.Helper()
	var id int64
	const q = `INSERT INTO bulk_records (user_id, template_campaign_id, designs, status, attempts) VALUES ($1, $2, $3, 'queued', 1) RETURNING id`
	if err := f.db.Get(&id, q, owner, templateID, designs); err != nil {
		t.Fatal(err)
	}
	return id
}

// run processes the record's attempt-1 task.
func (f *fixture) run(t *testing.T, id int64) error {
	t.Helper()
	job, err := tasks.NewBulkRecordJob(id, 1)
	if err != nil {
		t.Fatal(err)
	}
	return f.h.ProcessTask(context.Background(), job.Task())
}

type recordRow struct {
	Status     string  `db:"status"`
	Message    string  `db:"message"`
	Step       string  `db:"step"`
	CampaignID *int64  `db:"campaign_id"`
	Results    *string `db:"results"`
}

func (f *fixture) row(t *testing.T, id int64) recordRow {
	t.Helper()
	var r recordRow
	if err := f.db.Get(&r, `SELECT status, message, step, campaign_id, results::text AS results FROM bulk_records WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRecordChecks(t *testing.T) {
	f := newFixture(t)
	f.upload(t, f.sellerID, "u/1/a.png", "a.png", "ready", 1000, 1000)
	f.upload(t, f.sellerID, "u/1/rejected.png", "rejected.png", "rejected", 0, 0)
	f.upload(t, f.designerID, "u/2/theirs.png", "theirs.png", "ready", 1000, 1000)
	var noProducts int64
	if err := f.db.Get(&noProducts, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'Empty') RETURNING id`, f.sellerID); err != nil {
		t.Fatal(err)
	}
	undesigned := f.campaign(t, f.sellerID, "Blank tee", false)
	otherSeller := f.designerID
	theirs := f.campaign(t, otherSeller, "Not yours", true)

	tests := []struct {
		name     string
		template int64
		designs  string
		want     string
	}{
		{"designs is not JSON", f.templateID, `front.png`, MsgDesignsInvalid},
		{"designs is an empty array", f.templateID, `[]`, MsgDesignsInvalid},
		{"designs is an object", f.templateID, `{"new_url": "u/1/a.png"}`, MsgDesignsInvalid},
		{"designs holds a string", f.templateID, `["u/1/a.png"]`, MsgDesignsInvalid},
		{"a design without new_url", f.templateID, `[{"print_space": "front"}]`, MsgDesignURLInvalid},
		{"a design with an empty new_url", f.templateID, `[{"new_url": " ", "print_space": "front"}]`, MsgDesignURLInvalid},
		{"a design with a numeric new_url", f.templateID, `[{"new_url": 7, "print_space": "front"}]`, MsgDesignURLInvalid},
		{"new_url is checked before print_space", f.templateID, `[{"new_url": "u/1/a.png"}, {"print_space": "back"}]`, MsgDesignURLInvalid},
		{"no print_space among several designs", f.templateID, `[{"new_url": "u/1/a.png"}, {"new_url": "u/1/a.png", "print_space": "back"}]`, MsgDesignInvalid},
		{"two designs on one print space", f.templateID, `[{"new_url": "u/1/a.png", "print_space": "back"}, {"new_url": "u/1/a.png", "print_space": "back"}]`, MsgDesignInvalid},
		{"template campaign of another account", theirs, `[{"new_url": "u/1/a.png", "print_space": "front"}]`, tasks.MsgCampaignNotFound},
		{"no design to take the print space from", undesigned, `[{"new_url": "u/1/a.png"}]`, MsgPrintSpaceInvalid},
		{"no product to take the print space from", noProducts, `[{"new_url": "u/1/a.png"}]`, MsgPrintSpaceInvalid},
		{"artwork that is no upload", f.templateID, `[{"new_url": "u/1/missing.png", "print_space": "front"}]`, MsgLoadImgFailed + " u/1/missing.png"},
		{"artwork that was rejected", f.templateID, `[{"new_url": "/api/files/u/1/rejected.png", "print_space": "front"}]`, MsgLoadImgFailed + " /api/files/u/1/rejected.png"},
		{"artwork of another account", f.templateID, `[{"new_url": "u/2/theirs.png", "print_space": "front"}]`, MsgLoadImgFailed + " u/2/theirs.png"},
		{"print space the product lacks", f.templateID, `[{"new_url": "u/1/a.png", "print_space": "sleeve"}]`, MsgPrintSpaceMissing},
		{"template campaign without products", noProducts, `[{"new_url": "u/1/a.png", "print_space": "front"}]`, MsgEmptyValidDesign},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := f.record(t, f.sellerID, tt.template, tt.designs)
			if err := f.run(t, id); err != nil {
				t.Fatalf("task: %v", err)
			}
			got := f.row(t, id)
			want := recordRow{Status: tasks.BulkFailed, Message: tt.want, Step: StepInvalidDesign}
			if got != want {
				t.Fatalf("record = %+v, want %+v", got, want)
			}
		})
	}
	var outboxRows int
	if err := f.db.Get(&outboxRows, `SELECT count(*) FROM task_outbox`); err != nil || outboxRows != 0 {
		t.Fatalf("invalid records queued %d tasks (%v)", outboxRows, err)
	}
}

// storedDesign is a stored design of the campaign made for a record.
type storedDesign struct {
	ID         int64  `db:"id"`
	PrintSpace string `db:"print_space"`
	Document   string `db:"design_json"`
	Option     string `db:"option"`
	Revision   int64  `db:"revision"`
	Status     string `db:"export_status"`
}

func (f *fixture) designs(t *testing.T, campaignID int64) []storedDesign {
	t.Helper()
	var out []storedDesign
	const q = `SELECT id, print_space, design_json::text AS design_json, option, revision, export_status
FROM campaign_designs WHERE campaign_id = $1 ORDER BY print_space`
	if err := f.db.Select(&out, q, campaignID); err != nil {
		t.Fatal(err)
	}
	return out
}

// firstImage is the first image object of a stored document.
func firstImage(t *testing.T, doc string) (src string, box [4]float64) {
	t.Helper()
	var d struct {
		Objects []struct {
			Type                string
			Src                 string
			X, Y, Width, Height float64
		}
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatal(err)
	}
	for _, o := range d.Objects {
		if o.Type == "image" {
			return o.Src, [4]float64{o.X, o.Y, o.Width, o.Height}
		}
	}
	t.Fatalf("no image in %s", doc)
	return "", box
}

func TestValidRecordIsAppliedOnce(t *testing.T) {
	f := newFixture(t)
	f.upload(t, f.sellerID, "u/1/bulk/square-cat.png", "square-cat.png", "ready", 2000, 2000)
	f.upload(t, f.sellerID, "u/1/bulk/wide-dog.png", "wide-dog.png", "ready", 2000, 1000)
	id := f.record(t, f.sellerID, f.templateID,
		`[{"new_url": "/api/files/u/1/bulk/square-cat.png", "print_space": "front"}, {"new_url": "u/1/bulk/wide-dog.png", "print_space": "back"}]`)
	// Asynq delivers at least once: the second run finds the record processing and does nothing.
	for range 2 {
		if err := f.run(t, id); err != nil {
			t.Fatalf("task: %v", err)
		}
	}
	got := f.row(t, id)
	if got.Status != tasks.BulkProcessing || got.Message != "" || got.Step != StepApplyDesignSuccess || got.CampaignID == nil || got.Results != nil {
		t.Fatalf("record = %+v", got)
	}
	var camp struct {
		Name     string `db:"name"`
		Artwork  string `db:"artwork_url"`
		Products int    `db:"products"`
	}
	if err := f.db.Get(&camp, `SELECT name, artwork_url, (SELECT count(*) FROM campaign_products WHERE campaign_id = c.id) AS products
FROM campaigns c WHERE id = $1 AND user_id = $2`, *got.CampaignID, f.sellerID); err != nil {
		t.Fatal(err)
	}
	if camp.Name != "Summer tee - square-cat" || camp.Artwork != "u/1/bulk/square-cat.png" || camp.Products != 1 {
		t.Fatalf("campaign = %+v", camp)
	}
	var campaigns int
	f.db.Get(&campaigns, `SELECT count(*) FROM campaigns WHERE user_id = $1`, f.sellerID)
	if campaigns != 2 {
		t.Fatalf("%d campaigns, want the template and one new", campaigns)
	}

	ds := f.designs(t, *got.CampaignID)
	if len(ds) != 2 {
		t.Fatalf("designs = %+v", ds)
	}
	back, front := ds[0], ds[1]
	// Front: same aspect ratio, so the template's placement is kept; the custom text stays.
	if src, box := firstImage(t, front.Document); src != "u/1/bulk/square-cat.png" || box != [4]float64{90, 100, 720, 720} {
		t.Fatalf("front artwork %s at %v", src, box)
	}
	if front.Option != design.OptionCustom || front.Revision != 1 || front.Status != rendertasks.ExportPending {
		t.Fatalf("front = %+v", front)
	}
	// Back: no template design, so the artwork is fitted to the whole print space.
	if src, box := firstImage(t, back.Document); src != "u/1/bulk/wide-dog.png" || box != [4]float64{0, 315, 900, 450} {
		t.Fatalf("back artwork %s at %v", src, box)
	}
	if back.Option != design.OptionPrint || back.Revision != 1 || back.Status != rendertasks.ExportPending {
		t.Fatalf("back = %+v", back)
	}

	// One export per design, on the renderer's bulk queue, sent once.
	var outboxRows int
	if err := f.db.Get(&outboxRows, `SELECT count(*) FROM task_outbox WHERE task_type = $1 AND sent_at IS NOT NULL`, rendertasks.TypeExport); err != nil || outboxRows != 2 {
		t.Fatalf("outbox rows = %d (%v), want 2", outboxRows, err)
	}
	insp := asynq.NewInspector(f.redis)
	defer insp.Close()
	pending, err := insp.ListPendingTasks(queue.Name(queue.Renderer, queue.Bulk))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, tk := range pending {
		ids = append(ids, tk.ID)
	}
	slices.Sort(ids)
	want := []string{fmt.Sprintf("export-%d-r1", back.ID), fmt.Sprintf("export-%d-r1", front.ID)}
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Fatalf("queued exports %v, want %v", ids, want)
	}
}

func TestRecordNotWorked(t *testing.T) {
	f := newFixture(t)
	f.upload(t, f.sellerID, "u/1/a.png", "a.png", "ready", 1000, 1000)
	f.upload(t, f.designerID, "u/2/a.png", "a.png", "ready", 1000, 1000)
	designerTemplate := f.campaign(t, f.designerID, "Designer's", true)
	designs := `[{"new_url": "u/1/a.png", "print_space": "front"}]`
	tests := []struct {
		name  string
		setup func(id int64)
		owner int64
		want  string
	}{
		{"stopped before its task ran", func(id int64) {
			f.db.MustExec(`UPDATE bulk_records SET status = 'stopped' WHERE id = $1`, id)
		}, f.sellerID, tasks.BulkStopped},
		{"restarted: the task is of an old attempt", func(id int64) {
			f.db.MustExec(`UPDATE bulk_records SET attempts = 2 WHERE id = $1`, id)
		}, f.sellerID, tasks.BulkQueued},
		{"a designer's record", func(int64) {}, f.designerID, tasks.BulkQueued},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			template := f.templateID
			if tt.owner == f.designerID {
				template = designerTemplate
			}
			id := f.record(t, tt.owner, template, designs)
			tt.setup(id)
			if err := f.run(t, id); err != nil {
				t.Fatalf("task: %v", err)
			}
			if got := f.row(t, id); got.Status != tt.want || got.Step != "" || got.CampaignID != nil {
				t.Fatalf("record = %+v, want untouched %s", got, tt.want)
			}
		})
	}
	var designsMade int
	if err := f.db.Get(&designsMade, `SELECT count(*) FROM campaign_designs WHERE revision = 1 AND export_status = 'pending'`); err != nil || designsMade != 0 {
		t.Fatalf("%d designs made (%v)", designsMade, err)
	}
}

func TestStopTakesEffectAtTheNextStep(t *testing.T) {
	f := newFixture(t)
	f.upload(t, f.sellerID, "u/1/a.png", "a.png", "ready", 1000, 1000)
	id := f.record(t, f.sellerID, f.templateID, `[{"new_url": "u/1/a.png", "print_space": "front"}]`)
	p := tasks.BulkRecordPayload{RecordID: id, Attempt: 1}
	r, ok, err := loadRecord(context.Background(), f.db, p)
	if err != nil || !ok {
		t.Fatalf("load: %v %v", ok, err)
	}
	// The seller stops the record while the task is between steps.
	f.db.MustExec(`UPDATE bulk_records SET status = 'stopped' WHERE id = $1`, id)
	if ok, err := enterStep(context.Background(), f.db, p, StepPreLoadDesignMockup); err != nil || ok {
		t.Fatalf("next step entered after stop: %v %v", ok, err)
	}
	// Even a task already past its checks writes nothing for a stopped record.
	tmpl, _, err := loadTemplate(context.Background(), f.db, f.sellerID, f.templateID)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := apply(tmpl.Products, map[string]artwork{"front": {Key: "u/1/a.png", Width: 1000, Height: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	ids, applied, err := save(context.Background(), f.db, p, r, tmpl, "x", "u/1/a.png", ds)
	if err != nil || applied || len(ids) != 0 {
		t.Fatalf("save after stop: applied %v, outbox %v, err %v", applied, ids, err)
	}
	if got := f.row(t, id); got.Status != tasks.BulkStopped || got.CampaignID != nil {
		t.Fatalf("record = %+v", got)
	}
}

func TestArtworkStillBeingCheckedIsRetried(t *testing.T) {
	f := newFixture(t)
	f.upload(t, f.sellerID, "u/1/fresh.png", "fresh.png", "pending", 0, 0)
	id := f.record(t, f.sellerID, f.templateID, `[{"new_url": "u/1/fresh.png", "print_space": "front"}]`)
	if err := f.run(t, id); err == nil {
		t.Fatal("task succeeded on an artwork not checked yet; want an error so Asynq retries")
	}
	if got := f.row(t, id); got.Status != tasks.BulkQueued || got.Message != MsgRetrying {
		t.Fatalf("record = %+v", got)
	}
	f.db.MustExec(`UPDATE uploads SET status = 'ready', width = 500, height = 500 WHERE blob_key = 'u/1/fresh.png'`)
	if err := f.run(t, id); err != nil {
		t.Fatalf("retry: %v", err)
	}
	if got := f.row(t, id); got.Status != tasks.BulkProcessing || got.Message != "" {
		t.Fatalf("record after retry = %+v", got)
	}
}

// result is a design record of a completed record's results.
type result struct {
	PrintSpace string          `json:"print_space"`
	ProductID  int64           `json:"product_id"`
	FileURL    string          `json:"file_url"`
	DesignJSON json.RawMessage `json:"design_json"`
	Option     string          `json:"option"`
}

func TestReconcile(t *testing.T) {
	f := newFixture(t)
	f.upload(t, f.sellerID, "u/1/a.png", "a.png", "ready", 1000, 1000)
	rec, err := NewReconciler(DefaultConfig(), f.db, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	done := f.record(t, f.sellerID, f.templateID, `[{"new_url": "u/1/a.png", "print_space": "front"}, {"new_url": "u/1/a.png", "print_space": "back"}]`)
	broken := f.record(t, f.sellerID, f.templateID, `[{"new_url": "u/1/a.png", "print_space": "front"}]`)
	for _, id := range []int64{done, broken} {
		if err := f.run(t, id); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := rec.Reconcile(ctx); err != nil || n != 0 {
		t.Fatalf("reconcile with exports pending settled %d (%v)", n, err)
	}
	// The renderer finishes the first record's prints and fails the second's.
	doneCampaign, brokenCampaign := *f.row(t, done).CampaignID, *f.row(t, broken).CampaignID
	for _, d := range f.designs(t, doneCampaign) {
		f.db.MustExec(`UPDATE campaign_designs SET export_status = 'done', file_url = $2 WHERE id = $1`,
			d.ID, rendertasks.PrintKey(doneCampaign, d.ID, d.Revision))
	}
	f.db.MustExec(`UPDATE campaign_designs SET export_status = 'failed', export_error = $2 WHERE campaign_id = $1`,
		brokenCampaign, export.MsgMissingArtwork)
	if n, err := rec.Reconcile(ctx); err != nil || n != 2 {
		t.Fatalf("reconcile settled %d (%v), want 2", n, err)
	}
	got := f.row(t, done)
	if got.Status != tasks.BulkCompleted || got.Message != "" || got.Results == nil {
		t.Fatalf("done record = %+v", got)
	}
	var results []result
	if err := json.Unmarshal([]byte(*got.Results), &results); err != nil || len(results) != 2 {
		t.Fatalf("results %s (%v)", *got.Results, err)
	}
	for _, d := range f.designs(t, doneCampaign) {
		i := slices.IndexFunc(results, func(r result) bool { return r.PrintSpace == d.PrintSpace })
		if i < 0 || results[i].FileURL != rendertasks.PrintKey(doneCampaign, d.ID, 1) || results[i].Option != d.Option || len(results[i].DesignJSON) == 0 {
			t.Fatalf("result of %s (design %d of campaign %d, option %s): %+v", d.PrintSpace, d.ID, doneCampaign, d.Option, results)
		}
	}
	if got := f.row(t, broken); got.Status != tasks.BulkFailed || got.Message != MsgExportFailed+export.MsgMissingArtwork || got.Results != nil {
		t.Fatalf("broken record = %+v", got)
	}
	// Settled records stay as they are: a second pass writes nothing.
	if n, err := rec.Reconcile(ctx); err != nil || n != 0 {
		t.Fatalf("second reconcile settled %d (%v)", n, err)
	}
}
