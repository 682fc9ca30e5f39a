package app

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/bff/fonts"
	"github.com/pressroom/pressroom/platform/testinfra"
	fontfile "github.com/pressroom/pressroom/renderer/fonts"
)

// newFontsEditor is newEditor on a stack whose blob store is the test S3 service, where font files go.
func newFontsEditor(t *testing.T) *editor {
	t.Helper()
	srv := testinfra.S3(t)
	s := newStackWith(t, map[string]string{
		"PRESSROOM_BLOB_BACKEND": "s3", "PRESSROOM_S3_ENDPOINT": srv.Endpoint, "PRESSROOM_S3_REGION": srv.Region,
		"PRESSROOM_S3_BUCKET": srv.Bucket, "PRESSROOM_S3_ACCESS_KEY_ID": srv.AccessKeyID,
		"PRESSROOM_S3_SECRET_ACCESS_KEY": srv.SecretAccessKey, "PRESSROOM_S3_USE_PATH_STYLE": "true",
		"PRESSROOM_S3_USE_TLS": "false", "PRESSROOM_FONT_REMOVE_AFTER": "0s",
	})
	e := &editor{stack: s, token: s.mint("seller@example.com", "own", "", false), templates: map[string]int64{}}
	if err := s.app.DB.Get(&e.sellerID, `SELECT id FROM users WHERE email = 'seller@example.com'`); err != nil {
		t.Fatal(err)
	}
	r := s.do("GET", "/api/seller/product-templates", e.token, nil)
	for _, tpl := range r.body.Data.([]any) {
		e.templates[tpl.(obj)["name"].(string)] = int64(tpl.(obj)["id"].(float64))
	}
	return e
}

// uploadFont posts a font file as the fonts page does.
func (s *stack) uploadFont(token, name string, data []byte) reply {
	s.t.Helper()
	return s.postFile("/api/seller/fonts", token, name, data)
}

func fontFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../../renderer/fonts/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFontsListUploadServe(t *testing.T) {
	e := newFontsEditor(t)
	r := e.do("GET", "/api/fonts", "", nil)
	var families []string
	for _, f := range r.body.Data.([]any) {
		families = append(families, f.(obj)["family"].(string)+" "+f.(obj)["url"].(string))
	}
	want := "Roboto /api/fonts/Roboto-Regular.ttf|DejaVu Sans /api/fonts/platform/DejaVuSans.ttf|Liberation Sans /api/fonts/platform/LiberationSans-Regular.ttf|" +
		"Liberation Serif /api/fonts/platform/LiberationSerif-Regular.ttf|Noto Sans /api/fonts/platform/NotoSans-Regular.ttf|" +
		"Noto Serif /api/fonts/platform/NotoSerif-Regular.ttf"
	if r.status != 200 || strings.Join(families, "|") != want {
		t.Fatalf("public fonts: %d %s", r.status, r.raw)
	}
	sans, _ := fontfile.PlatformFile("fonts/platform/LiberationSans-Regular.ttf")
	if r := e.do("GET", "/api/fonts/platform/LiberationSans-Regular.ttf", "", nil); r.status != 200 || !bytes.Equal(r.raw, sans) ||
		r.header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Fatalf("platform font file: %d, %d bytes", r.status, len(r.raw))
	}

	for _, tc := range []struct{ file, format, ext, contentType string }{
		{"mono.ttf", "ttf", ".ttf", "font/ttf"},
		{"mono.otf", "otf", ".otf", "font/otf"},
		{"mono.woff", "woff", ".ttf", "font/ttf"},
		{"mono.woff2", "woff2", ".ttf", "font/ttf"},
	} {
		t.Run("upload "+tc.file, func(t *testing.T) {
			data := fontFixture(t, tc.file)
			r := e.uploadFont(e.token, tc.file, data)
			if r.status != 201 || r.body.Message != fonts.MsgUploaded {
				t.Fatalf("upload: %d %s", r.status, r.raw)
			}
			f := r.body.Data.(obj)
			key := f["font_url"].(string)
			prefix := fmt.Sprintf("fonts/%d/", e.sellerID)
			if f["family"] != "Liberation Mono" || f["style"] != "Regular" || f["weight"] != 400.0 || f["format"] != tc.format ||
				f["platform"] != false || !strings.HasPrefix(key, prefix) || !strings.HasSuffix(key, tc.ext) ||
				f["url"] != "/api/"+key {
				t.Fatalf("font = %v", f)
			}
			_, stored, _ := fontfile.Read(data)
			got := e.do("GET", f["url"].(string), "", nil)
			if got.status != 200 || !bytes.Equal(got.raw, stored) || got.header.Get("Content-Type") != tc.contentType {
				t.Fatalf("served file: %d %q, %d bytes", got.status, got.header.Get("Content-Type"), len(got.raw))
			}
		})
	}
	r = e.do("GET", "/api/seller/fonts", e.token, nil)
	list := r.body.Data.([]any)
	if r.status != 200 || len(list) != 9 || list[0].(obj)["family"] != "DejaVu Sans" || list[0].(obj)["platform"] != true ||
		list[8].(obj)["family"] != "Liberation Mono" {
		t.Fatalf("seller's fonts: %d %s", r.status, r.raw)
	}
}

