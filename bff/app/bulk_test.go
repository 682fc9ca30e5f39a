package app

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/bff/bulk"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/worker/tasks"
)

// bulkStack is the bff with the demo seller signed in and a template campaign of theirs on the
// T-shirt.
type bulkStack struct {
	*stack
	token      string
	sellerID   int64
	templateID int64
	insp       *asynq.Inspector
}

func newBulkStack(t *testing.T) *bulkStack {
	t.Helper()
	s := newStack(t)
	b := &bulkStack{stack: s, token: s.login("seller", "seller@example.com")}
	if err := s.app.DB.Get(&b.sellerID, `SELECT id FROM users WHERE email = 'seller@example.com'`); err != nil {
		t.Fatal(err)
	}
	b.templateID = b.campaign(t, b.sellerID)
	b.insp = asynq.NewInspector(s.cfg.Queue.RedisOpt())
	t.Cleanup(func() { b.insp.Close() })
	return b
}

// campaign makes a campaign of owner with a T-shirt product.
func (b *bulkStack) campaign(t *testing.T, owner int64) int64 {
	t.Helper()
	var id int64
	if err := b.app.DB.Get(&id, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'Bulk template') RETURNING id`, owner); err != nil {
		t.Fatal(err)
	}
	b.app.DB.MustExec(`INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces)
