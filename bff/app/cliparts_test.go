package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pressroom/pressroom/bff/artworks"
	"github.com/pressroom/pressroom/bff/cliparts"
	"github.com/pressroom/pressroom/bff/folders"
	"github.com/pressroom/pressroom/bff/uploads"
	"github.com/pressroom/pressroom/platform/blob"
)

// starSVG is a small clipart: wide, so the print-size PNG it becomes (4000 x 1000) is quick to check.
const starSVG = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 10"><title>Star</title>
<path d="M5 0l1.2 3.6h3.8l-3 2.3 1.1 3.7-3.1-2.2-3.1 2.2 1.1-3.7-3-2.3h3.8z" fill="#f4a261" stroke="#264653" stroke-width="0.4"/>
<rect x="12" y="2" width="26" height="6" rx="2" fill="#2a9d8f"/></svg>`

// newClipartEditor is newEditor with the renderer's upload tasks running and deleted cliparts' files
// removable at the next sweep.
func newClipartEditor(t *testing.T) *editor {
	t.Helper()
	s := newStackWith(t, map[string]string{"PRESSROOM_CLIPART_REMOVE_AFTER": "0s"})
	e := &editor{stack: s, token: s.mint("seller@example.com", "own", "", false), templates: map[string]int64{}}
	if err := s.app.DB.Get(&e.sellerID, `SELECT id FROM users WHERE email = 'seller@example.com'`); err != nil {
		t.Fatal(err)
	}
	for _, tpl := range s.do("GET", "/api/seller/product-templates", e.token, nil).body.Data.([]any) {
		e.templates[tpl.(obj)["name"].(string)] = int64(tpl.(obj)["id"].(float64))
	}
	var encodes atomic.Int32
	var refuse atomic.Bool
	s.startRenderer(&encodes, &refuse)
	return e
}

// uploadClipart posts a clipart as the cliparts page does, with the form fields given (name, folder_id).
func (s *stack) uploadClipart(token, fileName string, data []byte, fields ...string) reply {
	s.t.Helper()
	return s.postForm("/api/seller/cliparts", token, fileName, data, fields...)
}

// settled waits until the renderer has checked (and drawn) clipart id, and answers it.
func (e *editor) settled(id int64) obj {
	e.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		r := e.do("GET", fmt.Sprintf("/api/seller/cliparts/%d", id), e.token, nil)
		if r.status != 200 {
			e.t.Fatalf("clipart %d: %d %s", id, r.status, r.raw)
		}
		c := r.body.Data.(obj)
		if c["status"] != "pending" {
			return c
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("clipart %d still pending", id)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func names(list []any) string {
	var out []string
	for _, c := range list {
		out = append(out, c.(obj)["name"].(string))
	}
	return strings.Join(out, ",")
}

func TestCliparts(t *testing.T) {
	e := newClipartEditor(t)
	r := e.do("POST", "/api/seller/clipart-folders", e.token, obj{"name": "Animals"})
	if r.status != 201 || r.body.Message != folders.MsgCreated {
		t.Fatalf("create folder: %d %s", r.status, r.raw)
	}
	animals := idOf(r.body.Data)
	if r := e.do("POST", "/api/seller/clipart-folders", e.token, obj{"name": " animals "}); r.status != 422 ||
		r.body.Errors[0].Field != "name" || r.body.Message != folders.MsgTaken {
		t.Fatalf("same name again: %d %s", r.status, r.raw)
	}

	// A PNG and an SVG into the folder.
	png := e.uploadClipart(e.token, "paw.png", testPNG(t, 64, 48, 0), "folder_id", strconv.FormatInt(animals, 10))
	if png.status != 201 || png.body.Message != cliparts.MsgUploaded || png.body.Data.(obj)["status"] != "pending" {
		t.Fatalf("upload png: %d %s", png.status, png.raw)
	}
	svg := e.uploadClipart(e.token, "star.svg", []byte(starSVG), "folder_id", strconv.FormatInt(animals, 10), "name", "Gold star")
	if svg.status != 201 {
		t.Fatalf("upload svg: %d %s", svg.status, svg.raw)
	}
	p := e.settled(idOf(png.body.Data))
	if p["status"] != "ready" || p["width"] != 64.0 || p["height"] != 48.0 || p["format"] != "png" || p["name"] != "paw" ||
		p["folder_id"] != float64(animals) || !strings.HasPrefix(p["key"].(string), fmt.Sprintf("u/%d/cliparts/", e.sellerID)) ||
		p["thumbnail_url"] != "/api/files/"+p["key"].(string)+"?variant=thumb" {
		t.Fatalf("png clipart = %v", p)
	}
	s := e.settled(idOf(svg.body.Data))
	if s["status"] != "ready" || s["width"] != 4000.0 || s["height"] != 1000.0 || s["format"] != "svg" || s["name"] != "Gold star" ||
		!strings.HasSuffix(s["key"].(string), ".png") {
		t.Fatalf("svg clipart = %v", s)
	}
	// The drawn PNG is served like any upload; the SVG behind it never is.
	if res, _ := e.raw("GET", e.srv.URL+"/api/files/"+s["key"].(string), "", nil); res.StatusCode != http.StatusFound {
		t.Fatalf("drawn png: %d", res.StatusCode)
	}
	svgKey := strings.TrimSuffix(s["key"].(string), ".png") + ".svg"
	if res, _ := e.raw("GET", e.srv.URL+"/api/files/"+svgKey, "", nil); res.StatusCode != http.StatusNotFound {
		t.Fatalf("svg source served: %d", res.StatusCode)
	}

	// Lists: a folder, outside any folder, a search, a status.
	e.uploadClipart(e.token, "loose.png", testPNG(t, 8, 8, 0))
	for _, tc := range []struct {
		query, want string
	}{
		{"", "loose,Gold star,paw"},
		{"?folder_id=" + strconv.FormatInt(animals, 10), "Gold star,paw"},
		{"?folder_id=0", "loose"},
		{"?q=STAR", "Gold star"},
		{"?q=%25", ""},
		{"?folder_id=" + strconv.FormatInt(animals, 10) + "&status=ready&per_page=1&page=2", "paw"},
	} {
		r := e.do("GET", "/api/seller/cliparts"+tc.query, e.token, nil)
		if r.status != 200 || names(r.body.Data.([]any)) != tc.want {
			t.Errorf("list %q: %d %s, want %q", tc.query, r.status, r.raw, tc.want)
		}
	}
	var folder []any
	json.Unmarshal(e.do("GET", "/api/seller/clipart-folders", e.token, nil).raw, &struct{ Data *[]any }{&folder})
	if len(folder) != 1 || folder[0].(obj)["count"] != 2.0 {
		t.Fatalf("folders: %v", folder)
	}

	// Rename and move out of the folder, then back.
	id := idOf(png.body.Data)
	if r := e.do("PUT", fmt.Sprintf("/api/seller/cliparts/%d", id), e.token, obj{"name": "Paw print", "folder_id": nil}); r.status != 200 ||
		r.body.Data.(obj)["name"] != "Paw print" || r.body.Data.(obj)["folder_id"] != nil {
		t.Fatalf("move out: %d %s", r.status, r.raw)
	}
	if r := e.do("PUT", fmt.Sprintf("/api/seller/cliparts/%d", id), e.token, obj{"name": "Paw print", "folder_id": animals}); r.status != 200 {
		t.Fatalf("move back: %d %s", r.status, r.raw)
	}

	// Deleting the folder keeps its cliparts, outside any folder.
	r = e.do("DELETE", fmt.Sprintf("/api/seller/clipart-folders/%d", animals), e.token, nil)
	if r.status != 200 || r.body.Message != "The folder was deleted; its 2 cliparts are now outside any folder." {
		t.Fatalf("delete folder: %d %s", r.status, r.raw)
	}
	if r := e.do("GET", "/api/seller/cliparts?folder_id=0", e.token, nil); names(r.body.Data.([]any)) != "loose,Gold star,Paw print" {
		t.Fatalf("after the folder went: %s", r.raw)
	}
}

func TestClipartRefusals(t *testing.T) {
	e := newClipartEditor(t)
	folder := idOf(e.do("POST", "/api/seller/clipart-folders", e.token, obj{"name": "Mine"}).body.Data)
	e.addUser("other@example.com", []string{"seller"}, []string{}, true, false)
	other := e.mint("other@example.com", "own", "", false)
	theirFolder := idOf(e.do("POST", "/api/seller/clipart-folders", other, obj{"name": "Theirs"}).body.Data)
	theirs := e.uploadClipart(other, "theirs.png", testPNG(t, 8, 8, 0))
	theirID := idOf(theirs.body.Data)
	artFolder := idOf(e.do("POST", "/api/seller/artwork-folders", e.token, obj{"name": "Art"}).body.Data)

	for _, tc := range []struct {
		name   string
		file   string
		data   []byte
		fields []string
		field  string
		msg    string
	}{
		{"a script", "bad.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><script>alert(1)</script></svg>`),
			nil, "file", "The SVG contains a script (<script>), which is not accepted."},
		{"an external image", "bad.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><image href="http://169.254.169.254/" width="9" height="9"/></svg>`),
			nil, "file", "refers to something outside itself"},
		{"billion laughs", "bad.svg", []byte(`<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg">&b;</svg>`),
			nil, "file", "entities"},
		{"huge size", "bad.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="100000000" height="100000000"/>`),
			nil, "file", "too large"},
		{"a GIF", "anim.gif", []byte("GIF89a"), nil, "file", cliparts.MsgFileType},
		{"a JPEG named .png", "photo.png", []byte("\xff\xd8\xff\xe0\x00\x10JFIF"), nil, "file", cliparts.MsgNotPNG},
		{"no file", "", nil, nil, "file", cliparts.MsgNoFile},
		{"a name too long", "ok.png", testPNG(t, 4, 4, 0), []string{"name", strings.Repeat("n", 101)}, "name", "The name may not be longer than 100 characters."},
		{"another seller's folder", "ok.png", testPNG(t, 4, 4, 0), []string{"folder_id", strconv.FormatInt(theirFolder, 10)}, "folder_id", folders.MsgChoose},
		{"an artwork folder", "ok.png", testPNG(t, 4, 4, 0), []string{"folder_id", strconv.FormatInt(artFolder, 10)}, "folder_id", folders.MsgChoose},
		{"a folder that is no number", "ok.png", testPNG(t, 4, 4, 0), []string{"folder_id", "x"}, "folder_id", folders.MsgChoose},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r reply
			if tc.file == "" {
				r = e.uploadClipart(e.token, "", nil, "name", "nothing")
			} else {
				r = e.uploadClipart(e.token, tc.file, tc.data, tc.fields...)
			}
			if r.status != 422 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != tc.field || !strings.Contains(r.body.Message, tc.msg) {
				t.Fatalf("%d %s; want 422 on %s saying %q", r.status, r.raw, tc.field, tc.msg)
			}
		})
	}
	// Nothing refused was kept: no row, no file.
	var rows int
	e.app.DB.Get(&rows, `SELECT count(*) FROM cliparts WHERE seller_id = $1`, e.sellerID)
	if rows != 0 {
		t.Fatalf("%d cliparts recorded for refused uploads", rows)
	}
	if entries, err := os.ReadDir(filepath.Join(e.cfg.Blob.Dir, fmt.Sprintf("u/%d/cliparts", e.sellerID))); err == nil && len(entries) > 0 {
		t.Fatalf("files left by refused uploads: %v", entries)
	}

	// List parameters.
	for _, tc := range []struct{ query, field string }{{"?status=deleted", "status"}, {"?folder_id=-2", "folder_id"}, {"?folder_id=x", "folder_id"}} {
		if r := e.do("GET", "/api/seller/cliparts"+tc.query, e.token, nil); r.status != 422 || r.body.Errors[0].Field != tc.field {
			t.Errorf("list %s: %d %s", tc.query, r.status, r.raw)
		}
	}

	// Another seller's ids answer 404 everywhere.
	for _, tc := range []struct {
		method, path string
		body         any
	}{
		{"GET", fmt.Sprintf("/api/seller/cliparts?folder_id=%d", theirFolder), nil},
		{"GET", fmt.Sprintf("/api/seller/cliparts/%d", theirID), nil},
		{"PUT", fmt.Sprintf("/api/seller/cliparts/%d", theirID), obj{"name": "Mine now", "folder_id": folder}},
		{"DELETE", fmt.Sprintf("/api/seller/cliparts/%d", theirID), nil},
		{"PUT", fmt.Sprintf("/api/seller/clipart-folders/%d", theirFolder), obj{"name": "Mine now"}},
		{"DELETE", fmt.Sprintf("/api/seller/clipart-folders/%d", theirFolder), nil},
		{"DELETE", fmt.Sprintf("/api/seller/artwork-folders/%d", folder), nil},
	} {
		if r := e.do(tc.method, tc.path, e.token, tc.body); r.status != 404 {
			t.Errorf("%s %s: %d %s, want 404", tc.method, tc.path, r.status, r.raw)
		}
	}
	if r := e.do("PUT", fmt.Sprintf("/api/seller/cliparts/%d", theirID), other, obj{"name": "x", "folder_id": folder}); r.status != 422 ||
		r.body.Errors[0].Field != "folder_id" {
		t.Errorf("moving into another seller's folder: %d %s", r.status, r.raw)
	}
	if r := e.do("PUT", fmt.Sprintf("/api/seller/cliparts/%d", theirID), other, obj{"name": " ", "folder_id": nil}); r.status != 422 ||
		r.body.Errors[0].Field != "name" {
		t.Errorf("empty name: %d %s", r.status, r.raw)
	}

	// A team member who may only read campaigns reads cliparts, and may not upload or make folders.
	support := e.switchInto("support@example.com")
	if r := e.do("GET", "/api/seller/cliparts", support, nil); r.status != 200 {
		t.Errorf("read-only member lists: %d %s", r.status, r.raw)
	}
	if r := e.uploadClipart(support, "ok.png", testPNG(t, 4, 4, 0)); r.status != 403 {
		t.Errorf("read-only member uploads: %d %s", r.status, r.raw)
	}
	if r := e.do("POST", "/api/seller/clipart-folders", support, obj{"name": "x"}); r.status != 403 {
		t.Errorf("read-only member makes a folder: %d %s", r.status, r.raw)
	}
}

