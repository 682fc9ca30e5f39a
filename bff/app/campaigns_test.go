package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/bff/campaigns"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/dpi"
	"github.com/pressroom/pressroom/renderer/export"
	"github.com/pressroom/pressroom/renderer/fonts"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/outlines"
	"github.com/pressroom/pressroom/renderer/tasks"
)

type obj = map[string]any

// editor is a seller signed in on the stack, with the demo templates by name.
type editor struct {
	*stack
	token     string
	sellerID  int64
	templates map[string]int64
	// seeded is the last outbox row of the demo data (the demo shop queues its products' print
	// files), so that outboxExports sees only what the test itself queued.
	seeded int64
}

func newEditor(t *testing.T) *editor {
	t.Helper()
	s := newStack(t)
	e := &editor{stack: s, token: s.mint("seller@example.com", "own", "", false), templates: map[string]int64{}}
	if err := s.app.DB.Get(&e.sellerID, `SELECT id FROM users WHERE email = 'seller@example.com'`); err != nil {
		t.Fatal(err)
	}
	if err := s.app.DB.Get(&e.seeded, `SELECT COALESCE(max(id), 0) FROM task_outbox`); err != nil {
		t.Fatal(err)
	}
	r := s.do("GET", "/api/seller/product-templates", e.token, nil)
	if r.status != 200 {
		t.Fatalf("templates: %d %s", r.status, r.raw)
	}
	for _, tpl := range r.body.Data.([]any) {
		tpl := tpl.(obj)
		e.templates[tpl["name"].(string)] = int64(tpl["id"].(float64))
	}
	return e
}

// upload records key as a ready upload of the seller.
func (e *editor) upload(key string) string {
	e.t.Helper()
	if _, err := e.app.DB.Exec(`INSERT INTO uploads (owner_id, blob_key, file_name, status) VALUES ($1, $2, 'art.png', 'ready')`, e.sellerID, key); err != nil {
		e.t.Fatal(err)
	}
	return key
}

// create makes a campaign of the named templates and returns it.
func (e *editor) create(name string, templates ...string) obj {
	e.t.Helper()
	ids := []int64{}
	for _, n := range templates {
		ids = append(ids, e.templates[n])
	}
	r := e.do("POST", "/api/seller/campaigns", e.token, obj{"name": name, "kind": "regular", "template_ids": ids})
	if r.status != 200 {
		e.t.Fatalf("create: %d %s", r.status, r.raw)
	}
	return r.body.Data.(obj)
}

func idOf(v any) int64 { return int64(v.(obj)["id"].(float64)) }

func path(c obj, rest ...string) string {
	p := "/api/seller/campaigns/" + strconv.FormatInt(idOf(c), 10)
	for _, r := range rest {
		p += "/" + r
	}
	return p
}

// doc is a design document of a 4500x5400 print space at 300 DPI (150 minimum).
func doc(space string, objects ...obj) obj {
	if objects == nil {
		objects = []obj{}
	}
	return obj{"version": 1, "printSpace": obj{"name": space, "width": 4500, "height": 5400, "dpi": 300, "minDpi": 150, "printType": 0},
		"objects": objects}
}

func imageObj(id, src string) obj {
	return obj{"type": "image", "id": id, "src": src, "x": 250, "y": 300, "width": 4000, "height": 4800, "rotation": 0}
}

func textObj(id, text string, custom bool) obj {
	return obj{"type": "text", "id": id, "text": text, "fontFamily": "Roboto", "fontUrl": "", "fontSize": 100, "fill": "#111111",
		"x": 450, "y": 4600, "width": 3600, "rotation": 0, "textWidth": "limited", "textAlign": "center", "maxLength": 16,
		"convertText": "uppercase", "displayStyle": "color", "backgroundUrl": "", "isCustom": custom}
}

// products lists a campaign's products as the save body carries them.
func products(c obj) []obj {
	var out []obj
	for _, p := range c["products"].([]any) {
		out = append(out, obj{"id": idOf(p), "personalized": p.(obj)["personalized"]})
	}
	return out
}

func productID(c obj, i int) int64 { return idOf(c["products"].([]any)[i]) }

// design is one design of a save body.
func design(productID int64, space string, d obj) obj {
	return obj{"product_id": productID, "print_space": space, "design_json": d}
}