SELECT $1, id, name, product_type, print_spaces FROM product_templates WHERE name = 'T-shirt'`, id)
	return id
}

// decode turns a reply's data into v.
func decode(t *testing.T, r reply, v any) {
	t.Helper()
	b, err := json.Marshal(r.body.Data)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("decode %s: %v", r.raw, err)
	}
}

// queued reports whether Asynq holds the task id in queue.
func (b *bulkStack) queued(t *testing.T, q, id string) bool {
	t.Helper()
	_, err := b.insp.GetTaskInfo(q, id)
	return err == nil
}

const bulkBase = "/api/seller/bulk-campaigns/multi-print-spaces"

// bulkPage is a page of the bulk list.
type bulkPage struct {
	Data    []bulk.Record `json:"data"`
	Total   int           `json:"total"`
	PerPage int           `json:"per_page"`
}

// list reads the bulk list with query; the page is not an envelope.
func (b *bulkStack) list(t *testing.T, query string) (int, bulkPage, []byte) {
	t.Helper()
	return readPage[bulkPage](t, b, bulkBase+"?"+query)
}

// readPage GETs path of the bff as the seller and decodes a 200 answer, a page that is not an envelope.
func readPage[P any](t *testing.T, b *bulkStack, path string) (int, P, []byte) {
	t.Helper()
	var page P
	req, _ := http.NewRequest("GET", b.srv.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+b.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode == 200 {
		if err := json.Unmarshal(raw, &page); err != nil {
			t.Fatalf("%s: %s: %v", path, raw, err)
		}
	}
	return res.StatusCode, page, raw
}

func TestBulkRecordsCreateAndRead(t *testing.T) {
	b := newBulkStack(t)
	designs := `[{"new_url": "u/1/art.png", "print_space": "front"}]`
	workerQueue := queue.Name(queue.Worker, queue.Bulk)

	var created bulk.CreateResult
	r := b.do("POST", bulkBase+"/records", b.token, map[string]any{"template_campaign_id": b.templateID, "designs": designs})
	if r.status != 202 {
		t.Fatalf("create: %d %s", r.status, r.raw)
	}
	decode(t, r, &created)
	if len(created.Records) != 1 || created.Upload != nil {
		t.Fatalf("created = %+v", created)
	}
	rec := created.Records[0]
	if rec.Status != tasks.BulkQueued || rec.Designs != designs || rec.Type != tasks.BulkRegularMultiSpace ||
		rec.Attempts != 1 || *rec.TemplateCampaignID != b.templateID {
		t.Fatalf("record = %+v", rec)
	}
	if !b.queued(t, workerQueue, fmt.Sprintf("bulk-record-%d-a1", rec.ID)) {
		t.Fatal("bulk:record task not in Redis")
	}

	t.Run("validation", func(t *testing.T) {
		other := b.campaign(t, b.userID(t, "admin@example.com"))
		tests := []struct {
			name  string
			body  map[string]any
			field string
			msg   string
		}{
			{"nothing", map[string]any{}, "template_campaign_id", bulk.MsgTemplateRequired},
			{"no designs", map[string]any{"template_campaign_id": b.templateID}, "designs", bulk.MsgDesignsRequired},
			{"designs of another JSON type", map[string]any{"template_campaign_id": b.templateID, "designs": 7}, "designs", bulk.MsgDesignsText},
			{"unknown type", map[string]any{"template_campaign_id": b.templateID, "designs": designs, "type": "x"}, "type", bulk.MsgBadType},
			{"another account's campaign", map[string]any{"template_campaign_id": other, "designs": designs}, "template_campaign_id", bulk.MsgCampaignNotFound},
			{"empty import", map[string]any{"template_campaign_id": b.templateID, "records": []string{}}, "records", bulk.MsgDesignsRequired},
		}
		for _, tt := range tests {
			r := b.do("POST", bulkBase+"/records", b.token, tt.body)
			if r.status != 422 || r.body.Errors[0].Field != tt.field || r.body.Errors[0].Message != tt.msg {
				t.Errorf("%s: %d %s", tt.name, r.status, r.raw)
			}
		}
	})

	t.Run("a JSON array in place of the text is kept as its text", func(t *testing.T) {
		var out bulk.CreateResult
		r := b.do("POST", bulkBase+"/records", b.token, map[string]any{"template_campaign_id": b.templateID,
			"designs": []map[string]string{{"new_url": "u/1/b.png", "print_space": "back"}}, "type": "express_multi_space"})
		decode(t, r, &out)
		if r.status != 202 || out.Records[0].Designs != `[{"new_url":"u/1/b.png","print_space":"back"}]` || out.Records[0].Type != "express_multi_space" {
			t.Fatalf("%d %s", r.status, r.raw)
		}
	})

	t.Run("an import makes one record per artwork under a bulk upload", func(t *testing.T) {
		var out bulk.CreateResult
		r := b.do("POST", bulkBase+"/records", b.token, map[string]any{"template_campaign_id": b.templateID, "name": "Spring drop",
			"start": false, "records": []string{designs, designs, designs}})
		decode(t, r, &out)
		if r.status != 202 || len(out.Records) != 3 || out.Upload == nil || out.Upload.Name != "Spring drop" ||
			out.Upload.Total != 3 || out.Upload.Counts[tasks.BulkPending] != 3 {
			t.Fatalf("%d %s", r.status, r.raw)
		}
		for _, rec := range out.Records {
			if rec.Status != tasks.BulkPending || *rec.BulkUploadID != out.Upload.ID || rec.Attempts != 0 {
				t.Fatalf("record = %+v", rec)
			}
		}
		r = b.do("GET", fmt.Sprintf("%s/uploads/%d", bulkBase, out.Upload.ID), b.token, nil)
		var up bulk.Upload
		decode(t, r, &up)
		if r.status != 200 || up.Total != 3 {
			t.Fatalf("upload: %d %s", r.status, r.raw)
		}
		if code, page, raw := b.list(t, fmt.Sprintf("bulk_upload_id=%d", out.Upload.ID)); code != 200 || page.Total != 3 {
			t.Fatalf("list of the upload: %d %s", code, raw)
		}
	})

	t.Run("one record with its results", func(t *testing.T) {
		b.app.DB.MustExec(`UPDATE bulk_records SET status = 'completed', results = '[{"print_space":"front"}]' WHERE id = $1`, rec.ID)
		r := b.do("GET", fmt.Sprintf("%s/records/%d", bulkBase, rec.ID), b.token, nil)
		var got bulk.Record
		decode(t, r, &got)
		if r.status != 200 || got.Status != tasks.BulkCompleted || got.Results == nil || string(*got.Results) != `[{"print_space":"front"}]` {
			t.Fatalf("%d %s", r.status, r.raw)
		}
		for _, id := range []string{"999999", "x"} {
			if r := b.do("GET", bulkBase+"/records/"+id, b.token, nil); r.status != 404 || r.body.Message != bulk.MsgRecordNotFound {
				t.Fatalf("record %s: %d %s", id, r.status, r.raw)
			}
		}
	})
}

// userID is the id of the account with email.
func (b *bulkStack) userID(t *testing.T, email string) int64 {
	t.Helper()
	var id int64
	if err := b.app.DB.Get(&id, `SELECT id FROM users WHERE email = $1`, email); err != nil {
		t.Fatal(err)
	}
	return id
}

// add inserts a record of the seller in status and returns its id.
func (b *bulkStack) add(t *testing.T, status, typ string) int64 {
	t.Helper()
	var id int64
	const q = `INSERT INTO bulk_records (user_id, template_campaign_id, designs, type, status, attempts) VALUES ($1, $2, $3, $4, $5, 1) RETURNING id`
	if err := b.app.DB.Get(&id, q, b.sellerID, b.templateID, `[{"new_url":"u/1/dog.png","print_space":"front"}]`, typ, status); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestBulkList(t *testing.T) {
	b := newBulkStack(t)
	queued := b.add(t, "queued", tasks.BulkRegularMultiSpace)
	failed := b.add(t, "failed", tasks.BulkExpressMultiSpace)
	completed := b.add(t, "completed", tasks.BulkRegularMultiSpace)
	b.app.DB.MustExec(`UPDATE bulk_records SET designs = '[{"new_url":"u/1/cat.png"}]' WHERE id = $1`, completed)
	// Another account's record never shows.
	theirs := b.campaign(t, b.userID(t, "admin@example.com"))
	b.app.DB.MustExec(`INSERT INTO bulk_records (user_id, template_campaign_id, designs) SELECT user_id, id, '[]' FROM campaigns WHERE id = $1`, theirs)
	// q as a number also matches the template campaign's id: search by a record id that is not also it.
	byID := failed
	if byID == b.templateID {
		byID = completed
	}

	tests := []struct {
		name  string
		query url.Values
		want  []int64
	}{
		{"default: both types, newest first", url.Values{}, []int64{completed, failed, queued}},
		{"status[]", url.Values{"status[]": {"queued", "failed"}}, []int64{failed, queued}},
		{"type[]", url.Values{"type[]": {"express_multi_space"}}, []int64{failed}},
		{"q in the artwork", url.Values{"q": {"cat.png"}}, []int64{completed}},
		{"q as an id", url.Values{"q": {fmt.Sprint(byID)}}, []int64{byID}},
		{"order_by id:asc", url.Values{"order_by": {"id:asc"}}, []int64{queued, failed, completed}},
		{"per_page and page", url.Values{"per_page": {"2"}, "page": {"2"}}, []int64{queued}},
		{"time[] from a day long past", url.Values{"time[]": {"2000-01-01"}}, []int64{completed, failed, queued}},
		{"time[] ending long ago", url.Values{"time[]": {"2000-01-01", "2000-01-02"}}, []int64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, page, raw := b.list(t, tt.query.Encode())
			if code != 200 || page.PerPage == 0 {
				t.Fatalf("%d %s", code, raw)
			}
			got := []int64{}
			for _, r := range page.Data {
				got = append(got, r.ID)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("ids %v, want %v: %s", got, tt.want, raw)
			}
		})
	}
	for _, bad := range []string{"status[]=done", "type[]=x", "time[]=yesterday", "order_by=designs", "quality[]=blurry"} {
		if code, _, raw := b.list(t, bad); code != 422 {
			t.Errorf("%s: %d %s", bad, code, raw)
		}
	}

	t.Run("quality: the worst resolution of the made campaign's print files, and its filter", func(t *testing.T) {
		made := b.madeWithQuality(t, "good", "low")
		b.app.DB.MustExec(`UPDATE bulk_records SET campaign_id = $2 WHERE id = $1`, completed, made)
		code, page, raw := b.list(t, "quality[]=low&quality[]=normal")
		if code != 200 || len(page.Data) != 1 || page.Data[0].ID != completed || page.Data[0].Quality == nil || *page.Data[0].Quality != "low" {
			t.Fatalf("low: %d %s", code, raw)
		}
		if code, page, raw := b.list(t, "quality[]=good"); code != 200 || len(page.Data) != 0 {
			t.Fatalf("good: %d %s", code, raw)
		}
		if _, page, raw := b.list(t, ""); page.Data[1].Quality != nil {
			t.Fatalf("a record without a campaign has no quality: %s", raw)
		}
	})
}

// madeWithQuality makes a campaign of the seller whose exported print files the renderer rated
// with qualities, one design per product.
func (b *bulkStack) madeWithQuality(t *testing.T, qualities ...string) int64 {
	t.Helper()
	made := b.campaign(t, b.sellerID)
	for i, q := range qualities {
		var product int64
		if err := b.app.DB.Get(&product, `INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces)