func TestClipartDeleteKeepsTheFileWhileCampaignsUseIt(t *testing.T) {
	e := newClipartEditor(t)
	used := e.settled(idOf(e.uploadClipart(e.token, "used.png", testPNG(t, 40, 40, 0)).body.Data))
	unused := e.settled(idOf(e.uploadClipart(e.token, "unused.svg", []byte(starSVG)).body.Data))
	key := used["key"].(string)

	// The editor places a clipart like an artwork: its key as an image's src.
	c := e.create("Clipart tee", "T-shirt")
	body := obj{"name": "Clipart tee", "products": products(c), "designs": []obj{design(productID(c, 0), "front", doc("front", imageObj("clip", key)))}}
	if r := e.do("PUT", path(c), e.token, body); r.status != 200 {
		t.Fatalf("save with the clipart: %d %s", r.status, r.raw)
	}
	r := e.do("DELETE", fmt.Sprintf("/api/seller/cliparts/%d", idOf(used)), e.token, nil)
	if r.status != 200 || r.body.Message != cliparts.MsgDeletedUsed || r.body.Data.(obj)["in_use"] != true {
		t.Fatalf("delete used clipart: %d %s", r.status, r.raw)
	}
	if r := e.do("DELETE", fmt.Sprintf("/api/seller/cliparts/%d", idOf(unused)), e.token, nil); r.status != 200 || r.body.Message != cliparts.MsgDeleted {
		t.Fatalf("delete unused clipart: %d %s", r.status, r.raw)
	}
	if r := e.do("GET", "/api/seller/cliparts", e.token, nil); len(r.body.Data.([]any)) != 0 {
		t.Fatalf("deleted cliparts still listed: %s", r.raw)
	}
	removed, err := e.app.cliparts.Sweep(context.Background())
	if err != nil || removed != 1 {
		t.Fatalf("sweep removed %d (%v), want the unused clipart only", removed, err)
	}
	store, _ := blob.New(e.cfg.Blob, false)
	if _, err := store.Stat(context.Background(), key); err != nil {
		t.Fatalf("the used clipart's file went: %v", err)
	}
	for _, k := range []string{unused["key"].(string), strings.TrimSuffix(unused["key"].(string), ".png") + ".svg"} {
		if _, err := store.Stat(context.Background(), k); err == nil {
			t.Fatalf("the unused clipart's file %s stayed", k)
		}
	}
	// The campaign saves again with it; once it no longer names it, the next sweep removes it.
	if r := e.do("PUT", path(c), e.token, body); r.status != 200 {
		t.Fatalf("save again with the deleted clipart: %d %s", r.status, r.raw)
	}
	body["designs"] = []obj{design(productID(c, 0), "front", doc("front", textObj("t", "Hi", false)))}
	if r := e.do("PUT", path(c), e.token, body); r.status != 200 {
		t.Fatalf("save without the clipart: %d %s", r.status, r.raw)
	}
	if removed, err := e.app.cliparts.Sweep(context.Background()); err != nil || removed != 1 {
		t.Fatalf("second sweep removed %d (%v)", removed, err)
	}
	if _, err := store.Stat(context.Background(), key); err == nil {
		t.Fatal("the clipart's file stayed after its last use went")
	}
	var rows int
	e.app.DB.Get(&rows, `SELECT count(*) FROM uploads WHERE blob_key = $1`, key)
	if rows != 0 {
		t.Fatal("the removed clipart's upload row stayed")
	}
}

