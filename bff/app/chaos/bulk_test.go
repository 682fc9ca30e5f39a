package chaos

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/bff/app"
	"github.com/pressroom/pressroom/bff/seed"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/renderer/demoseed"
	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// How many records the bulk run makes, and how long it may take at most on a loaded machine: a
// task that was running when its process was killed comes back once the queue's rescue has noticed
// its dead server (about 10 s; see TestKilledExportRerunsSoon).
const (
	records      = 50
	runDeadline  = 10 * time.Minute
	pollInterval = 200 * time.Millisecond
)

// TestBulkRunSurvivesKills runs 50 bulk records (a template campaign on a small T-shirt, front and
// back, with the seeded demo artwork) through the real worker and renderer processes, kills them
// with SIGKILL in the middle of the run (the worker while it applies records, the renderer while it
// renders, then both at once, then the renderer again), restarts them, and checks that every record
// ends completed exactly once: one campaign each, one product with one design per print space at
// revision 1 and its print file stored, results written, every task queued once through the outbox,
// nothing lost to Asynq's archive, and every mockup made once mockups exist.
func TestBulkRunSurvivesKills(t *testing.T) {
	if testing.Short() {
		t.Skip("the chaos test builds and runs the worker and renderer: skipped in -short mode")
	}
	bins := buildServices(t)
	r := newRun(t, bins)

	r.worker.start()
	r.renderer.start()
	ids := r.createRecords()

	// The worker applies records within a second or two: kill it as soon as some are applied and
	// some are not, or at once if the run got there first.
	r.killWhen("the worker while it applies records", func(p progress) bool { return p.Applied > 0 && p.Applied < records }, r.worker)
	// The renderer is busy while print files wait to be started, and it was (re)started once it has
	// made new ones since the last kill. (A killed renderer leaves its designs "rendering" until
	// Asynq hands their tasks out again: that state says nothing about work in flight.)
	busy := func(p progress) bool { return p.Exported >= r.exportedAtKill+2 && p.Waiting > 0 }
	r.killWhen("the renderer while it renders", busy, r.renderer)
	r.killWhen("the worker and the renderer at once", busy, r.worker, r.renderer)
	r.killWhen("the renderer again", busy, r.renderer)

	r.waitSettled()
	r.checkExactlyOnce(ids)
}

// binaries are the service binaries built from this checkout.
type binaries struct{ worker, renderer string }

// buildServices builds the worker (CGO off) and the renderer (CGO on: its WebP encoder is C) as
// scripts/test does.
func buildServices(t *testing.T) binaries {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the chaos test builds the worker and renderer with the Go toolchain, which is not on PATH: %v", err)
	}
	out, err := exec.Command(goBin, "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		t.Fatalf("find the module root (go env GOMOD = %q): %v", out, err)
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	dir := t.TempDir()
	b := binaries{worker: filepath.Join(dir, "worker"), renderer: filepath.Join(dir, "renderer")}
	for _, s := range []struct{ out, pkg, cgo string }{
		{b.worker, "./worker/cmd/worker", "0"},
		{b.renderer, "./renderer/cmd/renderer", "1"},
	} {
		cmd := exec.Command(goBin, "build", "-o", s.out, s.pkg)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED="+s.cgo)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", s.pkg, err, out)
		}
	}
	return b
}

// run is one bulk run: the bff in process, the worker and renderer as processes, the demo seller
// signed in.
type run struct {
	t        *testing.T
	db       *sqlx.DB
	store    blob.Store
	srv      *httptest.Server
	redis    asynq.RedisClientOpt
	token    string
	sellerID int64
	// seeded is the last outbox row of the demo data (the demo shop queues its products' print
	// files): the run's own tasks come after it.
	seeded     int64
	templateID int64
	worker     *service
	renderer   *service
	kills      int
	// exportedAtKill is how many print files were made when the last kill happened.
	exportedAtKill int
}