func TestFontUploadRefusals(t *testing.T) {
	e := newFontsEditor(t)
	ttf := fontFixture(t, "mono.ttf")
	for _, tc := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"not a font", []byte("\x89PNG\r\n\x1a\nnot a font at all"), fontfile.ErrNotFont.Error()},
		{"damaged", ttf[:len(ttf)/2], fontfile.ErrCorrupt.Error()},
		{"no basic Latin", fontFixture(t, "lycian.ttf"), "The font has no glyphs for basic Latin letters and digits (A–Z, a–z, 0–9): A B C"},
		{"too large", append(bytes.Clone(ttf), make([]byte, fontfile.MaxFileBytes)...), fontfile.ErrTooLarge.Error()},
		{"damaged woff2", fontFixture(t, "mono.woff2")[:200], fontfile.ErrCorrupt.Error()},
		{"empty", nil, fonts.MsgNoFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.uploadFont(e.token, "font.ttf", tc.data)
			if r.status != 422 || !strings.HasPrefix(r.body.Message, tc.msg) || len(r.body.Errors) != 1 || r.body.Errors[0].Field != "file" {
				t.Fatalf("%d %s, want 422 %q on file", r.status, r.raw, tc.msg)
			}
		})
	}
	var n int
	e.app.DB.Get(&n, `SELECT count(*) FROM fonts WHERE seller_id = $1`, e.sellerID)
	if n != 0 {
		t.Fatalf("%d fonts recorded after refusals", n)
	}
}