SELECT $1, id, name, product_type, print_spaces FROM product_templates WHERE name = 'T-shirt' RETURNING id`, made); err != nil {
			t.Fatal(err)
		}
		b.app.DB.MustExec(`INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json, export_status, export_report)
VALUES ($1, $2, $3, '{}', 'done', jsonb_build_object('dpi', jsonb_build_object('quality', $4::text)))`, made, product, fmt.Sprint("front", i), q)
	}
	return made
}

func TestBulkRowActions(t *testing.T) {
	b := newBulkStack(t)
	workerQueue := queue.Name(queue.Worker, queue.Bulk)
	act := func(t *testing.T, action string, ids ...int64) []bulk.ActionResult {
		t.Helper()
		var body any = map[string]any{"ids": ids}
		if ids == nil {
			body = map[string]any{}
		}
		r := b.do("POST", bulkBase+"/"+action, b.token, body)
		if r.status != 200 {
			t.Fatalf("%s: %d %s", action, r.status, r.raw)
		}
		var out []bulk.ActionResult
		decode(t, r, &out)
		return out
	}
	status := func(t *testing.T, id int64) (st string, attempts int) {
		t.Helper()
		row := b.app.DB.QueryRow(`SELECT status, attempts FROM bulk_records WHERE id = $1`, id)
		if err := row.Scan(&st, &attempts); err != nil {
			t.Fatal(err)
		}
		return st, attempts
	}
	const missing = 999999

	t.Run("stop", func(t *testing.T) {
		queued, done := b.add(t, "queued", tasks.BulkRegularMultiSpace), b.add(t, "completed", tasks.BulkRegularMultiSpace)
		got := act(t, "stop", queued, done, missing)
		want := []bulk.ActionResult{{ID: queued, OK: true, Status: "stopped"}, {ID: done, Status: "completed", Message: bulk.MsgCannotStop},
			{ID: missing, Message: bulk.MsgRecordNotFound}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("stop = %+v, want %+v", got, want)
		}
	})

	t.Run("start queues a new attempt", func(t *testing.T) {
		stopped, processing := b.add(t, "stopped", tasks.BulkRegularMultiSpace), b.add(t, "processing", tasks.BulkRegularMultiSpace)
		got := act(t, "start", stopped, processing)
		want := []bulk.ActionResult{{ID: stopped, OK: true, Status: "queued"}, {ID: processing, Status: "processing", Message: bulk.MsgCannotStart}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("start = %+v, want %+v", got, want)
		}
		if st, attempts := status(t, stopped); st != "queued" || attempts != 2 || !b.queued(t, workerQueue, fmt.Sprintf("bulk-record-%d-a2", stopped)) {
			t.Fatalf("started record: %s attempt %d", st, attempts)
		}
	})

	t.Run("retry of a record that failed its checks", func(t *testing.T) {
		failed, queued := b.add(t, "failed", tasks.BulkRegularMultiSpace), b.add(t, "queued", tasks.BulkRegularMultiSpace)
		b.app.DB.MustExec(`UPDATE bulk_records SET message = 'Design url is invalid' WHERE id = $1`, failed)
		got := act(t, "retry", failed, queued)
		want := []bulk.ActionResult{{ID: failed, OK: true, Status: "queued"}, {ID: queued, Status: "queued", Message: bulk.MsgCannotRetry}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("retry = %+v, want %+v", got, want)
		}
		var msg string
		b.app.DB.Get(&msg, `SELECT message FROM bulk_records WHERE id = $1`, failed)
		if st, attempts := status(t, failed); st != "queued" || attempts != 2 || msg != "" || !b.queued(t, workerQueue, fmt.Sprintf("bulk-record-%d-a2", failed)) {
			t.Fatalf("retried record: %s attempt %d %q", st, attempts, msg)
		}
	})

	t.Run("retry of a record whose print file failed exports it again", func(t *testing.T) {
		id := b.add(t, "failed", tasks.BulkRegularMultiSpace)
		made := b.campaign(t, b.sellerID)
		var designID int64
		err := b.app.DB.Get(&designID, `INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json, export_status, export_error)
