package app

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"golang.org/x/image/webp"

	"github.com/pressroom/pressroom/bff/campaigns"
	"github.com/pressroom/pressroom/bff/uploads"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/demoseed"
	"github.com/pressroom/pressroom/renderer/export"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/mockuptask"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// mockupStack is an editor whose stack runs the renderer's export and flat mockup handlers on its
// Redis and blob folder, with a relay to send the outbox as the worker does.
type mockupStack struct {
	*editor
	store blob.Store
	relay *outbox.Relay
}

func newMockupStack(t *testing.T) *mockupStack {
	t.Helper()
	e := newEditor(t)
	store, err := blob.New(e.cfg.Blob, false)
	if err != nil {
		t.Fatal(err)
	}
	exporter, err := export.NewHandler(e.app.DB, store, imagelimit.DefaultConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	mockups, err := mockuptask.NewHandler(e.app.DB, store, mockup.DefaultConfig(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.serve(queue.Renderer, 1, map[string]asynq.Handler{tasks.TypeExport: exporter, tasks.TypeMockup: mockups})
	client := asynq.NewClient(e.cfg.Queue.RedisOpt())
	t.Cleanup(func() { client.Close() })
	relay, err := outbox.NewRelay(outbox.DefaultConfig(), e.app.DB, client, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return &mockupStack{editor: e, store: store, relay: relay}
}

// saveMug creates a campaign of the mug, saves a wrap design of a blank artwork and answers the
// campaign.
func (e *mockupStack) saveMug(t *testing.T) obj {
	t.Helper()
	art := e.upload("u/" + strconv.FormatInt(e.sellerID, 10) + "/designs/mockup-art.png")
	var buf bytes.Buffer
	png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 270, 105)))
	if err := e.store.Put(context.Background(), art, &buf, int64(buf.Len()), "image/png"); err != nil {
		t.Fatal(err)
	}
	c := e.create("Mockup me", "Mug wrap")
	wrap := doc("wrap", imageObj("art", art))
	wrap["printSpace"].(obj)["width"], wrap["printSpace"].(obj)["height"] = 2700, 1050
	wrap["objects"].([]obj)[0]["width"], wrap["objects"].([]obj)[0]["height"] = 2700, 1050
	wrap["objects"].([]obj)[0]["x"], wrap["objects"].([]obj)[0]["y"] = 0, 0
	r := e.do("PUT", path(c), e.token, obj{"name": "Mockup me", "products": products(c), "designs": []obj{design(productID(c, 0), "wrap", wrap)}})
	if r.status != 200 {
		t.Fatalf("save: %d %s", r.status, r.raw)
	}
	return c
}

// settled relays the outbox and polls the campaign's mockups until the first is no longer pending.
func (e *mockupStack) settled(t *testing.T, c obj) []any {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		if _, err := e.relay.Dispatch(context.Background()); err != nil {
			t.Fatal(err)
		}
		items := e.do("GET", path(c, "mockups"), e.token, nil).body.Data.([]any)
		if len(items) > 0 && items[0].(obj)["status"] != tasks.MockupPending || time.Now().After(deadline) {
			return items
		}
	}
}

