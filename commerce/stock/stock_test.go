package stock

import (
	"context"
	"errors"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/testinfra"
)

// catalogueDB makes a catalogue of one T-shirt template in Black and White, a campaign product of it
// in Black only, and an admin; it answers the template, the product and the admin.
func catalogueDB(t *testing.T) (*sqlx.DB, int64, int64, int64) {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	var admin, tmpl, product int64
	err := db.Get(&admin, `INSERT INTO users (name, email, password_hash) VALUES ('Ada Admin', 'a@example.com', 'x') RETURNING id`)
	if err == nil {
		err = db.Get(&tmpl, `INSERT INTO product_templates (name, product_type, print_spaces, options)
VALUES ('Tee', 'tshirt', '[]', '{"colors":[{"name":"Black","hex":"#000000"},{"name":"White","hex":"#ffffff"}]}') RETURNING id`)
	}
	if err == nil {
		err = db.Get(&product, `WITH c AS (INSERT INTO campaigns (user_id, name) VALUES ($1, 'C') RETURNING id)
INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, options)
SELECT c.id, $2, 'Tee', 'tshirt', '[]', '{"colors":[{"name":"Black","hex":"#000000"}]}' FROM c RETURNING id`, admin, tmpl)
	}
	if err != nil {
		t.Fatal(err)
	}
	return db, tmpl, product, admin
}

// TestSet: bad changes are refused with their index and field and change nothing; good ones change
// the status, once, with a history entry for each change that did something.
func TestSet(t *testing.T) {
	db, tmpl, product, admin := catalogueDB(t)
	ctx := context.Background()
	bad := []struct {
		name    string
		changes []Change
		index   int
		field   string
		msg     string
	}{
		{"nothing", nil, 0, "changes", MsgNoChanges},
		{"too many", make([]Change, MaxChanges+1), 0, "changes", MsgTooMany},
		{"unknown template", []Change{{TemplateID: tmpl, Color: "Black", Size: "M"}, {TemplateID: tmpl + 99, Color: "Black", Size: "M"}}, 1, "template_id", MsgTemplate},
		{"unknown colour", []Change{{TemplateID: tmpl, Color: "Red", Size: "M"}}, 0, "color", MsgColor},
		{"size of another type", []Change{{TemplateID: tmpl, Color: "Black", Size: "11oz"}}, 0, "size", MsgSize},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			_, err := Set(ctx, db, admin, b.changes)
			var ce *ChangeError
			if !errors.As(err, &ce) || ce.Index != b.index || ce.Field != b.field || ce.Message != b.msg {
				t.Fatalf("got %v", err)
			}
		})
	}
	var rows int
	db.Get(&rows, `SELECT (SELECT count(*) FROM out_of_stock_variants) + (SELECT count(*) FROM stock_status_changes)`)
	if rows != 0 {
		t.Fatalf("refused changes stored %d rows", rows)
	}

	steps := []struct {
		name    string
		changes []Change
		changed int
		out     []Option // of the product (Black only) afterwards
		grid    int      // rows out of stock in the grid
	}{
		{"bulk out", []Change{{TemplateID: tmpl, Color: "Black", Size: "M"}, {TemplateID: tmpl, Color: "Black", Size: "L"},
			{TemplateID: tmpl, Color: "White", Size: "M"}}, 3, []Option{{"Black", "L"}, {"Black", "M"}}, 3},
		{"again changes nothing", []Change{{TemplateID: tmpl, Color: "Black", Size: "M"}}, 0, []Option{{"Black", "L"}, {"Black", "M"}}, 3},
		{"back in", []Change{{TemplateID: tmpl, Color: "Black", Size: "L", InStock: true}, {TemplateID: tmpl, Color: "Black", Size: "S", InStock: true}},
			1, []Option{{"Black", "M"}}, 2},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			n, err := Set(ctx, db, admin, s.changes)
			if err != nil || n != s.changed {
				t.Fatalf("changed %d, %v", n, err)
			}
			got, err := Unavailable(ctx, db, []int64{product, product + 99})
			if err != nil || len(got) != 1 || len(got[product]) != len(s.out) {
				t.Fatalf("unavailable %v %v", got, err)
			}
			for i, o := range s.out {
				if got[product][i] != o {
					t.Fatalf("unavailable %v, want %v", got[product], s.out)
				}
			}
			out, err := Grid(ctx, db, Filter{TemplateID: tmpl, OutOnly: true})
			if err != nil || len(out) != s.grid {
				t.Fatalf("grid %v %v", out, err)
			}
		})
	}
	all, err := Grid(ctx, db, Filter{})
	if err != nil || len(all) != 2*5 || all[0].Color != "Black" || all[0].Size != "S" || !all[0].InStock || all[1].InStock || all[1].Since == nil {
		t.Fatalf("grid %+v %v", all, err)
	}
	h, err := History(ctx, db, 10)
	if err != nil || len(h) != 4 || !h[0].InStock || h[0].Size != "L" || h[0].ChangedBy != "Ada Admin" || h[0].TemplateName != "Tee" {
		t.Fatalf("history %+v %v", h, err)
	}
}