SELECT $1, id, 'front', '{}', 'failed', 'broken' FROM campaign_products WHERE campaign_id = $1 RETURNING id`, made)
		if err != nil {
			t.Fatal(err)
		}
		b.app.DB.MustExec(`UPDATE bulk_records SET campaign_id = $2 WHERE id = $1`, id, made)
		got := act(t, "retry", id)
		if len(got) != 1 || !got[0].OK || got[0].Status != "processing" {
			t.Fatalf("retry = %+v", got)
		}
		var d struct {
			Revision int    `db:"revision"`
			Status   string `db:"export_status"`
		}
		b.app.DB.Get(&d, `SELECT revision, export_status FROM campaign_designs WHERE id = $1`, designID)
		if d.Revision != 2 || d.Status != "pending" || !b.queued(t, queue.Name(queue.Renderer, queue.Bulk), fmt.Sprintf("export-%d-r2", designID)) {
			t.Fatalf("design = %+v", d)
		}
	})

	t.Run("remove", func(t *testing.T) {
		id := b.add(t, "processing", tasks.BulkRegularMultiSpace)
		got := act(t, "remove", id, missing)
		want := []bulk.ActionResult{{ID: id, OK: true, Status: bulk.StatusRemoved}, {ID: missing, Message: bulk.MsgRecordNotFound}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("remove = %+v, want %+v", got, want)
		}
		var n int
		b.app.DB.Get(&n, `SELECT count(*) FROM bulk_records WHERE id = $1`, id)
		if n != 0 {
			t.Fatal("record still there")
		}
	})

	t.Run("stop-all and start-all", func(t *testing.T) {
		b.app.DB.MustExec(`DELETE FROM bulk_records`)
		pending, queued, failed := b.add(t, "pending", tasks.BulkRegularMultiSpace), b.add(t, "queued", tasks.BulkRegularMultiSpace),
			b.add(t, "failed", tasks.BulkRegularMultiSpace)
		got := act(t, "stop-all")
		want := []bulk.ActionResult{{ID: pending, OK: true, Status: "stopped"}, {ID: queued, OK: true, Status: "stopped"}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("stop-all = %+v, want %+v", got, want)
		}
		got = act(t, "start-all")
		want = []bulk.ActionResult{{ID: pending, OK: true, Status: "queued"}, {ID: queued, OK: true, Status: "queued"}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("start-all = %+v, want %+v", got, want)
		}
		if st, _ := status(t, failed); st != "failed" {
			t.Fatalf("failed record became %s", st)
		}
	})

	t.Run("ids are required", func(t *testing.T) {
		for _, action := range []string{"start", "stop", "retry", "remove"} {
			if r := b.do("POST", bulkBase+"/"+action, b.token, map[string]any{"ids": []int64{}}); r.status != 422 || r.body.Message != bulk.MsgIDsRequired {
				t.Errorf("%s: %d %s", action, r.status, r.raw)
			}
		}
	})
}

func TestBulkOrigin(t *testing.T) {
	b := newBulkStack(t)
	r := b.do("GET", fmt.Sprintf("/api/seller/campaign/bulk-v3/origin/%d", b.templateID), b.token, nil)
	var o bulk.Origin
	decode(t, r, &o)
	if r.status != 200 || o.ID != b.templateID || len(o.Products) != 1 || o.Products[0].Name != "T-shirt" || len(o.Designs) != 0 {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	theirs := b.campaign(t, b.userID(t, "admin@example.com"))
	for _, id := range []string{fmt.Sprint(theirs), "999999", "x"} {
		if r := b.do("GET", "/api/seller/campaign/bulk-v3/origin/"+id, b.token, nil); r.status != 404 || r.body.Message != bulk.MsgCampaignNotFound {
			t.Errorf("origin %s: %d %s", id, r.status, r.raw)
		}
	}
}

func TestBulkCampaignJobs(t *testing.T) {
	b := newBulkStack(t)
	r := b.do("POST", "/api/seller/bulk-campaigns", b.token, map[string]any{"campaign_id": b.templateID, "prefix": "New ",
		"collection": "Cats", "items": []map[string]any{
			{"campaign_name": "Tabby", "designs": `[{"new_url": "u/1/tabby.png"}]`},
			{"campaign_name": "Calico", "designs": map[string]string{"new_url": "u/1/calico.png"}},
		}})
	var jobs []bulk.Job
	decode(t, r, &jobs)
	if r.status != 202 || len(jobs) != 2 || jobs[0].CampaignName != "Tabby" || jobs[1].Designs != `{"new_url":"u/1/calico.png"}` ||
		jobs[0].Status != "pending" || jobs[0].Collection != "Cats" {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	theirs := b.campaign(t, b.userID(t, "admin@example.com"))
	for name, body := range map[string]map[string]any{
		"no origin":                {"designs": `{"new_url": "u/1/x.png"}`},
		"another account's origin": {"campaign_id": theirs, "designs": `{"new_url": "u/1/x.png"}`},
		"no designs":               {"campaign_id": b.templateID},
	} {
		if r := b.do("POST", "/api/seller/bulk-campaigns", b.token, body); r.status != 422 {
			t.Errorf("%s: %d %s", name, r.status, r.raw)
		}
	}
	req, _ := http.NewRequest("GET", b.srv.URL+"/api/seller/bulk-campaigns?q=calico&status[]=pending", nil)
	req.Header.Set("Authorization", "Bearer "+b.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var page struct {
		Data  []bulk.Job `json:"data"`
		Total int        `json:"total"`
	}
	if err := json.NewDecoder(res.Body).Decode(&page); err != nil || res.StatusCode != 200 || page.Total != 1 || page.Data[0].ID != jobs[1].ID {
		t.Fatalf("list: %d %+v %v", res.StatusCode, page, err)
	}
	b.app.DB.MustExec(`INSERT INTO bulk_logs (bulk_id, log) VALUES ($1, 'Campaign not found')`, jobs[0].ID)
	r = b.do("GET", fmt.Sprintf("/api/seller/bulk-campaigns/%d/log", jobs[0].ID), b.token, nil)
	var lines []bulk.LogLine
	decode(t, r, &lines)
	if r.status != 200 || len(lines) != 1 || lines[0].Log != "Campaign not found" {
		t.Fatalf("log: %d %s", r.status, r.raw)
	}
	if r := b.do("GET", "/api/seller/bulk-campaigns/999999/log", b.token, nil); r.status != 404 || r.body.Message != bulk.MsgJobNotFound {
		t.Fatalf("log of a missing job: %d %s", r.status, r.raw)
	}
}

// The bulk menu page lists the seller's imports, newest first, with their records counted.
func TestBulkUploadsList(t *testing.T) {
	b := newBulkStack(t)
	designs := `[{"new_url": "u/1/art.png"}]`
	imports := []struct {
		name    string
		records int
	}{{"Spring drop", 2}, {"Summer drop", 1}}
	ids := []int64{}
	for _, im := range imports {
		records := make([]string, im.records)
		for i := range records {
			records[i] = designs
		}
		var out bulk.CreateResult
		r := b.do("POST", bulkBase+"/records", b.token, map[string]any{"template_campaign_id": b.templateID, "name": im.name,
			"start": false, "records": records})
		decode(t, r, &out)
		if r.status != 202 || out.Upload == nil {
			t.Fatalf("create: %d %s", r.status, r.raw)
		}
		ids = append(ids, out.Upload.ID)
	}
	b.app.DB.MustExec(`UPDATE bulk_records SET status = 'failed' WHERE id = (SELECT min(id) FROM bulk_records WHERE bulk_upload_id = $1)`, ids[0])
	b.app.DB.MustExec(`UPDATE bulk_records SET status = 'completed', campaign_id = $2