func TestFontDeleteKeepsTheFileWhileCampaignsUseIt(t *testing.T) {
	e := newFontsEditor(t)
	up := e.uploadFont(e.token, "mono.ttf", fontFixture(t, "mono.ttf")).body.Data.(obj)
	used, unused := up["font_url"].(string), e.uploadFont(e.token, "mono.woff", fontFixture(t, "mono.woff")).body.Data.(obj)
	usedID, unusedID := int64(up["id"].(float64)), int64(unused["id"].(float64))

	// A campaign whose text uses the font, and a platform font in another text.
	c := e.create("Named mug", "T-shirt")
	text := textObj("t1", "Hello", false)
	text["fontFamily"], text["fontUrl"] = "Liberation Mono", used
	lato := textObj("t2", "World", false)
	lato["fontFamily"], lato["fontUrl"] = "Liberation Sans", "fonts/platform/LiberationSans-Regular.ttf"
	body := obj{"name": "Named mug", "products": products(c), "designs": []obj{design(productID(c, 0), "front", doc("front", text, lato))}}
	if r := e.do("PUT", path(c), e.token, body); r.status != 200 {
		t.Fatalf("save with the font: %d %s", r.status, r.raw)
	}

	// Another seller can neither delete it nor use its file in a design.
	e.addUser("other@example.com", []string{"seller"}, []string{}, true, false)
	other := e.mint("other@example.com", "own", "", false)
	if r := e.do("DELETE", "/api/seller/fonts/"+strconv.FormatInt(usedID, 10), other, nil); r.status != 404 || r.body.Message != fonts.MsgNotFound {
		t.Fatalf("another seller deletes: %d %s", r.status, r.raw)
	}
	theirs := e.do("POST", "/api/seller/campaigns", other, obj{"name": "Theirs", "kind": "regular", "template_ids": []int64{e.templates["T-shirt"]}}).body.Data.(obj)
	body["products"], body["designs"] = products(theirs), []obj{design(productID(theirs, 0), "front", doc("front", text))}
	if r := e.do("PUT", path(theirs), other, body); r.status != 422 || !strings.Contains(string(r.raw), "objects[0].fontUrl") {
		t.Fatalf("another seller saves with the font: %d %s", r.status, r.raw)
	}
	var platformID int64
	e.app.DB.Get(&platformID, `SELECT id FROM fonts WHERE seller_id IS NULL LIMIT 1`)
	if r := e.do("DELETE", "/api/seller/fonts/"+strconv.FormatInt(platformID, 10), e.token, nil); r.status != 404 {
		t.Fatalf("seller deletes a platform font: %d %s", r.status, r.raw)
	}

	r := e.do("DELETE", "/api/seller/fonts/"+strconv.FormatInt(usedID, 10), e.token, nil)
	if r.status != 200 || r.body.Message != fonts.MsgDeletedUsed {
		t.Fatalf("delete used font: %d %s", r.status, r.raw)
	}
	if r := e.do("DELETE", "/api/seller/fonts/"+strconv.FormatInt(unusedID, 10), e.token, nil); r.status != 200 || r.body.Message != fonts.MsgDeleted {
		t.Fatalf("delete unused font: %d %s", r.status, r.raw)
	}
	for _, f := range e.do("GET", "/api/seller/fonts", e.token, nil).body.Data.([]any) {
		if f.(obj)["platform"] != true {
			t.Fatalf("a deleted font is still listed: %v", f)
		}
	}
	removed, err := e.app.fonts.Sweep(context.Background())
	if err != nil || removed != 1 {
		t.Fatalf("sweep removed %d (%v), want the unused font's file only", removed, err)
	}
	// The campaign keeps loading and saving its font; the unused font's file is gone.
	if r := e.do("GET", "/api/"+used, "", nil); r.status != 200 || len(r.raw) == 0 {
		t.Fatalf("used font's file after the sweep: %d", r.status)
	}
	if r := e.do("GET", "/api/"+unused["font_url"].(string), "", nil); r.status != 404 {
		t.Fatalf("unused font's file after the sweep: %d", r.status)
	}
	body["products"], body["designs"] = products(c), []obj{design(productID(c, 0), "front", doc("front", text, lato))}
	if r := e.do("PUT", path(c), e.token, body); r.status != 200 {
		t.Fatalf("save again with the deleted font: %d %s", r.status, r.raw)
	}
	// Once the campaign no longer names it, the next sweep removes it.
	body["designs"] = []obj{design(productID(c, 0), "front", doc("front", lato))}
	if r := e.do("PUT", path(c), e.token, body); r.status != 200 {
		t.Fatalf("save without the font: %d %s", r.status, r.raw)
	}
	if removed, err := e.app.fonts.Sweep(context.Background()); err != nil || removed != 1 {
		t.Fatalf("second sweep removed %d (%v)", removed, err)
	}
	if r := e.do("GET", "/api/"+used, "", nil); r.status != 404 {
		t.Fatalf("font file after its last use went: %d", r.status)
	}
}