// designOf finds the design of a product's print space in a campaign answer.
func designOf(t *testing.T, c obj, productID int64, space string) obj {
	t.Helper()
	for _, d := range c["designs"].([]any) {
		d := d.(obj)
		if int64(d["product_id"].(float64)) == productID && d["print_space"] == space {
			return d
		}
	}
	t.Fatalf("no design of product %d %s in %v", productID, space, c["designs"])
	return nil
}

func (e *editor) outboxExports() []string {
	e.t.Helper()
	var ids []string
	if err := e.app.DB.Select(&ids, `SELECT task_id FROM task_outbox WHERE task_type = $1 AND id > $2 ORDER BY id`, tasks.TypeExport, e.seeded); err != nil {
		e.t.Fatal(err)
	}
	return ids
}

func TestCampaignCatalogueAndFonts(t *testing.T) {
	e := newEditor(t)
	r := e.do("GET", "/api/seller/product-templates", e.token, nil)
	tpls := r.body.Data.([]any)
	if len(tpls) != 5 {
		t.Fatalf("templates: %s", r.raw)
	}
	want := map[string]string{"T-shirt": "front,back", "Hoodie": "front,back", "Mug wrap": "wrap", "Poster": "front", "All-over-print shirt": "front,back"}
	for _, tpl := range tpls {
		tpl := tpl.(obj)
		var spaces []campaigns.PrintSpace
		if err := json.Unmarshal([]byte(tpl["print_spaces"].(string)), &spaces); err != nil {
			t.Fatal(err)
		}
		names := ""
		for i, ps := range spaces {
			if i > 0 {
				names += ","
			}
			names += ps.Name
			if ps.DPI != 300 || ps.MinDPI != 150 || ps.DisplayWidth != 500 {
				t.Errorf("%s %s: %+v", tpl["name"], ps.Name, ps)
			}
		}
		if names != want[tpl["name"].(string)] {
			t.Errorf("%s print spaces %q", tpl["name"], names)
		}
		var opts struct {
			Colors []struct{ Name, Hex string }
		}
		if err := json.Unmarshal([]byte(tpl["options"].(string)), &opts); err != nil || len(opts.Colors) == 0 {
			t.Errorf("%s options %v: %v", tpl["name"], tpl["options"], err)
		}
		if tpl["name"] == "All-over-print shirt" && (tpl["full_printed"].(float64) != 2 || spaces[0].PrintType != 2) {
			t.Errorf("all-over print: %v", tpl)
		}
		if tpl["name"] == "Mug wrap" && float64(spaces[0].Width)/float64(spaces[0].Height) <= 1.5 {
			t.Errorf("mug wrap aspect: %+v", spaces[0])
		}
	}

	// The seed runs again without adding or changing templates.
	e.seed("test")
	if again := e.do("GET", "/api/seller/product-templates", e.token, nil); !bytes.Equal(again.raw, r.raw) {
		t.Fatalf("templates after a second seed: %s", again.raw)
	}

	// The 3D models the editor previews designs on: the mug's wrap and the all-over-print shirt's
	// front, each GLB fetched through /api/files like any catalogue file.
	r = e.do("GET", "/api/seller/product-templates/models", e.token, nil)
	models := r.body.Data.([]any)
	names := map[string]bool{}
	for _, m := range models {
		m := m.(obj)
		names[m["name"].(string)+" "+m["print_space"].(string)] = true
		res, _ := e.raw("GET", e.srv.URL+m["url"].(string), "", nil)
		if res.StatusCode != http.StatusFound {
			t.Fatalf("GET %s: %d", m["url"], res.StatusCode)
		}
		res, glb := e.raw("GET", e.local(res.Header.Get("Location")), "", nil)
		if res.StatusCode != 200 || !bytes.HasPrefix(glb, []byte("glTF")) {
			t.Fatalf("GLB of %s: %d, %d bytes", m["name"], res.StatusCode, len(glb))
		}
	}
	wantModels := []string{"T-shirt, 3D front", "Hoodie, 3D front", "Mug, 3D wrap", "Poster, 3D front", "All-over-print shirt, 3D front"}
	if len(models) != len(wantModels) {
		t.Fatalf("models: %s", r.raw)
	}
	for _, name := range wantModels {
		if !names[name] {
			t.Fatalf("no %q among the models: %s", name, r.raw)
		}
	}

	r = e.do("GET", "/api/fonts", "", nil)
	if r.status != 200 || !strings.HasPrefix(string(mustJSON(t, r.body.Data)), `[{"family":"Roboto","font_url":"","style":"Regular","url":"/api/fonts/Roboto-Regular.ttf","weight":400},`) {
		t.Fatalf("fonts: %d %s", r.status, r.raw)
	}
	r = e.do("GET", "/api/fonts/Roboto-Regular.ttf", "", nil)
	if r.status != 200 || !bytes.Equal(r.raw, fonts.RobotoRegular) || r.header.Get("Content-Type") != "font/ttf" ||
		r.header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Fatalf("font file: %d %q %q, %d bytes", r.status, r.header.Get("Content-Type"), r.header.Get("Cache-Control"), len(r.raw))
	}
	if r := e.do("GET", "/api/fonts/..%2Fsecret.ttf", "", nil); r.status != 404 {
		t.Fatalf("unknown font: %d", r.status)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCampaignSaveRevisionsAndExports(t *testing.T) {
	e := newEditor(t)
	art := e.upload("u/" + strconv.FormatInt(e.sellerID, 10) + "/designs/abc-art.png")
	c := e.create("Summer", "T-shirt", "Hoodie")
	if c["status"] != "draft" || c["personalized"] != nil || len(c["products"].([]any)) != 2 || len(c["designs"].([]any)) != 0 {
		t.Fatalf("created: %v", c)
	}
	shirt, hoodie := productID(c, 0), productID(c, 1)
	if p := c["products"].([]any)[0].(obj); p["template_id"].(float64) != float64(e.templates["T-shirt"]) || p["extra_print_cost"].(float64) != 4 {
		t.Fatalf("product copies its template: %v", p)
	}
	// Each product comes with its outline around each print space, for the editor's canvas: the
	// catalogue's shapes (renderer/outlines), which the demo mockups are drawn from too.
	for i, want := range []string{"tshirt", "hoodie"} {
		got := c["products"].([]any)[i].(obj)["outlines"].(obj)
		for _, space := range []string{"front", "back"} {
			o, _ := outlines.For(want, space, 4500, 5400)
			raw, _ := json.Marshal(o)
			var wantJSON any
			json.Unmarshal(raw, &wantJSON)
			if diff := cmp.Diff(wantJSON, got[space]); diff != "" {
				t.Errorf("%s %s outline (-want +got):\n%s", want, space, diff)
			}
		}
	}
	front := doc("front", imageObj("art", art), textObj("name", "Hello", true))
	body := obj{"name": "Summer sale", "personalized": nil, "products": products(c), "designs": []obj{
		design(shirt, "front", front),
		design(shirt, "back", doc("back", imageObj("art", art))),
		design(hoodie, "front", doc("front", imageObj("art", art))),
	}}
	r := e.do("PUT", path(c), e.token, body)
	if r.status != 200 {
		t.Fatalf("save: %d %s", r.status, r.raw)
	}
	saved := r.body.Data.(obj)
	sf := designOf(t, saved, shirt, "front")
	if saved["name"] != "Summer sale" || saved["artwork_url"] != art || sf["option"] != "custom" || sf["revision"].(float64) != 1 ||
		sf["export"].(obj)["status"] != "pending" || designOf(t, saved, hoodie, "front")["option"] != "print" {
		t.Fatalf("saved: %s", r.raw)
	}
	// One export task per design, committed with the save and handed to Redis.
	want := []string{}
	for _, d := range saved["designs"].([]any) {
		want = append(want, fmt.Sprintf("export-%d-r1", idOf(d)))
	}
	if got := e.outboxExports(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("outbox tasks %v, want %v", got, want)
	}
	insp := asynq.NewInspector(e.cfg.Queue.RedisOpt())
	defer insp.Close()
	if info, err := insp.GetTaskInfo(queue.Name(queue.Renderer, queue.Interactive), want[0]); err != nil || info.Type != tasks.TypeExport {
		t.Fatalf("task in Redis: %+v %v", info, err)
	}

	// The same documents again: no revision, no task.
	if r := e.do("PUT", path(c), e.token, body); r.status != 200 || len(e.outboxExports()) != 3 ||
		designOf(t, r.body.Data.(obj), shirt, "front")["revision"].(float64) != 1 {
		t.Fatalf("unchanged save: %d, tasks %v", r.status, e.outboxExports())
	}
	// One document changed, one left out: only the changed one moves on, the other is removed.
	front["objects"].([]obj)[1]["text"] = "Hi there"
	body["designs"] = []obj{design(shirt, "front", front), design(hoodie, "front", doc("front", imageObj("art", art)))}
	r = e.do("PUT", path(c), e.token, body)
	if r.status != 200 {
		t.Fatalf("second save: %d %s", r.status, r.raw)
	}
	saved = r.body.Data.(obj)
	sfID := idOf(designOf(t, saved, shirt, "front"))
	if len(saved["designs"].([]any)) != 2 || designOf(t, saved, shirt, "front")["revision"].(float64) != 2 ||
		designOf(t, saved, hoodie, "front")["revision"].(float64) != 1 {
		t.Fatalf("second save: %s", r.raw)
	}
	if got := e.outboxExports(); len(got) != 4 || got[3] != fmt.Sprintf("export-%d-r2", sfID) {
		t.Fatalf("outbox after a change: %v", got)
	}

	// A failed export is retried by saving again, even unchanged.
	if _, err := e.app.DB.Exec(`UPDATE campaign_designs SET export_status = 'failed', export_error = 'x' WHERE id = $1`, sfID); err != nil {
		t.Fatal(err)
	}
	r = e.do("PUT", path(c), e.token, body)
	if d := designOf(t, r.body.Data.(obj), shirt, "front"); r.status != 200 || d["revision"].(float64) != 3 || d["export"].(obj)["status"] != "pending" ||
		d["export"].(obj)["error"] != "" || designOf(t, r.body.Data.(obj), hoodie, "front")["revision"].(float64) != 1 {
		t.Fatalf("save after a failed export: %d %s", r.status, r.raw)
	}
	if got := e.outboxExports(); len(got) != 5 || got[4] != fmt.Sprintf("export-%d-r3", sfID) {
		t.Fatalf("outbox after a retry: %v", got)
	}

	r = e.do("GET", path(c, "exports"), e.token, nil)
	if r.status != 200 || len(r.body.Data.([]any)) != 2 {
		t.Fatalf("exports: %d %s", r.status, r.raw)
	}
	ex := r.body.Data.([]any)[0].(obj)
	for _, f := range []string{"design_id", "product_id", "print_space", "revision", "status", "file_url", "download_url", "width", "height", "dpi", "file_size", "report", "error"} {
		if _, ok := ex[f]; !ok {
			t.Errorf("export item has no %q: %v", f, ex)
		}
	}

	// The list, with its filters.
	e.create("Winter mugs", "Mug wrap")
	r = e.do("GET", "/api/seller/campaigns?q=summer", e.token, nil)
	var page struct {
		Data  []map[string]any `json:"data"`
		Total int              `json:"total"`
	}
	json.Unmarshal(r.raw, &page)
	if r.status != 200 || page.Total != 1 || page.Data[0]["product_count"].(float64) != 2 || page.Data[0]["design_count"].(float64) != 2 ||
		page.Data[0]["preview_url"] != "/api/files/"+art+"?variant=thumb" {
		t.Fatalf("list: %d %s", r.status, r.raw)
	}
	if r := e.do("GET", "/api/seller/campaigns?kind[]=combo", e.token, nil); r.status != 200 || bytes.Contains(r.raw, []byte("Summer")) {
		t.Fatalf("kind filter: %s", r.raw)
	}
	if r := e.do("GET", "/api/seller/campaigns?kind[]=flyer", e.token, nil); r.status != 422 {
		t.Fatalf("unknown kind: %d", r.status)
	}
	// With the demo seed's bulk template campaign and personalized mug.
	if r := e.do("GET", "/api/seller/campaigns?order_by=name:asc", e.token, nil); r.status != 200 || !bytes.Contains(r.raw, []byte(`"total":4`)) {
		t.Fatalf("ordered list: %s", r.raw)
	}

	// Products come and go with their designs.
	r = e.do("DELETE", path(c, "products", strconv.FormatInt(hoodie, 10)), e.token, nil)
	if r.status != 200 || len(r.body.Data.(obj)["products"].([]any)) != 1 || len(r.body.Data.(obj)["designs"].([]any)) != 1 {
		t.Fatalf("remove product: %d %s", r.status, r.raw)
	}
	if r := e.do("DELETE", path(c, "products", strconv.FormatInt(hoodie, 10)), e.token, nil); r.status != 404 || r.body.Message != campaigns.MsgProductNotFound {
		t.Fatalf("remove twice: %d %s", r.status, r.raw)
	}
	r = e.do("POST", path(c, "products"), e.token, obj{"template_id": e.templates["Poster"]})
	if r.status != 200 || len(r.body.Data.(obj)["products"].([]any)) != 2 {
		t.Fatalf("add product: %d %s", r.status, r.raw)
	}
	if r := e.do("POST", path(c, "products"), e.token, obj{"template_id": 999999}); r.status != 422 || r.body.Errors[0].Field != "template_id" {
		t.Fatalf("unknown template: %d %s", r.status, r.raw)
	}
	if r := e.do("DELETE", path(c), e.token, nil); r.status != 200 {
		t.Fatalf("delete: %d %s", r.status, r.raw)
	}
	if r := e.do("GET", path(c), e.token, nil); r.status != 404 || r.body.Message != campaigns.MsgNotFound {
		t.Fatalf("deleted campaign: %d %s", r.status, r.raw)
	}
}

func TestCampaignSaveRules(t *testing.T) {
	e := newEditor(t)
	art := e.upload("u/" + strconv.FormatInt(e.sellerID, 10) + "/designs/abc-art.png")
	// A handmade template: the personalized rule leaves it out.
	if _, err := e.app.DB.Exec(`INSERT INTO product_templates (name, product_type, print_spaces, full_printed, personalized)
SELECT 'Handmade tee', 'tshirt', print_spaces, 1, true FROM product_templates WHERE name = 'T-shirt'`); err != nil {
		t.Fatal(err)
	}
	var handmade int64
	e.app.DB.Get(&handmade, `SELECT id FROM product_templates WHERE name = 'Handmade tee'`)
	e.templates["Handmade tee"] = handmade
	c := e.create("Rules", "T-shirt", "Hoodie", "Handmade tee")
	shirt, hoodie, hand := productID(c, 0), productID(c, 1), productID(c, 2)
	good := func() obj {
		return obj{"name": "Rules", "personalized": nil, "products": products(c), "designs": []obj{
			design(shirt, "front", doc("front", imageObj("art", art), textObj("t1", "Hello", true))),
			design(hoodie, "front", doc("front", imageObj("art", art))),
			design(hand, "front", doc("front", imageObj("art", art))),
		}}
	}
	objects := func(b obj, i int) []obj { return b["designs"].([]obj)[i]["design_json"].(obj)["objects"].([]obj) }
	setObjects := func(b obj, i int, o ...obj) {
		if o == nil {
			o = []obj{}
		}
		b["designs"].([]obj)[i]["design_json"].(obj)["objects"] = o
	}
	tests := []struct {
		name      string
		change    func(b obj)
		wantMsg   string
		wantField string
	}{
		{name: "campaign personalized against its products", change: func(b obj) { b["personalized"] = true },
			wantMsg: campaigns.MsgPersonalizedMismatch, wantField: "personalized"},
		{name: "products disagree on personalized", change: func(b obj) { b["products"].([]obj)[1]["personalized"] = true },
			wantMsg: campaigns.MsgPersonalizedMismatch, wantField: "personalized"},
		{name: "a product of another campaign", change: func(b obj) { b["products"] = append(b["products"].([]obj), obj{"id": 999999, "personalized": false}) },
			wantMsg: campaigns.MsgTryAgain, wantField: "products[3]"},
		{name: "a product without a design", change: func(b obj) { b["designs"] = b["designs"].([]obj)[:2] },
			wantMsg: campaigns.MsgNeedDesign, wantField: "products[2]"},
		{name: "a product with only an empty design", change: func(b obj) { setObjects(b, 1) },
			wantMsg: campaigns.MsgNeedDesign, wantField: "products[1]"},
		{name: "invalid document names the field", change: func(b obj) { objects(b, 0)[1]["textWidth"] = "wide" },
			wantField: "designs[0].design_json.objects[1].textWidth"},
		{name: "third text", change: func(b obj) {
			setObjects(b, 0, append(objects(b, 0), textObj("t2", "Two", false), textObj("t3", "Three", false))...)
		}, wantField: "designs[0].design_json.objects"},
		{name: "text over maxLength", change: func(b obj) { objects(b, 0)[1]["text"] = "Seventeen letters" },
			wantField: "designs[0].design_json.objects[1].text"},
		{name: "print space of another size", change: func(b obj) {
			b["designs"].([]obj)[1]["design_json"].(obj)["printSpace"].(obj)["width"] = 4000
		}, wantField: "designs[1].design_json.printSpace"},
		{name: "print space under another name", change: func(b obj) { b["designs"].([]obj)[1]["design_json"] = doc("back", imageObj("art", art)) },
			wantField: "designs[1].design_json.printSpace"},
		{name: "print space the product lacks", change: func(b obj) { b["designs"].([]obj)[1]["print_space"] = "sleeve" },
			wantField: "designs[1].print_space"},
		{name: "artwork that is not an upload of the account", change: func(b obj) { objects(b, 2)[0]["src"] = "u/1/someone-else.png" },
			wantMsg: campaigns.MsgNotYourArtwork, wantField: "designs[2].design_json.objects[0].src"},
		{name: "web address as artwork", change: func(b obj) { objects(b, 2)[0]["src"] = "https://example.com/a.png" },
			wantMsg: campaigns.MsgNotYourArtwork, wantField: "designs[2].design_json.objects[0].src"},
		{name: "two designs for one print space", change: func(b obj) { b["designs"] = append(b["designs"].([]obj), b["designs"].([]obj)[0]) },
			wantMsg: campaigns.MsgDuplicateDesign, wantField: "designs[3].print_space"},
		{name: "no name", change: func(b obj) { b["name"] = " " }, wantMsg: campaigns.MsgNameRequired, wantField: "name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := good()
			tt.change(b)
			r := e.do("PUT", path(c), e.token, b)
			if r.status != 422 || r.body.Errors[0].Field != tt.wantField || (tt.wantMsg != "" && (r.body.Message != tt.wantMsg || r.body.Errors[0].Message != tt.wantMsg)) {
				t.Fatalf("got %d %s, want 422 on %s %q", r.status, r.raw, tt.wantField, tt.wantMsg)
			}
		})
	}
	if n := len(e.outboxExports()); n != 0 {
		t.Fatalf("refused saves queued %d exports", n)
	}
	// Matching values pass, the handmade product's own value aside.
	b := good()
	b["personalized"] = true
	for _, p := range b["products"].([]obj) {
		p["personalized"] = p["id"] != hand
	}
	r := e.do("PUT", path(c), e.token, b)
	if r.status != 200 || r.body.Data.(obj)["personalized"] != true {
		t.Fatalf("matching personalized: %d %s", r.status, r.raw)
	}
	if p := r.body.Data.(obj)["products"].([]any); p[0].(obj)["personalized"] != true || p[2].(obj)["personalized"] != false {
		t.Fatalf("products' personalized not stored: %v", p)
	}
}

