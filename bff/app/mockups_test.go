package app

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"log/slog"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/bff/seed"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/export"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/mockuptask"
)

// TestSaveToMockup is a save end to end up to its flat mockup: the renderer's export and mockup
// handlers run on the stack's Redis and blob folder (the outbox relayed as the worker does), the
// mockups call and the campaign detail then show the seeded mug template's mockup, default, whose
// URL serves a PNG as wide as the template (the test seed draws 256 px templates; the e2e test sees
// 2000 px), and the mug's 3D mockup after it, queued for the Chrome pool (renderer/mockuptask tests
// draw it); the seller then picks another default.
func TestSaveToMockup(t *testing.T) {
	e := newEditor(t)
	store, err := blob.New(e.cfg.Blob, false)
	if err != nil {
		t.Fatal(err)
	}
	art := e.upload("u/" + strconv.FormatInt(e.sellerID, 10) + "/designs/mockup-art.png")
	var buf bytes.Buffer
	png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 270, 105)))
	if err := store.Put(context.Background(), art, &buf, int64(buf.Len()), "image/png"); err != nil {
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
	e.serve(queue.Renderer, 1, map[string]asynq.Handler{export.TypeExport: exporter, mockuptask.TypeMockup: mockups})
	client := asynq.NewClient(e.cfg.Queue.RedisOpt())
	t.Cleanup(func() { client.Close() })
	relay, err := outbox.NewRelay(outbox.DefaultConfig(), e.app.DB, client, slog.New(slog.DiscardHandler))
	if err != nil {
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
	var items []any
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		if _, err := relay.Dispatch(context.Background()); err != nil {
			t.Fatal(err)
		}
		r := e.do("GET", path(c, "mockups"), e.token, nil)
		items = r.body.Data.([]any)
		if len(items) > 0 && items[0].(obj)["status"] != mockuptask.StatusPending || time.Now().After(deadline) {
			break
		}
	}
	if len(items) != 2 || items[1].(obj)["name"] != "Mug, 3D" || items[1].(obj)["is_default_mockup"] != "0" {
		t.Fatalf("mockups: %v, want the mug's flat and 3D ones", items)
	}
	m := items[0].(obj)
	if m["status"] != "done" || m["is_default_mockup"] != "1" || m["print_space"] != "wrap" || m["url"] == "" ||
		m["file_url"] != blob.MockupKey(idOf(c), int64(m["mockup_template_id"].(float64)), productID(c, 0)) {
		t.Fatalf("mockup: %v", m)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noFollow.Get(e.srv.URL + m["url"].(string))
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
	if res.StatusCode != 200 || err != nil || cfg.Width != seed.TestMockupSide {
		t.Fatalf("mockup file: %d, %+v, %v", res.StatusCode, cfg, err)
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
	r = e.do("PUT", path(c, "default-mockup"), e.token, obj{"mockup_id": other})
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
