package app

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pressroom/pressroom/bff/bulk"
)

// importFile posts a file to the campaign import as token.
func (s *stack) importFile(token, name, content string) reply {
	s.t.Helper()
	return s.postForm("/api/seller/campaigns/import", token, name, []byte(content))
}

// importReport decodes an import's report from a reply.
func importReport(t *testing.T, r reply) bulk.ImportReport {
	t.Helper()
	var rep bulk.ImportReport
	decode(t, r, &rep)
	return rep
}

// badRows are rows each wrong in one way, with the reason the report must give; %d is the row's
// number, %s the seller's artwork.
var badRows = []struct{ row, reason string }{
	{`,T-shirt,%[2]s,,demo,11.49`, "The name is required."},
	{`Bad %[1]d,Hoody,%[2]s,,demo,11.49`, `No product of the catalogue is called "Hoody".`},
	{`Bad %[1]d,T-shirt,u/999/not-mine.png,,demo,11.49`, `The artwork "u/999/not-mine.png" is not one of your uploads`},
	{`Bad %[1]d,T-shirt,%[2]s,,nowhere,11.49`, `You have no store "nowhere" (give its id or its address).`},
	{`Bad %[1]d,T-shirt,%[2]s,,demo,11.494`, "The margin must be an amount like 11.49 in USD"},
	{`Bad %[1]d,T-shirt,%[2]s,,,11.49`, "Give a store to sell the campaign in, or leave margin and price empty."},
	{`Bad %[1]d,T-shirt,%[2]s,sleeve,demo,11.49`, `A product of the campaign has no print space "sleeve".`},
	{`Bad %[1]d,,%[2]s,,demo,11.49`, "Give a template campaign or products."},
	{`Bad %[1]d,T-shirt,,,demo,11.49`, "The artwork is required"},
}