func newRun(t *testing.T, bins binaries) *run {
	t.Helper()
	db, dbURL := testinfra.Postgres(t)
	redisAddr, redisDB := testinfra.Redis(t)
	dir := t.TempDir()
	blobDir, uiDir, logDir := filepath.Join(dir, "blobs"), filepath.Join(dir, "ui"), filepath.Join(dir, "logs")
	for _, d := range []string{blobDir, uiDir, logDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(uiDir, "index.html"), []byte("<!doctype html><title>Pressroom</title>"), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{
		"PRESSROOM_ENV": "test", "PRESSROOM_DATABASE_URL": dbURL, "PRESSROOM_REDIS_ADDR": redisAddr,
		"PRESSROOM_REDIS_DB": strconv.Itoa(redisDB), "PRESSROOM_BLOB_DIR": blobDir, "PRESSROOM_UI_DIR": uiDir,
		"PRESSROOM_BCRYPT_COST": "10", "PRESSROOM_RENDERER_HTTP_ADDR": freeAddr(t),
		"PRESSROOM_BULK_RECONCILE_INTERVAL": "500ms", "PRESSROOM_QUEUE_SHUTDOWN_TIMEOUT": "5s",
		// One print file at a time: the run lasts long enough to be killed in the middle of it.
		"PRESSROOM_RENDERER_CONCURRENCY": "1",
	}
	cfg, err := app.LoadConfig(env.Map(vars))
	if err != nil {
		t.Fatal(err)
	}
	bff, err := app.New(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bff.Close() })
	srv := httptest.NewServer(bff.Echo)
	t.Cleanup(srv.Close)
	store, err := blob.New(cfg.Blob, false)
	if err != nil {
		t.Fatal(err)
	}
	box, err := cfg.Seal.PaymentBox()
	if err != nil {
		t.Fatal(err)
	}
	if err := seed.Run(context.Background(), seed.Deps{DB: db, Store: store, Env: "test", BcryptCost: 10, Box: box}); err != nil {
		t.Fatal(err)
	}
	if err := demoseed.Run(context.Background(), db, store, 0); err != nil {
		t.Fatal(err)
	}
	r := &run{t: t, db: db, store: store, srv: srv, redis: cfg.Queue.RedisOpt()}
	if err := db.Get(&r.sellerID, `SELECT id FROM users WHERE email = 'seller@example.com'`); err != nil {
		t.Fatal(err)
	}
	if err := db.Get(&r.seeded, `SELECT COALESCE(max(id), 0) FROM task_outbox`); err != nil {
		t.Fatal(err)
	}
	r.templateID = r.templateCampaign()
	r.token = r.login()

	// The services get the test's settings and nothing else of PRESSROOM_* from the environment.
	var procEnv []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PRESSROOM_") || strings.HasPrefix(kv, "PRESSROOM_CHROMIUM_PATH=") {
			procEnv = append(procEnv, kv)
		}
	}
	for k, v := range vars {
		procEnv = append(procEnv, k+"="+v)
	}
	r.worker = &service{t: t, name: "worker", bin: bins.worker, env: procEnv, log: filepath.Join(logDir, "worker.log")}
	r.renderer = &service{t: t, name: "renderer", bin: bins.renderer, env: procEnv, log: filepath.Join(logDir, "renderer.log")}
	t.Cleanup(func() {
		r.worker.stop()
		r.renderer.stop()
		if t.Failed() {
			r.worker.printLog()
			r.renderer.printLog()
		}
	})
	return r
}

// Print spaces of the run's T-shirt: a sixth of the catalogue's 4500x5400 in each direction, so
// that a print file takes a fraction of a second and the run stays short.
const spaceW, spaceH = 750, 900

// templateName is the run's template campaign; each record's campaign is named after it.
const templateName = "Chaos template"

