package shop

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/commerce/checkout"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/sanitize"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// mugDesign is the fixture mug's design: a name of any characters (its label trying a script), a
// symbol from two pictures, and the buyer's photo.
const mugDesign = `{"version":1,"printSpace":{"name":"wrap","width":2700,"height":1050,"dpi":300,"minDpi":150},"objects":[
 {"type":"image","id":"photo","src":"u/1/sample.png","x":100,"y":100,"width":600,"height":600,"isCustom":true,
  "input":{"kind":"image","label":"Your photo","required":true}},
 {"type":"image","id":"symbol","src":"u/1/heart.png","x":1100,"y":100,"width":500,"height":500,"isCustom":true,
  "input":{"kind":"dropdown","label":"Symbol","options":[{"label":"Heart","src":"u/1/heart.png","width":600,"height":600},{"label":"Star","src":"u/1/star.png","width":600,"height":600}]}},
 {"type":"text","id":"name","text":"Sam","fontSize":200,"fill":"#1f2a44","x":100,"y":760,"width":2500,"textWidth":"limited",
  "displayStyle":"color","maxLength":12,"isCustom":true,"input":{"kind":"text","label":"Name <script>x</script>","required":true}}]}`

// personalizedMug gives the fixture's mug mugDesign and stores its symbols.
func personalizedMug(t *testing.T, f fixture) {
	t.Helper()
	f.db.MustExec(`INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json, option) VALUES ($1, $2, 'wrap', $3, 'custom')`,
		f.campaign, f.mug, mugDesign)
	for _, key := range []string{"u/1/heart.png", "u/1/star.png"} {
		b := pngOf(t, 60, 60)
		if err := f.blobs.Put(context.Background(), key, bytes.NewReader(b), int64(len(b)), "image/png"); err != nil {
			t.Fatal(err)
		}
	}
}