func TestCampaignBelongsToTheAccount(t *testing.T) {
	e := newEditor(t)
	c := e.create("Mine", "Poster")
	e.addUser("other@example.com", []string{"seller"}, []string{}, true, false)
	other := e.mint("other@example.com", "own", "", false)
	for _, call := range []struct{ method, path string }{
		{"GET", path(c)}, {"PUT", path(c)}, {"DELETE", path(c)}, {"GET", path(c, "exports")},
		{"POST", path(c, "calc-extra-print-cost-products")}, {"POST", path(c, "products")},
		{"DELETE", path(c, "products", strconv.FormatInt(productID(c, 0), 10))},
	} {
		body := obj{"name": "Theirs", "template_id": e.templates["Poster"]}
		if r := e.do(call.method, call.path, other, body); r.status != 404 || r.body.Message != campaigns.MsgNotFound {
			t.Errorf("%s %s by another seller: %d %s", call.method, call.path, r.status, r.raw)
		}
	}
	if r := e.do("GET", "/api/seller/campaigns", other, nil); !bytes.Contains(r.raw, []byte(`"total":0`)) {
		t.Fatalf("another seller's list: %s", r.raw)
	}
	// The team member works in the seller's account: it reads the seller's campaign, and without
	// update_campaign it cannot change it.
	team := e.mint("seller@example.com", "switched", "team@example.com", false)
	if r := e.do("GET", path(c), team, nil); r.status != 200 || r.body.Data.(obj)["name"] != "Mine" {
		t.Fatalf("team member reads: %d %s", r.status, r.raw)
	}
	if r := e.do("PUT", path(c), team, obj{"name": "Changed"}); r.status != 403 {
		t.Fatalf("team member without update_campaign saves: %d %s", r.status, r.raw)
	}
	if r := e.do("POST", "/api/seller/campaigns", team, obj{"name": "New"}); r.status != 403 {
		t.Fatalf("team member without update_campaign creates: %d %s", r.status, r.raw)
	}
	// With update_campaign it saves into the seller's account.
	if _, err := e.app.DB.Exec(`UPDATE team_members SET permissions = '{get_campaigns,update_campaign}'`); err != nil {
		t.Fatal(err)
	}
	r := e.do("POST", "/api/seller/campaigns", team, obj{"name": "By the team", "template_ids": []int64{e.templates["Poster"]}})
	if r.status != 200 {
		t.Fatalf("team member creates: %d %s", r.status, r.raw)
	}
	var ownerID int64
	e.app.DB.Get(&ownerID, `SELECT user_id FROM campaigns WHERE id = $1`, idOf(r.body.Data))
	if ownerID != e.sellerID {
		t.Fatalf("the team's campaign belongs to %d, want the seller %d", ownerID, e.sellerID)
	}
}

