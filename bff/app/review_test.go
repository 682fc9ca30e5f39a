package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/bff/review"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/orderprint"
	"github.com/pressroom/pressroom/renderer/tasks"
	"github.com/pressroom/pressroom/renderer/tiles"
)

// reviewItem is an item as the review calls answer it.
type reviewItem struct {
	ID          int64           `json:"id"`
	OrderNumber string          `json:"order_number"`
	ProductName string          `json:"product_name"`
	Status      string          `json:"status"`
	Revision    int64           `json:"revision"`
	PrintStatus string          `json:"print_status"`
	Width       *int            `json:"width"`
	Height      *int            `json:"height"`
	DeclaredDPI *float64        `json:"declared_dpi"`
	ByteSize    *int64          `json:"byte_size"`
	Stripped    *bool           `json:"stripped"`
	DPIReport   json.RawMessage `json:"dpi_report"`
	Manifest    *tiles.Manifest `json:"manifest"`
	Design      json.RawMessage `json:"design"`
	TilesURL    string          `json:"tiles_url"`
	FileURL     string          `json:"file_url"`
	Events      []review.Event  `json:"events"`
}

func (s *stack) reviewItem(r reply) reviewItem {
	s.t.Helper()
	if r.status != http.StatusOK {
		s.t.Fatalf("review call: %d %s", r.status, r.raw)
	}
	b, _ := json.Marshal(r.body.Data)
	var it reviewItem
	if err := json.Unmarshal(b, &it); err != nil {
		s.t.Fatal(err)
	}
	return it
}

// reviewQueue is every seeded item by product name, from the queue call.
func (s *stack) reviewQueue(token, query string) (map[string]reviewItem, int) {
	s.t.Helper()
	r := s.do("GET", "/api"+review.Base+query, token, nil)
	if r.status != http.StatusOK {
		s.t.Fatalf("queue: %d %s", r.status, r.raw)
	}
	var page struct {
		Data  []reviewItem `json:"data"`
		Total int          `json:"total"`
	}
	if err := json.Unmarshal(r.raw, &page); err != nil {
		s.t.Fatal(err)
	}
	out := map[string]reviewItem{}
	for _, it := range page.Data {
		out[it.ProductName] = it
	}
	return out, page.Total
}

// prepare does what the renderer does for a seeded item: render its print file and tile it (PNG
// tiles, so the test needs no WebP encoder).
func (s *stack) prepare(store blob.Store, id int64) {
	s.t.Helper()
	exporter, err := orderprint.NewExporter(s.app.DB, store, imagelimit.Config{}, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	tiler, err := orderprint.NewTiler(s.app.DB, store, imagelimit.Config{}, tiles.Options{Format: tiles.FormatPNG}, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	ej, _ := tasks.NewOrderExportJob(id, 1, queue.Default)
	tj, _ := tasks.NewTilesJob(id, 1, queue.Default)
	if err := exporter.ProcessTask(context.Background(), ej.Task()); err != nil {
		s.t.Fatal(err)
	}
	if err := tiler.ProcessTask(context.Background(), tj.Task()); err != nil {
		s.t.Fatal(err)
	}
}

// readyUpload stores a small PNG as a ready, sanitized upload of the account email and returns its id.
func (s *stack) readyUpload(store blob.Store, email, key string) int64 {
	s.t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 300, 200))); err != nil {
		s.t.Fatal(err)
	}
	ctx := context.Background()
	if err := store.Put(ctx, key, bytes.NewReader(buf.Bytes()), int64(buf.Len()), "image/png"); err != nil {
		s.t.Fatal(err)
	}
	info, err := store.Stat(ctx, key)
	if err != nil {
		s.t.Fatal(err)
	}
	var id int64
	const q = `INSERT INTO uploads (owner_id, blob_key, file_name, status, content_type, width, height, byte_size, stripped, blob_version)
VALUES ($1, $2, 'fixed.png', 'ready', 'image/png', 300, 200, $3, true, $4) RETURNING id`
	if err := s.app.DB.Get(&id, q, s.userID(email), key, info.Size, tasks.BlobVersion(info)); err != nil {
		s.t.Fatal(err)
	}
	return id
}