// templateCampaign makes the seller's template campaign on a small T-shirt (with the demo
// T-shirt's mockup templates, once mockups exist): the seeded demo artwork on front and back, and a
// caption on the front.
func (r *run) templateCampaign() int64 {
	r.t.Helper()
	spaces := fmt.Sprintf(`[{"name":"front","width":%[1]d,"height":%[2]d,"DPI":300,"minDPI":150,"printType":0,"isMain":true},
{"name":"back","width":%[1]d,"height":%[2]d,"DPI":300,"minDPI":150,"printType":0,"isMain":false}]`, spaceW, spaceH)
	var productTemplate, campaignID, productID int64
	const qt = `INSERT INTO product_templates (name, product_type, print_spaces, mockup_type) VALUES ('Chaos tee', 'tshirt', $1, 'tshirt') RETURNING id`
	if err := r.db.Get(&productTemplate, qt, spaces); err != nil {
		r.t.Fatal(err)
	}
	var hasMockups bool
	if err := r.db.Get(&hasMockups, `SELECT to_regclass('mockup_templates') IS NOT NULL`); err != nil {
		r.t.Fatal(err)
	}
	if hasMockups {
		r.db.MustExec(`INSERT INTO mockup_templates (template_id, print_space, type_detail, file_url, design_json, position)
SELECT $1, m.print_space, m.type_detail, m.file_url, m.design_json, m.position
FROM mockup_templates m JOIN product_templates p ON p.id = m.template_id WHERE p.name = 'T-shirt'`, productTemplate)
	}
	if err := r.db.Get(&campaignID, `INSERT INTO campaigns (user_id, name) VALUES ($1, $2) RETURNING id`, r.sellerID, templateName); err != nil {
		r.t.Fatal(err)
	}
	const qp = `INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, mockup_type)
SELECT $1, id, name, product_type, print_spaces, mockup_type FROM product_templates WHERE id = $2 RETURNING id`
	if err := r.db.Get(&productID, qp, campaignID, productTemplate); err != nil {
		r.t.Fatal(err)
	}
	art := seed.BulkArtworkKey(r.sellerID)
	for _, side := range []struct {
		space string
		box   float64
	}{{"front", spaceW * 0.8}, {"back", spaceW * 0.5}} {
		doc := design.Document{Version: design.Version,
			PrintSpace: design.PrintSpace{Name: side.space, Width: spaceW, Height: spaceH, DPI: 300, MinDPI: 150},
			Objects: []design.Object{&design.ImageObject{ID: "artwork", Src: art, X: (spaceW - side.box) / 2, Y: 60,
				Width: side.box, Height: side.box}}}
		if side.space == "front" {
			doc.Objects = append(doc.Objects, &design.TextObject{ID: "caption", Text: "Chaos", FontFamily: design.DefaultFontFamily,
				FontSize: 60, Fill: "#1f2a44", X: 75, Y: 60 + side.box + 30, Width: spaceW - 150, TextWidth: design.TextWidthLimited,
				TextAlign: design.AlignCenter, MaxLength: 16, DisplayStyle: design.DisplayColor})
		}
		b, err := json.Marshal(&doc)
		if err != nil {
			r.t.Fatal(err)
		}
		if _, err := design.Parse(b); err != nil {
			r.t.Fatalf("%s design: %v", side.space, err)
		}
		r.db.MustExec(`INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json, option, export_status)
VALUES ($1, $2, $3, $4::jsonb, 'print', 'none')`, campaignID, productID, side.space, string(b))
	}
	return campaignID
}

// freeAddr is a loopback address with a port nobody listens on right now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// call sends a JSON request to the bff and decodes the envelope's data into out.
func (r *run) call(method, path string, body, out any) int {
	r.t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		r.t.Fatal(err)
	}
	req, err := http.NewRequest(method, r.srv.URL+path, bytes.NewReader(b))
	if err != nil {
		r.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		r.t.Fatal(err)
	}
	var env struct{ Data json.RawMessage }
	if err := json.Unmarshal(raw, &env); err != nil {
		r.t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, raw)
	}
	if out != nil && res.StatusCode < 300 {
		if err := json.Unmarshal(env.Data, out); err != nil {
			r.t.Fatalf("%s %s: %s: %v", method, path, raw, err)
		}
	}
	if res.StatusCode >= 300 {
		r.t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, raw)
	}
	return res.StatusCode
}

func (r *run) login() string {
	r.t.Helper()
	var data struct {
		Token string `json:"access_token"`
	}
	r.call("POST", "/api/auth/seller/login", map[string]string{"email": "seller@example.com", "password": seed.DemoPassword}, &data)
	return data.Token
}

// createRecords stores the artworks as the seller's ready uploads (a front artwork per record, one
// back artwork for all) and creates one bulk upload of 50 records through the bff's API.
func (r *run) createRecords() []int64 {
	r.t.Helper()
	art := squarePNG(r.t, artSize)
	backKey := r.artwork(art, "back.png")
	var entries [][]map[string]string
	for i := range records {
		entries = append(entries, []map[string]string{
			{"new_url": r.artwork(art, fmt.Sprintf("art-%02d.png", i)), "print_space": "front"},
			{"new_url": backKey, "print_space": "back"},
		})
	}
	var out struct {
		Records []struct {
			ID int64 `json:"id"`
		} `json:"records"`
	}
	body := map[string]any{"template_campaign_id": r.templateID, "name": "Chaos run", "records": entries}
	r.call("POST", "/api/seller/bulk-campaigns/multi-print-spaces/records", body, &out)
	if len(out.Records) != records {
		r.t.Fatalf("created %d records, want %d", len(out.Records), records)
	}
	ids := make([]int64, len(out.Records))
	for i, rec := range out.Records {
		ids[i] = rec.ID
	}
	return ids
}