func TestCalcExtraPrintCost(t *testing.T) {
	e := newEditor(t)
	art := e.upload("u/" + strconv.FormatInt(e.sellerID, 10) + "/designs/abc-art.png")
	c := e.create("Costs", "T-shirt", "Hoodie", "Mug wrap")
	shirt, hoodie, mug := productID(c, 0), productID(c, 1), productID(c, 2)
	mugDoc := doc("wrap", imageObj("art", art))
	mugDoc["printSpace"].(obj)["width"], mugDoc["printSpace"].(obj)["height"] = 2700, 1050
	r := e.do("PUT", path(c), e.token, obj{"name": "Costs", "products": products(c), "designs": []obj{
		design(shirt, "front", doc("front", imageObj("art", art))),
		design(shirt, "back", doc("back", imageObj("art", art))),
		design(hoodie, "front", doc("front", imageObj("art", art))),
		design(hoodie, "back", doc("back")),
		design(mug, "wrap", mugDoc),
	}})
	if r.status != 200 {
		t.Fatalf("save: %d %s", r.status, r.raw)
	}
	cost := func(body any) string {
		r := e.do("POST", path(c, "calc-extra-print-cost-products"), e.token, body)
		var out struct{ Data []campaigns.ExtraCost }
		if err := json.Unmarshal(r.raw, &out); r.status != 200 || err != nil {
			t.Fatalf("calc: %d %s", r.status, r.raw)
		}
		return string(mustJSON(t, out.Data))
	}
	// Stored designs: the shirt has two designed print spaces, the hoodie's back is empty.
	want := fmt.Sprintf(`[{"id":%d,"extra_print_cost":4},{"id":%d,"extra_print_cost":0},{"id":%d,"extra_print_cost":0}]`, shirt, hoodie, mug)
	if got := cost(nil); got != want {
		t.Fatalf("stored: %s, want %s", got, want)
	}
	// The editor's unsaved state: the hoodie's back gets an object, the shirt's back loses its own.
	got := cost(obj{"designs": []obj{
		{"product_id": shirt, "print_space": "front", "objects": 1}, {"product_id": shirt, "print_space": "back", "objects": 0},
		{"product_id": hoodie, "print_space": "front", "objects": 2}, {"product_id": hoodie, "print_space": "back", "objects": 1},
		{"product_id": hoodie, "print_space": "sleeve", "objects": 1},
	}})
	want = fmt.Sprintf(`[{"id":%d,"extra_print_cost":0},{"id":%d,"extra_print_cost":5.5},{"id":%d,"extra_print_cost":0}]`, shirt, hoodie, mug)
	if got != want {
		t.Fatalf("unsaved: %s, want %s", got, want)
	}
}