WHERE id = (SELECT max(id) FROM bulk_records WHERE bulk_upload_id = $1)`, ids[0], b.madeWithQuality(t, "normal"))
	// Another account's import never shows.
	other := b.userID(t, "admin@example.com")
	b.app.DB.MustExec(`INSERT INTO bulk_uploads (user_id, template_campaign_id, name) VALUES ($1, NULL, 'Theirs')`, other)

	type uploadsPage struct {
		Data  []bulk.Upload `json:"data"`
		Total int           `json:"total"`
	}
	read := func(query string) (int, uploadsPage, []byte) {
		t.Helper()
		return readPage[uploadsPage](t, b, bulkBase+"/uploads?"+query)
	}

	code, page, raw := read("")
	if code != 200 || page.Total != 2 || len(page.Data) != 2 || page.Data[0].ID != ids[1] || page.Data[1].ID != ids[0] {
		t.Fatalf("%d %s", code, raw)
	}
	spring := page.Data[1]
	if spring.Name != "Spring drop" || spring.Total != 2 || spring.Counts[tasks.BulkFailed] != 1 || spring.Counts[tasks.BulkCompleted] != 1 ||
		spring.Counts[tasks.BulkPending] != 0 || spring.Qualities["normal"] != 1 || spring.Qualities["low"] != 0 {
		t.Fatalf("spring = %+v", spring)
	}
	if code, page, raw := read(url.Values{"q": {"summer"}}.Encode()); code != 200 || len(page.Data) != 1 || page.Data[0].ID != ids[1] {
		t.Fatalf("q: %d %s", code, raw)
	}
	if code, _, raw := read("order_by=name"); code != 422 {
		t.Fatalf("order_by: %d %s", code, raw)
	}
}

// The import page's template search: by name on the server, the campaign used as a template
// before its many same-named copies.
func TestBulkTemplateSearch(t *testing.T) {
	b := newBulkStack(t)
	// An earlier import took the template; its 20 copies (newer, same name) were made by its records.
	var upload int64
	if err := b.app.DB.Get(&upload, `INSERT INTO bulk_uploads (user_id, template_campaign_id, name) VALUES ($1, $2, 'Earlier') RETURNING id`,
		b.sellerID, b.templateID); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		copyID := b.campaign(t, b.sellerID)
		b.app.DB.MustExec(`INSERT INTO bulk_records (user_id, bulk_upload_id, template_campaign_id, campaign_id, designs, status)
