package seed

import (
	"context"
	"image/png"
	"testing"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// TestBulkTemplate seeds twice and finds one template campaign on the T-shirt, designed on front
// and back with the seller's ready artwork upload, whose recorded version is the stored file's.
func TestBulkTemplate(t *testing.T) {
	db, store := seededTwice(t)
	ctx := context.Background()
	var sellerID int64
	if err := db.Get(&sellerID, `SELECT id FROM users WHERE email = 'seller@example.com'`); err != nil {
		t.Fatal(err)
	}
	var campaigns []int64
	if err := db.Select(&campaigns, `SELECT id FROM campaigns WHERE user_id = $1 AND name = $2`, sellerID, BulkTemplateName); err != nil || len(campaigns) != 1 {
		t.Fatalf("template campaigns %v (%v), want one", campaigns, err)
	}
	var designs []struct {
		Product    string `db:"name"`
		PrintSpace string `db:"print_space"`
		Document   []byte `db:"design_json"`
	}
	const q = `SELECT p.name, d.print_space, d.design_json FROM campaign_designs d JOIN campaign_products p ON p.id = d.product_id
WHERE d.campaign_id = $1 ORDER BY d.print_space`
	if err := db.Select(&designs, q, campaigns[0]); err != nil {
		t.Fatal(err)
	}
	if len(designs) != 2 || designs[0].PrintSpace != "back" || designs[1].PrintSpace != "front" {
		t.Fatalf("designs = %+v, want back and front", designs)
	}
	key := BulkArtworkKey(sellerID)
	for _, d := range designs {
		doc, err := design.Parse(d.Document)
		if err != nil {
			t.Fatalf("%s design: %v", d.PrintSpace, err)
		}
		im, ok := doc.Objects[0].(*design.ImageObject)
		if d.Product != "T-shirt" || !ok || im.Src != key || im.Width != im.Height || doc.PrintSpace.Width != 4500 {
			t.Fatalf("%s design of %s: %s", d.PrintSpace, d.Product, d.Document)
		}
	}

	var up struct {
		Owner   int64  `db:"owner_id"`
		Status  string `db:"status"`
		Width   int    `db:"width"`
		Version string `db:"blob_version"`
	}
	if err := db.Get(&up, `SELECT owner_id, status, width, blob_version FROM uploads WHERE blob_key = $1`, key); err != nil {
		t.Fatal(err)
	}
	r, info, err := store.Get(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	img, err := png.Decode(r)
	if err != nil {
		t.Fatalf("artwork: %v", err)
	}
	if up.Owner != sellerID || up.Status != "ready" || up.Width != img.Bounds().Dx() || up.Version != tasks.BlobVersion(info) {
		t.Fatalf("upload = %+v, stored %v %s", up, img.Bounds(), tasks.BlobVersion(info))
	}
}