// TestCampaignImport: a file of 1,000 rows with bad ones reports each bad row with its line and
// reason and sends the others to the worker; importing it again makes no duplicates, nor do two
// imports of one file at once; files that are not rows are refused whole.
func TestCampaignImport(t *testing.T) {
	p := newPricingStack(t)
	seller := p.userID("seller@example.com")
	art := fmt.Sprintf("u/%d/import-art.png", seller)
	p.app.DB.MustExec(`INSERT INTO uploads (owner_id, blob_key, file_name, status, width, height) VALUES ($1, $2, 'import-art.png', 'ready', 1000, 1000)`,
		seller, art)

	for _, tc := range []struct{ name, content, msg string }{
		{"empty.csv", "  \n", "The file is empty."},
		{"cols.csv", "name,artwork,colour\nA,b,c\n", `The column "colour" is not one Pressroom imports; the columns are key, name, template_campaign, products, artwork, print_space, store, margin, price.`},
		{"noname.csv", "artwork\nx\n", "The file has no name column; the first row must name the columns (key, name, template_campaign, products, artwork, print_space, store, margin, price)."},
		{"rows.json", `{"name": "x"}`, `A JSON file must be an array of rows: [{"name": "...", "artwork": "...", "products": ["T-shirt"]}].`},
		{"broken.json", "[\n{\"name\": \"a\"},\n{\"name\": }\n]", "The JSON cannot be read after line 3: invalid character '}' looking for beginning of value."},
		{"big.csv", "name,artwork\n" + strings.Repeat("a,b\n", 1001), "At most 1000 rows can be imported at once; this file has 1001. Split it."},
		{"quote.csv", "name,artwork\n\"a,b\n", "The CSV cannot be read at line "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := p.importFile(p.token, tc.name, tc.content)
			if r.status != 422 || r.body.Errors[0].Field != "file" || !strings.HasPrefix(r.body.Errors[0].Message, tc.msg) {
				t.Fatalf("%d %s", r.status, r.raw)
			}
		})
	}
	var uploads int
	p.app.DB.Get(&uploads, `SELECT count(*) FROM bulk_uploads WHERE kind = 'campaigns'`)
	if uploads != 0 {
		t.Fatalf("refused files kept %d imports", uploads)
	}

	// 1,000 rows: every tenth bad (each way in turn), and one repeating an earlier row.
	var b strings.Builder
	b.WriteString("name,products,artwork,print_space,store,margin\n")
	wantBad := map[int]string{}
	for i := range 1000 {
		line := i + 2
		switch {
		case i%10 == 9:
			bad := badRows[(i/10)%len(badRows)]
			fmt.Fprintf(&b, bad.row+"\n", i, art)
			wantBad[line] = bad.reason
		case i == 500:
			fmt.Fprintf(&b, "Import %d,T-shirt;Mug wrap,%s,,demo,11.49\n", 3, art)
			wantBad[line] = "The row repeats line 5 (the same import key)."
		default:
			fmt.Fprintf(&b, "Import %d,T-shirt;Mug wrap,%s,,demo,11.49\n", i, art)
		}
	}
	file := b.String()
	r := p.importFile(p.token, "spring.csv", file)
	if r.status != http.StatusAccepted || r.body.Message != "899 of 1000 rows were sent to the worker." {
		t.Fatalf("import: %d %s", r.status, r.raw[:min(len(r.raw), 500)])
	}
	rep := importReport(t, r)
	if rep.Rows != 1000 || rep.FileName != "spring.csv" || len(rep.Lines) != 1000 || rep.Counts["queued"] != 899 ||
		rep.Counts[bulk.LineRefused] != 100 || rep.Counts[bulk.LineDuplicate] != 1 {
		t.Fatalf("report %+v (%d lines)", rep.Counts, len(rep.Lines))
	}
	for _, l := range rep.Lines {
		want, bad := wantBad[l.Line]
		switch {
		case bad && (l.RecordID != nil || !strings.HasPrefix(l.Message, want)):
			t.Errorf("line %d: %+v, want refused with %q", l.Line, l, want)
		case !bad && (l.RecordID == nil || l.Status != "queued"):
			t.Errorf("line %d: %+v, want queued", l.Line, l)
		}
	}
	var records int
	p.app.DB.Get(&records, `SELECT count(*) FROM bulk_records WHERE type = 'campaign_import'`)
	if records != 899 {
		t.Fatalf("%d records, want 899", records)
	}

	// The same file again: every good row was imported before, so nothing is sent.
	r = p.importFile(p.token, "spring-again.csv", file)
	rep = importReport(t, r)
	if r.status != 200 || rep.Counts["queued"] != 0 || rep.Counts[bulk.LineDuplicate] != 900 || rep.Counts[bulk.LineRefused] != 100 {
		t.Fatalf("again: %d %+v", r.status, rep.Counts)
	}
	for _, l := range rep.Lines {
		if l.Line == 2 && l.Message != "Imported before, from line 2 of spring.csv." {
			t.Errorf("line 2 again: %+v", l)
		}
	}

	// A new file imported twice at once makes each of its rows once.
	var nb strings.Builder
	nb.WriteString("key,name,products,artwork\n")
	for i := range 50 {
		fmt.Fprintf(&nb, "summer-%d,Summer %d,Poster,/api/files/%s\n", i, i, art)
	}
	var wg sync.WaitGroup
	sent := make([]int, 2)
	for i := range sent {
		wg.Go(func() {
			r := p.importFile(p.token, "summer.csv", nb.String())
			sent[i] = importReport(t, r).Counts["queued"]
		})
	}
	wg.Wait()
	p.app.DB.Get(&records, `SELECT count(*) FROM bulk_records WHERE import_key LIKE 'summer-%'`)
	if records != 50 || sent[0]+sent[1] != 50 {
		t.Errorf("two imports at once: %d records, sent %v", records, sent)
	}

	// JSON rows, with their lines; the import list and report; another seller sees neither.
	doc := `[
  {"name": "Json one", "products": ["T-shirt"], "artwork": "` + art + `", "store": "demo", "price": 24.99},
  {"name": "Json two", "template_campaign": "pricing-tees", "artwork": "` + art + `", "margin": "3"},
  {"name": "Json three", "products": "Poster", "artwork": "` + art + `", "colour": "red"}
]`
	r = p.importFile(p.token, "json rows.json", doc)
	rep = importReport(t, r)
	got := map[int]string{}
	for _, l := range rep.Lines {
		got[l.Line] = l.Status + ": " + l.Message
	}
	want := map[int]string{2: "queued: ", 3: "refused: Give a store to sell the campaign in, or leave margin and price empty.",
		4: `refused: The field "colour" is not one Pressroom imports.`}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("json lines %v, want %v", got, want)
	}
	var price string
	p.app.DB.Get(&price, `SELECT price::text FROM bulk_records WHERE name = 'Json one'`)
	if price != `{"mode": "fixed_price", "price": 2499}` {
		t.Errorf("Json one's price %s", price)
	}

	var list struct {
		Data  []bulk.Import `json:"data"`
		Total int           `json:"total"`
	}
	decode2(t, p.do(http.MethodGet, "/api/seller/campaigns/imports", p.token, nil), &list)
	if list.Total != 5 || list.Data[0].Name != "json rows.json" || list.Data[4].Counts["queued"] != 899 {
		t.Errorf("imports %+v", list)
	}
	veteran := p.login("seller", "veteran@example.com")
	if r := p.do(http.MethodGet, fmt.Sprintf("/api/seller/campaigns/imports/%d", rep.ID), veteran, nil); r.status != 404 {
		t.Errorf("another seller's import: %d", r.status)
	}
	decode2(t, p.do(http.MethodGet, "/api/seller/campaigns/imports", veteran, nil), &list)
	if list.Total != 0 {
		t.Errorf("another seller lists %d imports", list.Total)
	}
	team := p.switchInto("team@example.com")
	if r := p.importFile(team, "team.csv", file); r.status != 403 {
		t.Errorf("a team member without update_campaign imports: %d", r.status)
	}
}