// namedDownload fetches the download of item (a print file or a mockup as the API answers it), which
// must be named name in the answer (file_name) and by its signed URL itself (Content-Disposition), as
// on S3 (platform/blob's conformance tests). The caller closes the response.
func (s *stack) namedDownload(t *testing.T, item obj, name string) *http.Response {
	t.Helper()
	if item["file_name"] != name {
		t.Errorf("file_name = %v, want %q", item["file_name"], name)
	}
	res, err := http.Get(s.local(item["download_url"].(string)))
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := blob.ContentDisposition(name); res.StatusCode != http.StatusOK || res.Header.Get("Content-Disposition") != want {
		t.Errorf("download: %d, Content-Disposition %q, want %q", res.StatusCode, res.Header.Get("Content-Disposition"), want)
	}
	return res
}

// TestSaveToPrintFile is the editor's save end to end: the bff stores the design and queues the
// export; the renderer's export handler, on the stack's Redis and blob folder, writes the print
// file; the exports call then offers a download of a PNG at the print size declaring 300 DPI. A mug
// wrap (2700x1050) keeps the race-instrumented render short; renderer/export tests the 4500x5400
// T-shirt print.
func TestSaveToPrintFile(t *testing.T) {
	e := newEditor(t)
	store, err := blob.New(e.cfg.Blob, false)
	if err != nil {
		t.Fatal(err)
	}
	art := e.upload("u/" + strconv.FormatInt(e.sellerID, 10) + "/designs/abc-art.png")
	img := image.NewNRGBA(image.Rect(0, 0, 400, 480))
	for i := 0; i < len(img.Pix); i += 4 {
		copy(img.Pix[i:], []byte{20, 90, 200, 255})
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	if err := store.Put(context.Background(), art, &buf, int64(buf.Len()), "image/png"); err != nil {
		t.Fatal(err)
	}
	h, err := export.NewHandler(e.app.DB, store, imagelimit.DefaultConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	e.serve(queue.Renderer, 1, map[string]asynq.Handler{tasks.TypeExport: h})

	c := e.create("Print me", "Mug wrap")
	wrap := doc("wrap", imageObj("art", art), textObj("t1", "Hello", true), textObj("t2", "World", false))
	wrap["printSpace"].(obj)["width"], wrap["printSpace"].(obj)["height"] = 2700, 1050
	r := e.do("PUT", path(c), e.token, obj{"name": "Print me", "products": products(c), "designs": []obj{design(productID(c, 0), "wrap", wrap)}})
	if r.status != 200 {
		t.Fatalf("save: %d %s", r.status, r.raw)
	}
	var item obj
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		r := e.do("GET", path(c, "exports"), e.token, nil)
		item = r.body.Data.([]any)[0].(obj)
		if s := item["status"]; s == "done" || s == "failed" || time.Now().After(deadline) {
			break
		}
	}
	if item["status"] != "done" || item["width"].(float64) != 2700 || item["height"].(float64) != 1050 || item["dpi"].(float64) != 300 ||
		item["download_url"] == "" || item["report"] == nil {
		t.Fatalf("export: %v", item)
	}
	// A mug's wrap goes all around it: no outline.
	if o, ok := c["products"].([]any)[0].(obj)["outlines"]; ok {
		t.Errorf("the mug has outlines %v", o)
	}
	// The print file's storage key is not its name.
	res := e.namedDownload(t, item, "Print me - Mug wrap - wrap - r1.png")
	defer res.Body.Close()
	var file bytes.Buffer
	file.ReadFrom(res.Body)
	cfg, err := png.DecodeConfig(bytes.NewReader(file.Bytes()))
	if res.StatusCode != 200 || err != nil || cfg.Width != 2700 || cfg.Height != 1050 || int64(file.Len()) != int64(item["file_size"].(float64)) {
		t.Fatalf("download: %d, %v, %+v, %d bytes", res.StatusCode, err, cfg, file.Len())
	}
	if x, y, ok, err := dpi.Declared(bytes.NewReader(file.Bytes())); !ok || err != nil || x != 300 || y != 300 {
		t.Fatalf("declared DPI %v x %v", x, y)
	}
	// The print file is the seller's full-size artwork: the public files route does not hand it out.
	if r := e.do("GET", "/api/files/"+item["file_url"].(string), "", nil); r.status != http.StatusNotFound {
		t.Fatalf("print file through /api/files: %d %s", r.status, r.raw)
	}
}
