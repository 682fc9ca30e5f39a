package campaigns

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/testinfra"
)

// listFixture builds campaigns in a test database with plain SQL: one product template with three
// mockup templates (front at positions 0 and 1, back at 2), as the seed's catalogue has them.
type listFixture struct {
	t         *testing.T
	db        *sqlx.DB
	ownerID   int64
	templates [3]int64 // front 1, front 2, back
	product   int64    // the product template
	rendered  time.Time
}

func newListFixture(t *testing.T) *listFixture {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	f := &listFixture{t: t, db: db, rendered: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)}
	f.ownerID = f.id(`INSERT INTO users (name, email, password_hash) VALUES ('Sam', 'sam@example.com', 'x') RETURNING id`)
	f.product = f.id(`INSERT INTO product_templates (name, product_type, print_spaces, mockup_type)
VALUES ('T-shirt', 'tshirt', '[{"name":"front","width":4500,"height":5400},{"name":"back","width":4500,"height":5400}]', 'tshirt')
RETURNING id`)
	for i, space := range []string{"front", "front", "back"} {
		f.templates[i] = f.id(`INSERT INTO mockup_templates (template_id, print_space, file_url, design_json, position)
VALUES ($1, $2, $3, '{}', $4) RETURNING id`, f.product, space, "mockup-templates/tee/"+strconv.Itoa(i)+".json", i)
	}
	return f
}

func (f *listFixture) id(query string, args ...any) int64 {
	f.t.Helper()
	var id int64
	if err := f.db.Get(&id, query, args...); err != nil {
		f.t.Fatalf("%s: %v", query, err)
	}
	return id
}

// campaign adds a campaign of the owner with an artwork and returns its id.
func (f *listFixture) campaign(name string) int64 {
	return f.id(`INSERT INTO campaigns (user_id, name, artwork_url) VALUES ($1, $2, $3) RETURNING id`,
		f.ownerID, name, "u/1/designs/"+name+".png")
}

// addProduct adds a product of the T-shirt to campaign c with a design of each print space whose
// print file is in state export, and returns the product and its design ids by print space.
func (f *listFixture) addProduct(c int64, export string) (int64, map[string]int64) {
	p := f.id(`INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces)
SELECT $1, id, name, product_type, print_spaces FROM product_templates WHERE id = $2 RETURNING id`, c, f.product)
	designs := map[string]int64{}
	for _, space := range []string{"front", "back"} {
		designs[space] = f.id(`INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json, export_status)
VALUES ($1, $2, $3, '{}', $4) RETURNING id`, c, p, space, export)
	}
	return p, designs
}

// mockup is a mockup record to add: of mockup template tmpl (an index of templates), its state.
type mockup struct {
	tmpl              int
	status            string
	isDefault, chosen bool
	noPreview         bool
}

// addMockups adds mockup records of product p of campaign c; a done one has its file, preview
// (unless noPreview) and render time.
func (f *listFixture) addMockups(c, p int64, designs map[string]int64, ms ...mockup) {
	f.t.Helper()
	for _, m := range ms {
		space := "front"
		if m.tmpl == 2 {
			space = "back"
		}
		var file, preview string
		var rendered *time.Time
		if m.status == "done" {
			file, preview, rendered = f.file(c, p, m.tmpl), f.preview(c, p, m.tmpl), &f.rendered
			if m.noPreview {
				preview = ""
			}
		}
		f.db.MustExec(`INSERT INTO campaign_mockups (campaign_id, product_id, print_space, mockup_template_id, design_id,
	design_revision, is_default_mockup, default_chosen, file_url, preview_url, status, rendered_at)
VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8, $9, $10, $11)`,
			c, p, space, f.templates[m.tmpl], designs[space], m.isDefault, m.chosen, file, preview, m.status, rendered)
	}
}

func (f *listFixture) file(c, p int64, tmpl int) string {
	return "p/" + strconv.FormatInt(c, 10) + "/design_" + strconv.FormatInt(f.templates[tmpl], 10) + "_" + strconv.FormatInt(p, 10) + ".png"
}

func (f *listFixture) preview(c, p int64, tmpl int) string {
	return "p/" + strconv.FormatInt(c, 10) + "/design_" + strconv.FormatInt(f.templates[tmpl], 10) + "_" + strconv.FormatInt(p, 10) + "_preview.webp"
}

// served is the URL the list gives a mockup image stored at key, rendered at the fixture's time.
func (f *listFixture) served(key string) string {
	return "/api/files/" + key + "?v=" + strconv.FormatInt(f.rendered.UnixMilli(), 36)
}

// shown is what the list says of a campaign's picture.
type shown struct {
	Mockup, Artwork string
	Pending         bool
}