func TestArtworks(t *testing.T) {
	e := newEditor(t)
	store, err := blob.New(e.cfg.Blob, false)
	if err != nil {
		t.Fatal(err)
	}
	put := func(name string) (int64, string) {
		key := e.upload(fmt.Sprintf("u/%d/artworks/%d-%s", e.sellerID, time.Now().UnixNano(), name))
		store.Put(context.Background(), key, bytes.NewReader([]byte("png")), 3, "image/png")
		var id int64
		e.app.DB.Get(&id, `SELECT id FROM uploads WHERE blob_key = $1`, key)
		e.app.DB.Exec(`UPDATE uploads SET file_name = $2 WHERE id = $1`, id, name)
		return id, key
	}
	logoID, logo := put("logo.png")
	waveID, wave := put("wave.png")
	clip := e.upload(fmt.Sprintf("u/%d/cliparts/x-star.png", e.sellerID))
	e.app.DB.Exec(`INSERT INTO cliparts (seller_id, upload_id, name, format) SELECT $1, id, 'star', 'png' FROM uploads WHERE blob_key = $2`, e.sellerID, clip)

	folder := idOf(e.do("POST", "/api/seller/artwork-folders", e.token, obj{"name": "Logos"}).body.Data)
	if r := e.do("PUT", fmt.Sprintf("/api/seller/artworks/%d", logoID), e.token, obj{"folder_id": folder}); r.status != 200 ||
		r.body.Message != artworks.MsgMoved || r.body.Data.(obj)["folder_id"] != float64(folder) {
		t.Fatalf("move: %d %s", r.status, r.raw)
	}
	fileNames := func(r reply) string {
		var out []string
		for _, a := range r.body.Data.([]any) {
			out = append(out, a.(obj)["file_name"].(string))
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct{ query, want string }{
		// the demo seed's template artwork and the name mug's symbols are the seller's too
		{"", "wave.png,logo.png,Star.png,Heart.png,bulk-template-artwork.png"},
		{"?folder_id=" + strconv.FormatInt(folder, 10), "logo.png"},
		{"?folder_id=0", "wave.png,Star.png,Heart.png,bulk-template-artwork.png"},
		{"?q=WAV", "wave.png"},
		{"?q=-", "bulk-template-artwork.png"},
		{"?q=%25", ""},
	} {
		if r := e.do("GET", "/api/seller/artworks"+tc.query, e.token, nil); r.status != 200 || fileNames(r) != tc.want {
			t.Errorf("artworks %q: %d %s, want %q", tc.query, r.status, r.raw, tc.want)
		}
	}

	// Two campaigns use the logo: the list and its usage name them, and deleting it is refused.
	for _, name := range []string{"Summer tee", "Autumn tee"} {
		c := e.create(name, "T-shirt")
		body := obj{"name": name, "products": products(c), "designs": []obj{design(productID(c, 0), "front", doc("front", imageObj("a", logo)))}}
		if r := e.do("PUT", path(c), e.token, body); r.status != 200 {
			t.Fatalf("save %s: %d %s", name, r.status, r.raw)
		}
	}
	r := e.do("GET", "/api/seller/artworks?folder_id="+strconv.FormatInt(folder, 10), e.token, nil)
	if camps := r.body.Data.([]any)[0].(obj)["campaigns"].([]any); len(camps) != 2 || camps[0].(obj)["name"] != "Autumn tee" {
		t.Fatalf("list usage: %s", r.raw)
	}
	if r := e.do("GET", fmt.Sprintf("/api/seller/artworks/%d/usage", logoID), e.token, nil); r.status != 200 ||
		len(r.body.Data.(obj)["campaigns"].([]any)) != 2 {
		t.Fatalf("usage: %d %s", r.status, r.raw)
	}
	r = e.do("DELETE", fmt.Sprintf("/api/seller/artworks/%d", logoID), e.token, nil)
	want := "This artwork cannot be deleted: it is used by the campaigns “Autumn tee” and “Summer tee”. Remove it from the campaigns first."
	if r.status != 409 || r.body.Message != want || len(r.body.Data.(obj)["campaigns"].([]any)) != 2 {
		t.Fatalf("delete in use: %d %s", r.status, r.raw)
	}
	if _, err := store.Stat(context.Background(), logo); err != nil {
		t.Fatalf("refused deletion removed the file: %v", err)
	}

	// The unused one goes, file and row; cliparts are not artworks; another seller's ids answer 404.
	if r := e.do("DELETE", fmt.Sprintf("/api/seller/artworks/%d", waveID), e.token, nil); r.status != 200 || r.body.Message != artworks.MsgDeleted {
		t.Fatalf("delete unused: %d %s", r.status, r.raw)
	}
	if _, err := store.Stat(context.Background(), wave); err == nil {
		t.Fatal("the deleted artwork's file stayed")
	}
	var clipID int64
	e.app.DB.Get(&clipID, `SELECT id FROM uploads WHERE blob_key = $1`, clip)
	e.addUser("other@example.com", []string{"seller"}, []string{}, true, false)
	other := e.mint("other@example.com", "own", "", false)
	for _, tc := range []struct {
		token, method, path string
		body                any
	}{
		{e.token, "DELETE", fmt.Sprintf("/api/seller/artworks/%d", clipID), nil},
		{other, "DELETE", fmt.Sprintf("/api/seller/artworks/%d", logoID), nil},
		{other, "GET", fmt.Sprintf("/api/seller/artworks/%d/usage", logoID), nil},
		{other, "PUT", fmt.Sprintf("/api/seller/artworks/%d", logoID), obj{"folder_id": nil}},
		{other, "GET", "/api/seller/artworks?folder_id=" + strconv.FormatInt(folder, 10), nil},
	} {
		if r := e.do(tc.method, tc.path, tc.token, tc.body); r.status != 404 {
			t.Errorf("%s %s: %d %s, want 404", tc.method, tc.path, r.status, r.raw)
		}
	}
	if r := e.do("PUT", fmt.Sprintf("/api/seller/artworks/%d", logoID), e.token, obj{"folder_id": 999999}); r.status != 422 ||
		r.body.Errors[0].Field != "folder_id" {
		t.Fatalf("move into a folder that is not one: %d %s", r.status, r.raw)
	}
}

func TestArtworkInUseMessage(t *testing.T) {
	camps := func(names ...string) []uploads.CampaignRef {
		var out []uploads.CampaignRef
		for i, n := range names {
			out = append(out, uploads.CampaignRef{ID: int64(i + 1), Name: n})
		}
		return out
	}
	for _, tc := range []struct {
		usage uploads.Usage
		want  string
	}{
		{uploads.Usage{Campaigns: camps("A")}, "This artwork cannot be deleted: it is used by the campaign “A”. Remove it from the campaigns first."},
		{uploads.Usage{Orders: 1}, "This artwork cannot be deleted: it is used by 1 order printed with it."},
		{uploads.Usage{Campaigns: camps("A", "B", "C", "D", "E", "F", "G"), Orders: 3, Bulk: 2},
			"This artwork cannot be deleted: it is used by the campaigns “A”, “B”, “C”, “D”, “E” and 2 more, 3 orders printed with it " +
				"and 2 bulk records still being made. Remove it from the campaigns first."},
	} {
		if got := artworks.InUseMessage(tc.usage); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

// A clipart offered only as a picture a buyer may pick is in use as much as one placed in a design.
func TestClipartOfferedToBuyersIsInUse(t *testing.T) {
	e := newClipartEditor(t)
	offered := e.settled(idOf(e.uploadClipart(e.token, "offered.png", testPNG(t, 40, 40, 0)).body.Data))
	placed := e.settled(idOf(e.uploadClipart(e.token, "placed.png", testPNG(t, 40, 40, 0)).body.Data))
	picture := imageObj("symbol", placed["key"].(string))
	picture["isCustom"] = true
	picture["input"] = obj{"kind": "dropdown", "label": "Symbol", "options": []obj{
		{"label": "Placed", "src": placed["key"], "width": 40, "height": 40},
		{"label": "Offered", "src": offered["key"], "width": 40, "height": 40},
	}}
	c := e.create("Symbol tee", "T-shirt")
	body := obj{"name": "Symbol tee", "products": products(c), "designs": []obj{design(productID(c, 0), "front", doc("front", picture))}}
	if r := e.do("PUT", path(c), e.token, body); r.status != 200 {
		t.Fatalf("save with the clipart offered: %d %s", r.status, r.raw)
	}
	r := e.do("DELETE", fmt.Sprintf("/api/seller/cliparts/%d", idOf(offered)), e.token, nil)
	if r.status != 200 || r.body.Message != cliparts.MsgDeletedUsed || r.body.Data.(obj)["in_use"] != true {
		t.Fatalf("delete a clipart buyers are offered: %d %s", r.status, r.raw)
	}
}