VALUES ($1, $2, $3, $4, '[]', 'completed')`, b.sellerID, upload, b.templateID, copyID)
	}
	b.app.DB.MustExec(`UPDATE campaigns SET name = 'Neon cats' WHERE user_id = $1 AND name = 'Bulk template'`, b.sellerID)
	var poster int64
	if err := b.app.DB.Get(&poster, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'Poster drop') RETURNING id`, b.sellerID); err != nil {
		t.Fatal(err)
	}
	theirs := b.campaign(t, b.userID(t, "admin@example.com"))

	search := func(q string) []bulk.TemplateChoice {
		t.Helper()
		r := b.do("GET", bulkBase+"/templates?"+url.Values{"q": {q}}.Encode(), b.token, nil)
		var out []bulk.TemplateChoice
		decode(t, r, &out)
		if r.status != 200 {
			t.Fatalf("%q: %d %s", q, r.status, r.raw)
		}
		return out
	}
	got := search("neon Cats")
	if len(got) != 20 || got[0].ID != b.templateID || !got[0].Used || got[0].Made || !got[1].Made {
		t.Fatalf("by name: %+v", got)
	}
	for _, c := range got {
		if c.ID == theirs || c.ID == poster {
			t.Fatalf("found %d: %+v", c.ID, got)
		}
	}
	if got := search("poster"); len(got) != 1 || got[0].ID != poster || got[0].Used {
		t.Fatalf("poster: %+v", got)
	}
	if got := search(fmt.Sprint(poster)); len(got) != 1 || got[0].ID != poster {
		t.Fatalf("by id: %+v", got)
	}
	if got := search(""); got[0].ID != b.templateID {
		t.Fatalf("empty search: %+v", got)
	}
	if r := b.do("GET", bulkBase+"/templates?q="+strings.Repeat("x", 256), b.token, nil); r.status != 422 || r.body.Message != bulk.MsgSearchTooLong {
		t.Fatalf("long: %d %s", r.status, r.raw)
	}
}