// artwork stores the PNG under the seller's chaos folder as a ready upload named name; it returns
// the blob key.
func (r *run) artwork(b []byte, name string) string {
	r.t.Helper()
	ctx := context.Background()
	key := "u/" + strconv.FormatInt(r.sellerID, 10) + "/chaos/" + name
	if err := r.store.Put(ctx, key, bytes.NewReader(b), int64(len(b)), "image/png"); err != nil {
		r.t.Fatal(err)
	}
	info, err := r.store.Stat(ctx, key)
	if err != nil {
		r.t.Fatal(err)
	}
	const q = `INSERT INTO uploads (owner_id, blob_key, file_name, status, content_type, width, height, byte_size, blob_version)
VALUES ($1, $2, $3, 'ready', 'image/png', $4, $4, $5, $6)`
	r.db.MustExec(q, r.sellerID, key, name, artSize, info.Size, tasks.BlobVersion(info))
	return key
}

// artSize is the side of the records' square artworks.
const artSize = 600

// squarePNG is an n x n opaque artwork: a diagonal gradient.
func squarePNG(t *testing.T, n int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	for y := range n {
		for x := range n {
			img.SetNRGBA(x, y, color.NRGBA{R: uint8(255 * x / n), G: 90, B: uint8(255 * y / n), A: 255})
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// progress is where the run stands.
type progress struct {
	// Applied records have their campaign (processing or settled).
	Applied int `db:"applied"`
	// Settled records are completed, failed or stopped.
	Settled int `db:"settled"`
	// Exported designs have their print file.
	Exported int `db:"exported"`
	// Waiting designs are pending: no renderer has started them yet.
	Waiting int `db:"waiting"`
	// PendingMockups are mockups of the run's campaigns not made yet (0 before mockups exist).
	PendingMockups int `db:"pending_mockups"`
}

func (r *run) progress() progress {
	r.t.Helper()
	mockups := "0"
	var hasMockups bool
	if err := r.db.Get(&hasMockups, `SELECT to_regclass('campaign_mockups') IS NOT NULL`); err != nil {
		r.t.Fatal(err)
	}
	if hasMockups {
		mockups = `(SELECT count(*) FROM campaign_mockups m JOIN bulk_records b ON b.campaign_id = m.campaign_id
			WHERE b.user_id = $1 AND m.status = 'pending')`
	}
	q := `SELECT
	(SELECT count(*) FROM bulk_records WHERE user_id = $1 AND campaign_id IS NOT NULL) AS applied,
	(SELECT count(*) FROM bulk_records WHERE user_id = $1 AND status IN ('completed', 'failed', 'stopped')) AS settled,
	(SELECT count(*) FROM campaign_designs d JOIN bulk_records b ON b.campaign_id = d.campaign_id
		WHERE b.user_id = $1 AND d.export_status = 'done') AS exported,
	(SELECT count(*) FROM campaign_designs d JOIN bulk_records b ON b.campaign_id = d.campaign_id
		WHERE b.user_id = $1 AND d.export_status = 'pending') AS waiting,
	` + mockups + ` AS pending_mockups`
	var p progress
	if err := r.db.Get(&p, q, r.sellerID); err != nil {
		r.t.Fatal(err)
	}
	return p
}

// killWhen waits until ready holds (or the worker-only first round's moment has passed), then
// kills the services with SIGKILL and starts them again. The run must still be going: a kill after
// the last record settled would test nothing.
func (r *run) killWhen(what string, ready func(progress) bool, victims ...*service) {
	r.t.Helper()
	deadline := time.Now().Add(runDeadline)
	var p progress
	for {
		p = r.progress()
		r.checkAlive()
		if p.Settled == records {
			r.t.Fatalf("kill %d (%s): the run ended before it (%+v); nothing was killed mid-run", r.kills+1, what, p)
		}
		if ready(p) || (r.kills == 0 && p.Applied == records) {
			break
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("kill %d (%s): never ready: %+v", r.kills+1, what, p)
		}
		time.Sleep(pollInterval / 4)
	}
	for _, v := range victims {
		v.kill()
	}
	r.kills++
	r.exportedAtKill = p.Exported
	r.t.Logf("kill %d: %s at %+v", r.kills, what, p)
	time.Sleep(500 * time.Millisecond)
	for _, v := range victims {
		v.start()
	}
}

// waitSettled waits until every record is completed, failed or stopped and no mockup of theirs
// is pending.
func (r *run) waitSettled() {
	r.t.Helper()
	deadline := time.Now().Add(runDeadline)
	for {
		p := r.progress()
		if p.Settled == records && p.PendingMockups == 0 {
			r.t.Logf("settled: %+v", p)
			return
		}
		r.checkAlive()
		if time.Now().After(deadline) {
			r.t.Fatalf("the run did not settle within %s: %+v", runDeadline, p)
		}
		time.Sleep(pollInterval)
	}
}

func (r *run) checkAlive() {
	r.t.Helper()
	r.worker.checkAlive()
	r.renderer.checkAlive()
}

// checkExactlyOnce checks the end state of the run.
func (r *run) checkExactlyOnce(ids []int64) {
	t := r.t
	t.Helper()
	var rows []struct {
		ID         int64  `db:"id"`
		Status     string `db:"status"`
		Message    string `db:"message"`
		Attempts   int    `db:"attempts"`
		Results    int    `db:"results"`
		CampaignID int64  `db:"campaign_id"`
		Name       string `db:"name"`
		Products   int    `db:"products"`
		Spaces     string `db:"spaces"`
		Done       int    `db:"done"`
	}
	const q = `
SELECT b.id, b.status, b.message, b.attempts, coalesce(jsonb_array_length(b.results), -1) AS results, c.id AS campaign_id, c.name,
	(SELECT count(*) FROM campaign_products p WHERE p.campaign_id = c.id) AS products,
	(SELECT coalesce(string_agg(d.print_space, ',' ORDER BY d.print_space), '') FROM campaign_designs d WHERE d.campaign_id = c.id) AS spaces,
	(SELECT count(*) FROM campaign_designs d WHERE d.campaign_id = c.id AND d.export_status = 'done' AND d.revision = 1) AS done
FROM bulk_records b LEFT JOIN campaigns c ON c.id = b.campaign_id
WHERE b.user_id = $1 ORDER BY b.id`
	if err := r.db.Select(&rows, q, r.sellerID); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(ids) {
		t.Fatalf("%d records, want %d", len(rows), len(ids))
	}
	names := map[string]bool{}
	for i, row := range rows {
		wantName := fmt.Sprintf("%s - art-%02d", templateName, i)
		// Results hold at least the two design records (mockups may add theirs).
		if row.ID != ids[i] || row.Status != "completed" || row.Attempts != 1 || row.Results < 2 || row.Name != wantName ||
			row.Products != 1 || row.Spaces != "back,front" || row.Done != 2 {
			t.Errorf("record %d = %+v, want completed once: attempt 1, campaign %q with one product, back and front done at revision 1, results written",
				ids[i], row, wantName)
		}
		names[row.Name] = true
	}
	// No campaign beyond the records' own: an apply cut short by a kill left none behind.
	var made int
	if err := r.db.Get(&made, `SELECT count(*) FROM campaigns WHERE user_id = $1 AND name LIKE $2`, r.sellerID, templateName+" - %"); err != nil {
		t.Fatal(err)
	}
	if made != records || len(names) != records {
		t.Errorf("the seller has %d campaigns besides the template, %d distinct names; want %d", made, len(names), records)
	}

	// Every mockup of theirs was made, once mockups exist (waitSettled saw none pending).
	var hasMockups bool
	if err := r.db.Get(&hasMockups, `SELECT to_regclass('campaign_mockups') IS NOT NULL`); err != nil {
		t.Fatal(err)
	}
	if hasMockups {
		var failedMockups int
		const qm = `SELECT count(*) FROM campaign_mockups m JOIN bulk_records b ON b.campaign_id = m.campaign_id
WHERE b.user_id = $1 AND m.status <> 'done'`
		if err := r.db.Get(&failedMockups, qm, r.sellerID); err != nil || failedMockups != 0 {
			t.Errorf("%d mockups of the run not made (%v)", failedMockups, err)
		}
	}

	// Every print file is stored under its revision's key.
	var designs []struct {
		ID         int64  `db:"id"`
		CampaignID int64  `db:"campaign_id"`
		FileURL    string `db:"file_url"`
	}
	const qd = `SELECT d.id, d.campaign_id, d.file_url FROM campaign_designs d JOIN bulk_records b ON b.campaign_id = d.campaign_id
WHERE b.user_id = $1 ORDER BY d.id`
	if err := r.db.Select(&designs, qd, r.sellerID); err != nil {
		t.Fatal(err)
	}
	for _, d := range designs {
		want := tasks.PrintKey(d.CampaignID, d.ID, 1)
		if info, err := r.store.Stat(context.Background(), want); d.FileURL != want || err != nil || info.Size == 0 {
			t.Errorf("design %d: print file %q (want %q): %+v %v", d.ID, d.FileURL, want, info, err)
		}
	}

	// Each task went through the outbox once, with its own task id, and was sent.
	var outbox []struct {
		Type     string `db:"task_type"`
		Rows     int    `db:"rows"`
		Distinct int    `db:"distinct_ids"`
		Unsent   int    `db:"unsent"`
	}
	const qo = `SELECT task_type, count(*) AS rows, count(DISTINCT task_id) AS distinct_ids, count(*) FILTER (WHERE sent_at IS NULL) AS unsent
FROM task_outbox WHERE id > $1 GROUP BY task_type ORDER BY task_type`
	if err := r.db.Select(&outbox, qo, r.seeded); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"bulk:record": records, tasks.TypeExport: len(designs)}
	for _, o := range outbox {
		if n, ok := want[o.Type]; (ok && o.Rows != n) || o.Distinct != o.Rows || o.Unsent != 0 {
			t.Errorf("outbox %s: %d rows, %d task ids, %d unsent; want %d rows, one task id each, all sent", o.Type, o.Rows, o.Distinct, o.Unsent, n)
		}
		delete(want, o.Type)
	}
	if len(want) > 0 {
		t.Errorf("no outbox rows of %v", want)
	}
	t.Logf("outbox: %+v", outbox)

	// Nothing was given up: no task in any queue's archive.
	insp := asynq.NewInspector(r.redis)
	defer insp.Close()
	queues, err := insp.Queues()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range queues {
		info, err := insp.GetQueueInfo(q)
		if err != nil {
			t.Fatal(err)
		}
		if info.Archived > 0 {
			tasks, _ := insp.ListArchivedTasks(q)
			for _, tk := range tasks {
				t.Errorf("archived in %s: %s %s: %s", q, tk.Type, tk.Payload, tk.LastErr)
			}
		}
	}
	if r.kills < 4 {
		t.Errorf("%d kills, want 4", r.kills)
	}
}

// service is a worker or renderer process, in a process group of its own so that a kill reaches
// anything it started.
type service struct {
	t      *testing.T
	name   string
	bin    string
	env    []string
	log    string
	cmd    *exec.Cmd
	exited chan struct{}
	starts int
}

func (s *service) start() {
	s.t.Helper()
	f, err := os.OpenFile(s.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	s.starts++
	fmt.Fprintf(f, "===== %s start %d at %s =====\n", s.name, s.starts, time.Now().UTC().Format(time.RFC3339Nano))
	cmd := exec.Command(s.bin)
	cmd.Env = s.env
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("start %s: %v", s.name, err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	s.cmd, s.exited = cmd, exited
}

// running reports whether the process started last is still running.
func (s *service) running() bool {
	if s.cmd == nil {
		return false
	}
	select {
	case <-s.exited:
		return false
	default:
		return true
	}
}

// checkAlive fails the test when the service exited without being killed.
func (s *service) checkAlive() {
	s.t.Helper()
	if s.cmd != nil && !s.running() {
		s.t.Fatalf("%s exited by itself: %v", s.name, s.cmd.ProcessState)
	}
}

// kill sends SIGKILL to the service's process group and waits until the process is gone.
func (s *service) kill() {
	s.t.Helper()
	if !s.running() {
		s.t.Fatalf("kill %s: not running", s.name)
	}
	if err := syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL); err != nil {
		s.t.Fatalf("kill %s: %v", s.name, err)
	}
	<-s.exited
	s.cmd = nil
}

// stop ends the service gracefully (SIGTERM), or with SIGKILL after half a minute.
func (s *service) stop() {
	if !s.running() {
		return
	}
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(30 * time.Second):
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.exited
	}
}

// printLog writes the end of the service's log to the test output.
func (s *service) printLog() {
	b, err := os.ReadFile(s.log)
	if err != nil {
		s.t.Logf("%s log: %v", s.name, err)
		return
	}
	if len(b) > 16<<10 {
		b = b[len(b)-16<<10:]
	}
	s.t.Logf("%s log (end):\n%s", s.name, b)
}