// TestDesignReview walks the designer's review of the seeded design orders: the queue, one item with
// its facts and tiles, approve, reject with the seller notified, re-render and replace, each recorded.
func TestDesignReview(t *testing.T) {
	s := newStack(t)
	store, err := blob.New(s.cfg.Blob, false)
	if err != nil {
		t.Fatal(err)
	}
	designer := s.login("admin", "designer@example.com")
	seller := s.login("seller", "seller@example.com")

	items, total := s.reviewQueue(designer, "?status=designing&order_by=id:asc")
	if total != 4 || items["All-over-print shirt"].OrderNumber != "PR-1002" {
		t.Fatalf("designing queue: %d items %v", total, items)
	}
	if _, all := s.reviewQueue(designer, ""); all != 4 {
		t.Errorf("unfiltered queue: %d items, want 4", all)
	}
	if r := s.do("GET", "/api"+review.Base, seller, nil); r.status != http.StatusForbidden {
		t.Errorf("seller reads the queue: %d", r.status)
	}
	if r := s.do("GET", "/api"+review.Base+"?status=shipped", designer, nil); r.status != http.StatusUnprocessableEntity {
		t.Errorf("unknown status filter: %d", r.status)
	}

	mug, shirt, hoodie, aop := items["Mug wrap"], items["T-shirt"], items["Hoodie"], items["All-over-print shirt"]
	s.prepare(store, mug.ID)
	path := fmt.Sprintf("/api%s/%d", review.Base, mug.ID)
	it := s.reviewItem(s.do("GET", path, designer, nil))
	if it.Status != review.StatusReviewing || it.PrintStatus != tasks.PrintDone || *it.Width != 2700 || *it.Height != 1050 ||
		*it.DeclaredDPI != 300 || !*it.Stripped || *it.ByteSize <= 0 || it.FileURL == "" || len(it.Design) == 0 ||
		!strings.Contains(string(it.DPIReport), `"quality":"good"`) {
		t.Fatalf("mug item = %+v", it)
	}
	if it.Manifest == nil || it.TilesURL != fmt.Sprintf("%s/%d/tiles/1/", review.Base, mug.ID) {
		t.Fatalf("mug tiles: %v %q", it.Manifest, it.TilesURL)
	}
	tile := "/api" + it.TilesURL + fmt.Sprintf("%d/0_0.png", it.Manifest.Levels-1)
	r := s.do("GET", tile, designer, nil)
	if r.status != http.StatusOK || r.header.Get("Content-Type") != "image/png" || !strings.HasPrefix(r.header.Get("Cache-Control"), "private") {
		t.Fatalf("tile: %d %v", r.status, r.header)
	}
	if _, err := png.Decode(bytes.NewReader(r.raw)); err != nil {
		t.Errorf("tile is no PNG: %v", err)
	}
	for _, bad := range []string{strings.Replace(tile, "/tiles/1/", "/tiles/2/", 1), strings.Replace(tile, "0_0.png", "../x.png", 1),
		strings.Replace(tile, "0_0.png", "99_99.png", 1)} {
		if r := s.do("GET", bad, designer, nil); r.status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", bad, r.status)
		}
	}
	if r := s.do("GET", tile, seller, nil); r.status != http.StatusForbidden {
		t.Errorf("seller reads a tile: %d", r.status)
	}
	// A revision's manifest, for comparing versions: the current one's is the item's; none beyond it.
	r = s.do("GET", "/api"+it.TilesURL+"manifest", designer, nil)
	var manifest tiles.Manifest
	if err := json.Unmarshal(mustJSON(t, r.body.Data), &manifest); r.status != http.StatusOK || err != nil || manifest != *it.Manifest {
		t.Errorf("manifest of revision 1: %d %s, want %+v", r.status, r.raw, *it.Manifest)
	}
	if r := s.do("GET", strings.Replace("/api"+it.TilesURL+"manifest", "/tiles/1/", "/tiles/2/", 1), designer, nil); r.status != http.StatusNotFound {
		t.Errorf("manifest of a revision to come: %d", r.status)
	}

	// Approve: only a print file waiting for review, once.
	if r := s.do("POST", fmt.Sprintf("/api%s/%d/approve", review.Base, shirt.ID), designer, nil); r.status != http.StatusConflict {
		t.Errorf("approve a print file still rendering: %d %s", r.status, r.raw)
	}
	it = s.reviewItem(s.do("POST", path+"/approve", designer, nil))
	if it.Status != review.StatusApproved || len(it.Events) != 1 || it.Events[0].Action != review.ActionApprove ||
		it.Events[0].UserName != "Dana Designer" || it.Events[0].Revision != 1 {
		t.Fatalf("approved mug = %+v", it)
	}
	if r := s.do("POST", path+"/approve", designer, nil); r.status != http.StatusConflict {
		t.Errorf("approve twice: %d", r.status)
	}

	// Reject: a comment is required, and the seller reads it, escaped, as a notification.
	reject := fmt.Sprintf("/api%s/%d/reject", review.Base, shirt.ID)
	if r := s.do("POST", reject, designer, map[string]string{"comment": "  "}); r.status != http.StatusUnprocessableEntity {
		t.Errorf("reject without a comment: %d", r.status)
	}
	it = s.reviewItem(s.do("POST", reject, designer, map[string]string{"comment": "The name reads <b>Jamie</b>; the buyer wrote Jaime."}))
	if it.Status != review.StatusRejected || it.Events[0].Action != review.ActionReject || !strings.Contains(it.Events[0].Comment, "Jaime") {
		t.Fatalf("rejected shirt = %+v", it)
	}
	page := s.notificationPage(seller, "")
	found := false
	for _, n := range page.Data {
		if n["subject"] == "Print file rejected: order PR-1001, T-shirt" {
			found = true
			if msg := n["message"].(string); !strings.Contains(msg, "Jaime") || strings.Contains(msg, "<b>") {
				t.Errorf("notification message %q", msg)
			}
		}
	}
	if !found {
		t.Errorf("seller's notifications %v lack the rejection", page.Data)
	}

	// Re-render: a new revision, rendered by the renderer from the design document.
	it = s.reviewItem(s.do("POST", fmt.Sprintf("/api%s/%d/rerender", review.Base, hoodie.ID), designer, nil))
	if it.Revision != 2 || it.Status != review.StatusDesigning || it.PrintStatus != tasks.PrintPending || it.Events[0].Action != review.ActionRerender {
		t.Fatalf("re-rendered hoodie = %+v", it)
	}
	if r := s.do("POST", path+"/rerender", designer, nil); r.status != http.StatusConflict {
		t.Errorf("re-render an approved item: %d", r.status)
	}

	// Replace: only the caller's own ready PNG upload.
	theirs := s.readyUpload(store, "seller@example.com", fmt.Sprintf("u/%d/fixed.png", s.userID("seller@example.com")))
	mine := s.readyUpload(store, "designer@example.com", fmt.Sprintf("u/%d/fixed.png", s.userID("designer@example.com")))
	replace := fmt.Sprintf("/api%s/%d/replace", review.Base, aop.ID)
	if r := s.do("POST", replace, designer, map[string]int64{"upload_id": theirs}); r.status != http.StatusUnprocessableEntity {
		t.Errorf("replace with another account's upload: %d", r.status)
	}
	it = s.reviewItem(s.do("POST", replace, designer, map[string]int64{"upload_id": mine}))
	if it.Revision != 2 || it.PrintStatus != tasks.PrintPending || it.Events[0].Action != review.ActionReplace {
		t.Fatalf("replaced all-over print = %+v", it)
	}
	var interactive []string
	if err := s.app.DB.Select(&interactive, `SELECT task_id FROM task_outbox WHERE queue = $1 ORDER BY id`, queue.Name(queue.Renderer, queue.Interactive)); err != nil {
		t.Fatal(err)
	}
	want := []string{fmt.Sprintf("order-export-%d-r2", hoodie.ID), fmt.Sprintf("tiles-%d-r2", aop.ID)}
	if strings.Join(interactive, " ") != strings.Join(want, " ") {
		t.Errorf("interactive tasks %v, want %v", interactive, want)
	}
	// The replacement is measured and tiled like any print file.
	tiler, err := orderprint.NewTiler(s.app.DB, store, imagelimit.Config{}, tiles.Options{Format: tiles.FormatPNG}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tj, _ := tasks.NewTilesJob(aop.ID, 2, queue.Interactive)
	if err := tiler.ProcessTask(context.Background(), tj.Task()); err != nil {
		t.Fatal(err)
	}
	it = s.reviewItem(s.do("GET", fmt.Sprintf("/api%s/%d", review.Base, aop.ID), designer, nil))
	if it.Status != review.StatusReviewing || *it.Width != 300 || it.DeclaredDPI != nil || string(it.DPIReport) != "null" {
		t.Errorf("replacement measured as %+v", it)
	}
	// Revision 2 has its manifest; revision 1 was never tiled here, so there is nothing to compare.
	manifests := fmt.Sprintf("/api%s/%d/tiles/", review.Base, aop.ID)
	if r := s.do("GET", manifests+"2/manifest", designer, nil); r.status != http.StatusOK || r.body.Data.(map[string]any)["width"] != float64(300) {
		t.Errorf("manifest of the replacement: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", manifests+"1/manifest", designer, nil); r.status != http.StatusNotFound {
		t.Errorf("manifest of an untiled revision: %d %s", r.status, r.raw)
	}
}