// TestSaveToMockup is a save end to end up to its flat mockup: the renderer's export and mockup
// handlers run on the stack's Redis and blob folder (the outbox relayed as the worker does), the
// mockups call and the campaign detail then show the seeded mug template's mockup, default, whose
// URL serves a PNG as wide as the template (the test seed draws 256 px templates; the e2e test sees
// 2000 px), and the mug's 3D mockup after it, queued for the Chrome pool (renderer/mockuptask tests
// draw it); the seller then picks another default.
func TestSaveToMockup(t *testing.T) {
	e := newMockupStack(t)
	c := e.saveMug(t)
	items := e.settled(t, c)
	if len(items) != 2 || items[1].(obj)["name"] != "Mug, 3D" || items[1].(obj)["is_default_mockup"] != "0" {
		t.Fatalf("mockups: %v, want the mug's flat and 3D ones", items)
	}
	m := items[0].(obj)
	if m["status"] != "done" || m["is_default_mockup"] != "1" || m["print_space"] != "wrap" || m["url"] == "" ||
		m["file_url"] != blob.MockupKey(idOf(c), int64(m["mockup_template_id"].(float64)), productID(c, 0)) {
		t.Fatalf("mockup: %v", m)
	}
	// Its download is named for what it is.
	e.namedDownload(t, m, "Mockup me - Mug, wrap - mockup.png").Body.Close()
	// The campaign is a draft: its mockups are the seller's (the UI's img requests carry the
	// session cookie), not anyone's.
	if got := e.fileStatus(strings.TrimPrefix(m["url"].(string), "/api/files/"), "", false); got != http.StatusNotFound {
		t.Fatalf("anonymous GET of a draft's mockup: %d, want 404", got)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	sellerGet := func(u string) (*http.Response, error) {
		req, _ := http.NewRequest("GET", u, nil)
		req.Header.Set("Authorization", "Bearer "+e.token)
		return noFollow.Do(req)
	}
	res, err := sellerGet(e.srv.URL + m["url"].(string))
	if err != nil || res.StatusCode != http.StatusFound {
		t.Fatalf("mockup URL: %v %v", res, err)
	}
	res.Body.Close()
	// the redirect is to a signed GET on the configured public address
	res, err = http.Get(e.local(res.Header.Get("Location")))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || err != nil || cfg.Width != demoseed.TestMockupSide {
		t.Fatalf("mockup file: %d, %+v, %v", res.StatusCode, cfg, err)
	}
	// its preview: the test seed's templates are smaller than 500 px, so it keeps their size
	if want := uploads.FileURL(blob.MockupPreviewKey(idOf(c), int64(m["mockup_template_id"].(float64)), productID(c, 0))); !strings.HasPrefix(m["preview_url"].(string), want+"?v=") {
		t.Fatalf("preview_url = %v, want %s?v=...", m["preview_url"], want)
	}
	if res, err = sellerGet(e.srv.URL + m["preview_url"].(string)); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res, err = http.Get(e.local(res.Header.Get("Location"))); err != nil {
		t.Fatal(err)
	}
	wcfg, err := webp.DecodeConfig(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || err != nil || wcfg.Width != demoseed.TestMockupSide {
		t.Fatalf("mockup preview: %d, %+v, %v", res.StatusCode, wcfg, err)
	}
	detail := e.do("GET", path(c), e.token, nil).body.Data.(obj)
	if got := detail["mockups"].([]any); len(got) != 2 || got[0].(obj)["id"] != m["id"] {
		t.Fatalf("detail mockups: %v", got)
	}

	// A second template's mockup of the product; choosing it moves the default.
	var other int64
	const second = `
WITH t AS (INSERT INTO mockup_templates (template_id, print_space, file_url, design_json, position)
	SELECT template_id, 'wrap', 'mockup-templates/mug-wrap/second.json', '{"name": "Mug, second"}', 99 FROM campaign_products WHERE id = $1 RETURNING id)
INSERT INTO campaign_mockups (campaign_id, product_id, print_space, mockup_template_id, design_id, design_revision, status)
SELECT m.campaign_id, m.product_id, m.print_space, t.id, m.design_id, m.design_revision, 'done' FROM campaign_mockups m, t WHERE m.id = $2
RETURNING id`
	if err := e.app.DB.Get(&other, second, productID(c, 0), int64(m["id"].(float64))); err != nil {
		t.Fatal(err)
	}
	if r := e.do("PUT", path(c, "default-mockup"), e.token, obj{"mockup_id": 999999}); r.status != http.StatusNotFound {
		t.Fatalf("unknown mockup: %d %s", r.status, r.raw)
	}
	r := e.do("PUT", path(c, "default-mockup"), e.token, obj{"mockup_id": other})
	if r.status != 200 {
		t.Fatalf("default: %d %s", r.status, r.raw)
	}
	defaults := map[int64]string{}
	for _, it := range r.body.Data.([]any) {
		defaults[idOf(it)] = it.(obj)["is_default_mockup"].(string)
	}
	if defaults[idOf(m)] != "0" || defaults[other] != "1" {
		t.Fatalf("defaults after the choice: %v", defaults)
	}
}

// TestRetryFailedMockup makes the mug's flat mockup fail for real (its template file is gone), then
// retries it: the seller's retry queues it once however often it is asked while queued, and with
// the template back the mockup is made; a made mockup, or one of another campaign, is refused.
func TestRetryFailedMockup(t *testing.T) {
	e := newMockupStack(t)
	var tplKey string
	if err := e.app.DB.Get(&tplKey, `SELECT file_url FROM mockup_templates t JOIN product_templates p ON p.id = t.template_id
WHERE p.name = 'Mug wrap' AND coalesce(t.design_json->>'glb', '') = '' ORDER BY t.position, t.id LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	rc, _, err := e.store.Get(context.Background(), tplKey)
	if err != nil {
		t.Fatal(err)
	}
	tplJSON, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := e.store.Delete(context.Background(), tplKey); err != nil {
		t.Fatal(err)
	}
	c := e.saveMug(t)
	m := e.settled(t, c)[0].(obj)
	if m["status"] != tasks.MockupFailed || m["error"] != mockuptask.MsgMissingTemplate || m["url"] != "" {
		t.Fatalf("mockup without its template: %v, want failed with %q", m, mockuptask.MsgMissingTemplate)
	}
	retry := path(c, "mockups", strconv.FormatInt(idOf(m), 10), "retry")
	other := e.create("Someone else's", "Mug wrap")
	if r := e.do("POST", path(other, "mockups", strconv.FormatInt(idOf(m), 10), "retry"), e.token, nil); r.status != http.StatusNotFound {
		t.Fatalf("retry through another campaign: %d %s", r.status, r.raw)
	}

	if err := e.store.Put(context.Background(), tplKey, bytes.NewReader(tplJSON), int64(len(tplJSON)), "application/json"); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second click while queued adds nothing
		r := e.do("POST", retry, e.token, nil)
		if r.status != 200 || r.body.Data.([]any)[0].(obj)["status"] != tasks.MockupPending {
			t.Fatalf("retry: %d %s", r.status, r.raw)
		}
	}
	var retried []string
	if err := e.app.DB.Select(&retried, `SELECT task_id FROM task_outbox WHERE task_type = $1 AND task_id LIKE '%-retry%'`, tasks.TypeMockup); err != nil {
		t.Fatal(err)
	}
	if want := "mockup-" + strconv.FormatInt(idOf(m), 10) + "-r1-retry1"; len(retried) != 1 || retried[0] != want {
		t.Fatalf("retry tasks = %v, want [%s]", retried, want)
	}
	m = e.settled(t, c)[0].(obj)
	if m["status"] != "done" || m["error"] != "" || m["url"] == "" {
		t.Fatalf("mockup after the retry: %v, want done", m)
	}
	r := e.do("POST", retry, e.token, nil)
	if r.status != http.StatusConflict || r.body.Message != campaigns.MsgMockupNotFailed {
		t.Fatalf("retry of a made mockup: %d %s", r.status, r.raw)
	}
}

// TestRetryFailed3DMockupAndOutdatedDesign retries a failed 3D mockup, which queues render:mockup3d
// under its retry's task id, and refuses to retry a mockup whose design was saved since while the
// new print file is still being made, leaving the row failed.
func TestRetryFailed3DMockupAndOutdatedDesign(t *testing.T) {
	e := newMockupStack(t)
	c := e.saveMug(t)
	items := e.settled(t, c)
	if len(items) != 2 || items[1].(obj)["name"] != "Mug, 3D" {
		t.Fatalf("mockups: %v, want the mug's flat and 3D ones", items)
	}
	flat, threeD := idOf(items[0]), idOf(items[1])
	e.app.DB.MustExec(`UPDATE campaign_mockups SET status = 'failed', error = 'x' WHERE id = $1`, threeD)
	r := e.do("POST", path(c, "mockups", strconv.FormatInt(threeD, 10), "retry"), e.token, nil)
	if r.status != 200 {
		t.Fatalf("retry of the 3D mockup: %d %s", r.status, r.raw)
	}
	var task struct {
		Type  string `db:"task_type"`
		ID    string `db:"task_id"`
		Queue string `db:"queue"`
	}
	if err := e.app.DB.Get(&task, `SELECT task_type, task_id, queue FROM task_outbox WHERE task_id LIKE '%-retry%'`); err != nil {
		t.Fatal(err)
	}
	if want := "mockup3d-" + strconv.FormatInt(threeD, 10) + "-r1-retry1"; task.Type != tasks.TypeMockup3D || task.ID != want || task.Queue != "renderer.interactive" {
		t.Fatalf("outbox task = %+v, want %s %s on renderer.interactive", task, tasks.TypeMockup3D, want)
	}

	e.app.DB.MustExec(`UPDATE campaign_mockups SET status = 'failed', error = 'x' WHERE id = $1`, flat)
	// saved again: revision 2's print file is still being made
	e.app.DB.MustExec(`UPDATE campaign_designs SET revision = 2, export_status = 'pending' WHERE campaign_id = $1`, idOf(c))
	r = e.do("POST", path(c, "mockups", strconv.FormatInt(flat, 10), "retry"), e.token, nil)
	if r.status != http.StatusConflict || r.body.Message != campaigns.MsgMockupOutdated {
		t.Fatalf("retry of an outdated mockup: %d %s", r.status, r.raw)
	}
	var status string
	if err := e.app.DB.Get(&status, `SELECT status FROM campaign_mockups WHERE id = $1`, flat); err != nil || status != tasks.MockupFailed {
		t.Fatalf("refused retry changed the row: %q, %v", status, err)
	}
}