// pngOf is a w x h opaque PNG.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	img.Set(0, 0, color.NRGBA{R: 10, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// checkPhotos runs the renderer's real upload check (render:sanitize) on every photo the storefront
// queues, as the renderer would, until ctx ends.
func checkPhotos(ctx context.Context, t *testing.T, f fixture) {
	h, err := sanitize.NewHandler(f.db, f.blobs, imagelimit.Config{})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for ctx.Err() == nil {
			var rows []struct {
				ID      int64  `db:"id"`
				Payload []byte `db:"payload"`
			}
			f.db.Select(&rows, `UPDATE task_outbox SET sent_at = now() WHERE task_type = $1 AND sent_at IS NULL RETURNING id, payload`, tasks.TypeSanitize)
			for _, r := range rows {
				h.ProcessTask(ctx, asynq.NewTask(tasks.TypeSanitize, r.Payload))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
}

// bombPNG is a PNG whose header claims w x h pixels over a few bytes of data.
func bombPNG(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		crc := crc32.NewIEEE()
		crc.Write([]byte(typ))
		crc.Write(data)
		b.WriteString(typ)
		b.Write(data)
		binary.Write(&b, binary.BigEndian, crc.Sum32())
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6
	chunk("IHDR", ihdr)
	chunk("IDAT", []byte{0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})
	chunk("IEND", nil)
	return b.Bytes()
}

// multipartForm is an add-to-cart post with a photo file.
func multipartForm(t *testing.T, fields url.Values, fileField string, file []byte) (*bytes.Buffer, string) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, vs := range fields {
		for _, v := range vs {
			w.WriteField(k, v)
		}
	}
	if fileField != "" {
		fw, err := w.CreateFormFile(fileField, "me.png")
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(file)
	}
	w.Close()
	return &body, w.FormDataContentType()
}

func TestPersonalizedProductPage(t *testing.T) {
	f := setup(t)
	personalizedMug(t, f)
	c := client(t)
	base := f.srv.URL + "/s/demo"
	res, body := get(t, c, base+"/c/"+itoa(f.campaign)+"?product="+itoa(f.mug))
	if res.StatusCode != 200 {
		t.Fatalf("product page %d\n%s", res.StatusCode, body)
	}
	name := fieldName(answerPrefix, "wrap", "name")
	for _, want := range []string{
		`enctype="multipart/form-data"`, `Personalize it`,
		`name="` + name + `" value="Sam" maxlength="12" required`,
		`Name &lt;script&gt;x&lt;/script&gt; (required)`,
		`type="file" id="` + fieldName(photoPrefix, "wrap", "photo") + `"`, `Your photo (required)`,
		`<legend>Symbol</legend>`, `value="0" checked`, `<span>Star</span>`,
		`<script type="application/json" id="pz-data">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("product page lacks %q", want)
		}
	}
	if strings.Contains(body, "<script>x</script>") {
		t.Error("the field label is not escaped")
	}
	// The preview's data parses and holds the design; without a UI build no script is loaded.
	data := regexp.MustCompile(`(?s)id="pz-data">(.*?)</script>`).FindStringSubmatch(body)
	var preview struct {
		Asset   string `json:"asset"`
		Designs []struct {
			PrintSpace string          `json:"print_space"`
			Doc        json.RawMessage `json:"doc"`
		} `json:"designs"`
	}
	if len(data) < 2 || json.Unmarshal([]byte(data[1]), &preview) != nil || len(preview.Designs) != 1 || preview.Designs[0].PrintSpace != "wrap" ||
		!strings.Contains(string(preview.Designs[0].Doc), `"isCustom":true`) {
		t.Fatalf("preview data %q", data)
	}
	if strings.Contains(body, `<script type="module"`) {
		t.Error("a script is loaded though the UI is not built")
	}
	// A choice's picture is served; a key the design offers no buyer is not.
	star := preview.Asset + url.QueryEscape("u/1/star.png")
	if res, _ := get(t, c, f.srv.URL+star); res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/png" {
		t.Errorf("the Star picture: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	for _, key := range []string{"u/1/sample.png", "u/1/secret.png", "../../etc/passwd"} {
		if res, _ := get(t, c, f.srv.URL+preview.Asset+url.QueryEscape(key)); res.StatusCode != 404 {
			t.Errorf("asset %s: %d, want 404", key, res.StatusCode)
		}
	}
	// The shirt asks nothing.
	if _, body := get(t, c, base+"/c/"+itoa(f.campaign)+"?product="+itoa(f.shirt)); strings.Contains(body, "Personalize it") {
		t.Error("a product without custom objects asks for a personalization")
	}
}

func TestPersonalizedAddToCart(t *testing.T) {
	f := setup(t)
	personalizedMug(t, f)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	checkPhotos(ctx, t, f)
	c := client(t)
	base := f.srv.URL + "/s/demo"
	name, symbol := fieldName(answerPrefix, "wrap", "name"), fieldName(answerPrefix, "wrap", "symbol")
	photo := fieldName(photoPrefix, "wrap", "photo")
	form := url.Values{"product_id": {itoa(f.mug)}, "campaign_id": {itoa(f.campaign)}, "color": {"White"}, "size": {"11oz"}, "quantity": {"1"},
		name: {"<i>Zoë</i>&c"}, symbol: {"1"}}
	postMultipart := func(fields url.Values, file []byte) (*http.Response, string) {
		field := ""
		if file != nil {
			field = photo
		}
		body, ct := multipartForm(t, fields, field, file)
		res, err := c.Post(base+"/cart/items", ct, body)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(res.Body)
		return res, b.String()
	}

	// Without the required photo: refused next to it, the name kept.
	res, body := postMultipart(form, nil)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "Upload a photo.") ||
		!strings.Contains(body, `value="&lt;i&gt;Zoë&lt;/i&gt;&amp;c"`) {
		t.Fatalf("no photo: %d\n%s", res.StatusCode, body)
	}
	// A file that is not an image: refused at once.
	if res, body := postMultipart(form, []byte("%PDF-1.4 not a photo")); res.StatusCode != 422 || !strings.Contains(body, msgPhotoType) {
		t.Fatalf("a PDF as photo: %d", res.StatusCode)
	}
	// A name too long: refused next to it.
	long := url.Values{}
	for k, v := range form {
		long[k] = v
	}
	long.Set(name, "Bartholomew Jones")
	if res, body := postMultipart(long, pngOf(t, 1600, 1600)); res.StatusCode != 422 || !strings.Contains(body, "Use at most 12 characters.") {
		t.Fatalf("a long name: %d\n%s", res.StatusCode, body)
	}
	// A small photo: added, checked by the renderer's sanitize, and the cart warns of it.
	res, body = postMultipart(form, pngOf(t, 120, 120))
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add with a photo: %d\n%s", res.StatusCode, body)
	}
	_, body = get(t, c, base+"/cart")
	for _, want := range []string{"Name &lt;script&gt;x&lt;/script&gt;: “&lt;i&gt;Zoë&lt;/i&gt;&amp;c”", "Symbol: Star",
		"Your photo: your photo (120 × 120 px)", "here it would print at 60 DPI, below the 150 DPI"} {
		if !strings.Contains(body, want) {
			t.Errorf("cart lacks %q\n%s", want, body)
		}
	}
	if strings.Contains(body, "<i>Zoë") {
		t.Error("the buyer's text is not escaped in the cart")
	}
	var kept struct {
		Key    string `db:"blob_key"`
		Status string `db:"status"`
	}
	if err := f.db.Get(&kept, `SELECT blob_key, status FROM uploads WHERE kind = $1 ORDER BY id DESC LIMIT 1`, checkout.PhotoKind); err != nil ||
		kept.Status != "ready" || !strings.HasPrefix(kept.Key, checkout.PhotoKeyPrefix(f.storeID)) {
		t.Errorf("the photo kept: %+v %v", kept, err)
	}
}

func TestPhotoAPI(t *testing.T) {
	f := setup(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	checkPhotos(ctx, t, f)
	c := client(t)
	upload := func(b []byte) (int, map[string]any) {
		body, ct := multipartForm(t, nil, "file", b)
		res, err := c.Post(f.srv.URL+"/s/demo/api/photos", ct, body)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var env map[string]any
		json.NewDecoder(res.Body).Decode(&env)
		return res.StatusCode, env
	}
	status, env := upload(pngOf(t, 800, 600))
	data, _ := env["data"].(map[string]any)
	if status != 200 || data["ready"] != true || data["width"] != 800.0 || data["height"] != 600.0 {
		t.Fatalf("upload %d %v", status, env)
	}
	if status, env := upload([]byte("GIF89a nope")); status != 422 || env["message"] != msgPhotoType {
		t.Errorf("a GIF: %d %v", status, env)
	}
	// A pixel bomb: a valid PNG header claiming 100000 x 100000 pixels, refused by the renderer's check.
	if status, env := upload(bombPNG(100000, 100000)); status != 422 || !strings.Contains(fmt.Sprint(env["message"]), "This photo cannot be used: The image has too many pixels.") {
		t.Errorf("a pixel bomb: %d %v", status, env)
	}
	id := itoa(int64(data["id"].(float64)))
	if res, _ := get(t, c, f.srv.URL+"/s/demo/api/photos/"+id); res.StatusCode != 200 {
		t.Errorf("read back: %d", res.StatusCode)
	}
	// Another store cannot read it.
	f.db.MustExec(`INSERT INTO stores (owner_id, name, domain, slug, currency) SELECT owner_id, 'O', 'o.example', 'other', 'USD' FROM stores WHERE id = $1`, f.storeID)
	if res, _ := get(t, c, f.srv.URL+"/s/other/api/photos/"+id); res.StatusCode != 404 {
		t.Errorf("another store reads the photo: %d", res.StatusCode)
	}
}

// TestPreviewScriptAndAssets: with a UI build, the product page loads the preview script and its chunks from the
// build's manifest, served under /assets/ on any host; nothing outside the build's assets is served.
func TestPreviewScriptAndAssets(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".vite"), 0o755)
	os.MkdirAll(filepath.Join(dir, "assets"), 0o755)
	os.WriteFile(filepath.Join(dir, ".vite", "manifest.json"), []byte(`{
		"src/shop/personalize.tsx": {"file": "assets/personalize-abc.js", "imports": ["_konva.js"]},
		"_konva.js": {"file": "assets/konva-def.js", "imports": ["_react.js"]},
		"_react.js": {"file": "assets/react-ghi.js"}}`), 0o644)
	os.WriteFile(filepath.Join(dir, "assets", "personalize-abc.js"), []byte("console.log(1)"), 0o644)
	os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("no"), 0o644)
	f := setupUI(t, dir)
	personalizedMug(t, f)
	c := client(t)
	_, body := get(t, c, f.srv.URL+"/s/demo/c/"+itoa(f.campaign)+"?product="+itoa(f.mug))
	for _, want := range []string{`<link rel="modulepreload" href="/assets/konva-def.js">`, `<link rel="modulepreload" href="/assets/react-ghi.js">`,
		`<script type="module" src="/assets/personalize-abc.js"></script>`} {
		if !strings.Contains(body, want) {
			t.Errorf("product page lacks %q", want)
		}
	}
	res, js := get(t, c, f.srv.URL+"/assets/personalize-abc.js")
	if res.StatusCode != 200 || js != "console.log(1)" || !strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("the script: %d %q", res.StatusCode, res.Header.Get("Cache-Control"))
	}
	for _, p := range []string{"/assets/../secret.txt", "/assets/", "/assets/missing.js", "/assets/%2e%2e/secret.txt"} {
		if res, _ := get(t, c, f.srv.URL+p); res.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", p, res.StatusCode)
		}
	}
	// The editor's drawing code loads the default font from /api/fonts on the store's host.
	res, fonts := get(t, c, f.srv.URL+"/api/fonts")
	if res.StatusCode != 200 || !strings.Contains(fonts, `"url":"/api/fonts/Roboto-Regular.ttf"`) {
		t.Errorf("/api/fonts: %d %s", res.StatusCode, fonts)
	}
	if res, _ := get(t, c, f.srv.URL+"/api/fonts/Roboto-Regular.ttf"); res.StatusCode != 200 || res.Header.Get("Content-Type") != "font/ttf" {
		t.Errorf("Roboto: %d", res.StatusCode)
	}
}