// TestListShowsTheDefaultMockup makes campaigns whose mockups stand differently and checks which
// image the list gives each: the seller's chosen default (even on a later product), else the
// first done mockup of the first product (its file when it has no preview), else none, the
// artwork thumbnail staying beside it; and whether mockups are still being made.
func TestListShowsTheDefaultMockup(t *testing.T) {
	f := newListFixture(t)
	want := map[string]shown{}
	artwork := func(name string) string { return "/api/files/u/1/designs/" + name + ".png?variant=thumb" }

	// The seller chose the back mockup of the second product; the first product's own default is done.
	c := f.campaign("chosen")
	p1, d1 := f.addProduct(c, "done")
	p2, d2 := f.addProduct(c, "done")
	f.addMockups(c, p1, d1, mockup{tmpl: 0, status: "done", isDefault: true}, mockup{tmpl: 1, status: "done"})
	f.addMockups(c, p2, d2, mockup{tmpl: 0, status: "done"}, mockup{tmpl: 2, status: "done", isDefault: true, chosen: true})
	want["chosen"] = shown{Mockup: f.served(f.preview(c, p2, 2)), Artwork: artwork("chosen")}

	// The seller's choice is being made again after a save: the first product's first done mockup stands in.
	c = f.campaign("chosen-rerendering")
	p1, d1 = f.addProduct(c, "done")
	f.addMockups(c, p1, d1, mockup{tmpl: 0, status: "done"}, mockup{tmpl: 1, status: "pending", isDefault: true, chosen: true})
	want["chosen-rerendering"] = shown{Mockup: f.served(f.preview(c, p1, 0)), Artwork: artwork("chosen-rerendering"), Pending: true}

	// No default among the done mockups: the first product's, by template order, made before previews
	// existed, so its file; the second product's default does not count before the first product.
	c = f.campaign("undecided")
	p1, d1 = f.addProduct(c, "done")
	p2, d2 = f.addProduct(c, "done")
	f.addMockups(c, p1, d1, mockup{tmpl: 2, status: "done"}, mockup{tmpl: 1, status: "done", noPreview: true},
		mockup{tmpl: 0, status: "failed", isDefault: true})
	f.addMockups(c, p2, d2, mockup{tmpl: 0, status: "done", isDefault: true})
	want["undecided"] = shown{Mockup: f.served(f.file(c, p1, 1)), Artwork: artwork("undecided")}

	// Nothing made yet: one pending, one failed.
	c = f.campaign("waiting")
	p1, d1 = f.addProduct(c, "done")
	f.addMockups(c, p1, d1, mockup{tmpl: 0, status: "pending", isDefault: true}, mockup{tmpl: 2, status: "failed"})
	want["waiting"] = shown{Artwork: artwork("waiting"), Pending: true}

	// Print files being made, their mockups not queued yet.
	c = f.campaign("exporting")
	f.addProduct(c, "rendering")
	want["exporting"] = shown{Artwork: artwork("exporting"), Pending: true}

	// No mockups and no print files coming.
	c = f.campaign("bare")
	f.addProduct(c, "none")
	want["bare"] = shown{Artwork: artwork("bare")}

	// Another seller's campaign, with a mockup, is not listed.
	other := f.id(`INSERT INTO users (name, email, password_hash) VALUES ('Ola', 'ola@example.com', 'x') RETURNING id`)
	oc := f.id(`INSERT INTO campaigns (user_id, name) VALUES ($1, 'theirs') RETURNING id`, other)
	op, od := f.addProduct(oc, "done")
	f.addMockups(oc, op, od, mockup{tmpl: 0, status: "done", isDefault: true})

	items, total, err := newStore(f.db).list(context.Background(), f.ownerID, listFilter{}, "id", true, 15, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]shown{}
	for _, it := range items {
		got[it.Name] = shown{Mockup: it.MockupURL, Artwork: it.PreviewURL, Pending: it.MockupsPending}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("list (-want +got):\n%s", diff)
	}
	if total != len(want) {
		t.Errorf("total: got %d, want %d", total, len(want))
	}
}

// TestListPagesWithMockups checks that the page, its order and the filters are those of the
// campaigns themselves: the mockups looked up beside them neither add nor drop rows.
func TestListPagesWithMockups(t *testing.T) {
	f := newListFixture(t)
	for _, name := range []string{"Alpha tee", "Beta tee", "Gamma mug", "Delta tee"} {
		c := f.campaign(name)
		p, d := f.addProduct(c, "done")
		f.addMockups(c, p, d, mockup{tmpl: 0, status: "done", isDefault: true}, mockup{tmpl: 1, status: "done"}, mockup{tmpl: 2, status: "pending"})
	}
	st := newStore(f.db)
	for _, tc := range []struct {
		name          string
		text          string
		orderBy       string
		asc           bool
		limit, offset int
		want          []string
		wantTotal     int
	}{
		{name: "first page by name", orderBy: "name", asc: true, limit: 2, want: []string{"Alpha tee", "Beta tee"}, wantTotal: 4},
		{name: "second page by name", orderBy: "name", asc: true, limit: 2, offset: 2, want: []string{"Delta tee", "Gamma mug"}, wantTotal: 4},
		{name: "newest first", orderBy: "id", limit: 3, want: []string{"Delta tee", "Gamma mug", "Beta tee"}, wantTotal: 4},
		{name: "search", text: "tee", orderBy: "id", asc: true, limit: 15, want: []string{"Alpha tee", "Beta tee", "Delta tee"}, wantTotal: 3},
		// The count comes with the page's rows; a page past the end has none and still answers it.
		{name: "past the end", orderBy: "name", asc: true, limit: 2, offset: 10, wantTotal: 4},
		{name: "search, past the end", text: "mug", orderBy: "name", asc: true, limit: 2, offset: 2, wantTotal: 1},
		{name: "no match", text: "hoodie", orderBy: "name", asc: true, limit: 2, wantTotal: 0},
		// The same sort order again, now with its statement prepared.
		{name: "first page by name, again", orderBy: "name", asc: true, limit: 2, want: []string{"Alpha tee", "Beta tee"}, wantTotal: 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items, total, err := st.list(context.Background(), f.ownerID, listFilter{Q: tc.text}, tc.orderBy, tc.asc, tc.limit, tc.offset)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, it := range items {
				names = append(names, it.Name)
				if it.MockupURL == "" || !it.MockupsPending {
					t.Errorf("%s: mockup %q, pending %v; want its first mockup and pending", it.Name, it.MockupURL, it.MockupsPending)
				}
			}
			if diff := cmp.Diff(tc.want, names); diff != "" || total != tc.wantTotal {
				t.Errorf("names (-want +got):\n%s\ntotal %d, want %d", diff, total, tc.wantTotal)
			}
		})
	}
}
