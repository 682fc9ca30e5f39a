package bulk

import (
	"encoding/json"
	"testing"

	"github.com/pressroom/pressroom/worker/tasks"
)

// importRecord adds a queued imported row of the seller at attempt 1: named name, made of product
// templates or of template campaign (0: none), sold in store (0: not sold) at price.
func (f *fixture) importRecord(t *testing.T, name string, templateIDs []int64, template, store int64, price *tasks.ImportPrice, designs string) int64 {
	t.Helper()
	var p []byte
	if price != nil {
		var err error
		if p, err = json.Marshal(price); err != nil {
			t.Fatal(err)
		}
	}
	var id int64
	const q = `INSERT INTO bulk_records (user_id, type, status, attempts, import_line, import_key, name, template_ids,
	template_campaign_id, store_id, price, designs)
VALUES ($1, 'campaign_import', 'queued', 1, 2, $2, $3, $4, nullif($5, 0), nullif($6, 0), $7, $8) RETURNING id`
	ids := "{}"
	if len(templateIDs) > 0 {
		b, _ := json.Marshal(templateIDs)
		ids = "{" + string(b[1:len(b)-1]) + "}"
	}
	if err := f.db.Get(&id, q, f.sellerID, name, name, ids, template, store, p, designs); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestImportedRows: an imported row's campaign takes the row's name, is made of product templates
// (the artwork on each one's main print space) or of a template campaign, and is put on sale in
// the row's store at its price in the same transaction; a price that would lose money fails the
// row and makes nothing.
func TestImportedRows(t *testing.T) {
	f := newFixture(t)
	f.upload(t, f.sellerID, "u/1/imported.png", "imported.png", "ready", 900, 1080)
	var tee, store int64
	if err := f.db.Get(&tee, `UPDATE product_templates SET base_cost = 8.50 WHERE name = 'T-shirt' RETURNING id`); err != nil {
		t.Fatal(err)
	}
	if err := f.db.Get(&store, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'S', 's.example', 'shop') RETURNING id`, f.sellerID); err != nil {
		t.Fatal(err)
	}
	art := `[{"new_url": "/api/files/u/1/imported.png"}]`

	id := f.importRecord(t, "Imported tee", []int64{tee}, 0, store, &tasks.ImportPrice{Mode: "adjust_price", Margin: 1149}, art)
	if err := f.run(t, id); err != nil {
		t.Fatal(err)
	}
	got := f.row(t, id)
	if got.Status != tasks.BulkProcessing || got.CampaignID == nil {
		t.Fatalf("record %+v", got)
	}
	var camp struct {
		Name   string `db:"name"`
		Status string `db:"status"`
		Slug   string `db:"slug"`
	}
	if err := f.db.Get(&camp, `SELECT name, status, slug FROM campaigns WHERE id = $1`, *got.CampaignID); err != nil {
		t.Fatal(err)
	}
	if camp != (struct {
		Name   string `db:"name"`
		Status string `db:"status"`
		Slug   string `db:"slug"`
	}{"Imported tee", "active", "imported-tee"}) {
		t.Errorf("campaign %+v", camp)
	}
	ds := f.designs(t, *got.CampaignID)
	if len(ds) != 1 || ds[0].PrintSpace != "front" {
		t.Fatalf("designs %+v, want the artwork on the main print space", ds)
	}
	if src, box := firstImage(t, ds[0].Document); src != "u/1/imported.png" || box != [4]float64{0, 0, 900, 1080} {
		t.Errorf("artwork %s at %v", src, box)
	}
	var sale struct {
		Price  int64  `db:"price"`
		Mode   string `db:"price_mode"`
		Status string `db:"status"`
	}
	if err := f.db.Get(&sale, `SELECT price, price_mode, status FROM store_products WHERE store_id = $1`, store); err != nil {
		t.Fatal(err)
	}
	if sale.Price != 1999 || sale.Mode != "adjust_price" || sale.Status != "active" {
		t.Errorf("on sale %+v", sale)
	}

	// Of the template campaign, not sold.
	id = f.importRecord(t, "From the template", nil, f.templateID, 0, nil, `[{"new_url": "u/1/imported.png", "print_space": "back"}]`)
	if err := f.run(t, id); err != nil {
		t.Fatal(err)
	}
	got = f.row(t, id)
	var name string
	if got.CampaignID == nil || f.db.Get(&name, `SELECT name FROM campaigns WHERE id = $1`, *got.CampaignID) != nil || name != "From the template" {
		t.Fatalf("record %+v, campaign %q", got, name)
	}
	if n := len(f.designs(t, *got.CampaignID)); n != 2 {
		t.Errorf("%d designs, want the template's front and the new back", n)
	}

	// At a price under the cost: the record fails with pricing's reason, and nothing is made.
	var before int
	f.db.Get(&before, `SELECT count(*) FROM campaigns`)
	id = f.importRecord(t, "Too cheap", []int64{tee}, 0, store, &tasks.ImportPrice{Mode: "fixed_price", Price: 800}, art)
	if err := f.run(t, id); err != nil {
		t.Fatal(err)
	}
	got = f.row(t, id)
	const want = "Size S at $8.00 earns less than nothing: it costs $8.50 to make and $0.50 in fees."
	if got.Status != tasks.BulkFailed || got.Message != want || got.CampaignID != nil {
		t.Errorf("record %+v, want failed with %q", got, want)
	}
	var after int
	f.db.Get(&after, `SELECT count(*) FROM campaigns`)
	if after != before {
		t.Errorf("%d campaigns after a refused row, %d before", after, before)
	}

	// A product template gone from the catalogue since the import.
	id = f.importRecord(t, "Gone", []int64{1 << 40}, 0, 0, nil, art)
	if err := f.run(t, id); err != nil {
		t.Fatal(err)
	}
	if got := f.row(t, id); got.Status != tasks.BulkFailed || got.Message != MsgProductGone {
		t.Errorf("record %+v", got)
	}
}
