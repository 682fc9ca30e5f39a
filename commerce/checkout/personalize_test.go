package checkout

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/renderer/design"
)

// personalizedShop is newShop whose T-shirt's front is the design of
// schema/testdata/twins/personalize.json ("main": a required name of letters, a year from a list, an
// optional photo and a required symbol from two pictures).
func personalizedShop(t *testing.T) (*Service, *sqlx.DB, int64, int64) {
	t.Helper()
	s, db, storeID, product := newShop(t)
	raw, err := os.ReadFile("../../schema/testdata/twins/personalize.json")
	if err != nil {
		t.Fatal(err)
	}
	var tab struct {
		Documents map[string]json.RawMessage `json:"documents"`
	}
	if err := json.Unmarshal(raw, &tab); err != nil {
		t.Fatal(err)
	}
	db.MustExec(`INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json, option)
		SELECT campaign_id, id, 'front', $2, 'custom' FROM campaign_products WHERE id = $1`, product, string(tab.Documents["main"]))
	return s, db, storeID, product
}

func choice(i int) *int { return &i }

// answers of the main document: a name, a year and a symbol, and a photo when photo is not 0.
func answers(name string, year, symbol int, photo int64) []Answer {
	a := []Answer{
		{PrintSpace: "front", ObjectID: "name", Text: name},
		{PrintSpace: "front", ObjectID: "year", Choice: choice(year)},
		{PrintSpace: "front", ObjectID: "symbol", Choice: choice(symbol)},
	}
	if photo != 0 {
		a = append(a, Answer{PrintSpace: "front", ObjectID: "photo", PhotoID: photo})
	}
	return a
}

// photo records a buyer's photo of storeID as the renderer's check leaves it: status, size, message.
func photo(t *testing.T, db *sqlx.DB, storeID int64, status string, w, h int, message string) int64 {
	t.Helper()
	id, err := RecordPhoto(context.Background(), db, PhotoKeyPrefix(storeID)+"2026-11/p.jpg", "p.jpg")
	if err != nil {
		t.Fatal(err)
	}
	db.MustExec(`UPDATE uploads SET status = $2, width = $3, height = $4, message = $5, blob_key = blob_key || id WHERE id = $1`,
		id, status, w, h, message)
	return id
}

func TestAddPersonalized(t *testing.T) {
	s, db, storeID, product := personalizedShop(t)
	ctx := context.Background()
	ready := photo(t, db, storeID, "ready", 1600, 900, "")
	small := photo(t, db, storeID, "ready", 100, 75, "")
	pending := photo(t, db, storeID, "pending", 0, 0, "")
	refused := photo(t, db, storeID, "rejected", 0, 0, "The image is damaged or incomplete.")
	var otherStore int64
	if err := db.Get(&otherStore, `INSERT INTO stores (owner_id, name, domain, slug) SELECT owner_id, 'O', 'o.example', 'other' FROM stores WHERE id = $1 RETURNING id`, storeID); err != nil {
		t.Fatal(err)
	}
	foreign := photo(t, db, otherStore, "ready", 1600, 900, "")
	field := func(id string) string { return PersonalizationField("front", id) }

	refusals := []struct {
		name    string
		answers []Answer
		want    map[string]string
	}{
		{"nothing given", nil, map[string]string{field("name"): design.MsgRequired, field("year"): design.MsgChoose, field("symbol"): design.MsgChoose}},
		{"digits in the name", answers("Anna 2", 0, 0, 0), map[string]string{field("name"): design.MsgLetters}},
		{"a name too long", answers("Alexandra", 0, 0, 0), map[string]string{field("name"): "Use at most 8 characters."}},
		{"a year not offered", answers("Anna", 5, 0, 0), map[string]string{field("year"): design.MsgChoose}},
		{"a photo still being checked", answers("Anna", 0, 0, pending), map[string]string{field("photo"): MsgPhotoWait}},
		{"a photo the check refused", answers("Anna", 0, 0, refused), map[string]string{field("photo"): "This photo cannot be used: The image is damaged or incomplete."}},
		{"another store's photo", answers("Anna", 0, 0, foreign), map[string]string{field("photo"): MsgPhotoGone}},
		{"an object the design does not have", append(answers("Anna", 0, 0, 0), Answer{PrintSpace: "front", ObjectID: "art", Text: "x"}),
			map[string]string{field("art"): MsgNoSuchField}},
		{"a print space the product does not have", append(answers("Anna", 0, 0, 0), Answer{PrintSpace: "back", ObjectID: "name", Text: "x"}),
			map[string]string{PersonalizationField("back", "name"): MsgNoSuchField}},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.AddToCart(ctx, storeID, "", AddItem{ProductID: product, Color: "Black", Size: "M", Quantity: 1, Personalization: tc.answers})
			var inv *InvalidError
			if !errors.As(err, &inv) {
				t.Fatalf("AddToCart = %v, want the fields refused", err)
			}
			got := map[string]string{}
			for _, f := range inv.Errors {
				got[f.Field] = f.Message
			}
			if len(got) != len(tc.want) {
				t.Errorf("refused %v, want %v", got, tc.want)
			}
			for f, msg := range tc.want {
				if got[f] != msg {
					t.Errorf("%s: %q, want %q", f, got[f], msg)
				}
			}
		})
	}
	var lines int
	if err := db.Get(&lines, `SELECT count(*) FROM cart_items`); err != nil || lines != 0 {
		t.Fatalf("refused adds left %d cart lines (%v)", lines, err)
	}

	// Two of one personalization are one line; another personalization is another line.
	cart, err := s.AddToCart(ctx, storeID, "", AddItem{ProductID: product, Color: "Black", Size: "M", Quantity: 1, Personalization: answers("Zoë", 1, 1, ready)})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range []AddItem{
		{ProductID: product, Color: "Black", Size: "M", Quantity: 1, Personalization: answers("Zoë", 1, 1, ready)},
		{ProductID: product, Color: "Black", Size: "M", Quantity: 1, Personalization: answers("Bo", 0, 0, small)},
	} {
		if _, err := s.AddToCart(ctx, storeID, cart, it); err != nil {
			t.Fatal(err)
		}
	}
	c, err := s.Cart(ctx, storeID, cart, "USD")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Lines) != 2 || c.Lines[0].Quantity != 2 || c.Lines[1].Quantity != 1 {
		t.Fatalf("lines %+v, want Zoë twice and Bo once", c.Lines)
	}
	zoe := c.Lines[0].Personalization
	if len(zoe.Texts) != 2 || zoe.Texts[0].Value != "Zoë" || zoe.Texts[1].Value != "2026" || len(zoe.Images) != 2 ||
		zoe.Images[0].Width != 1600 || zoe.Images[1].Choice != "Star" || zoe.Images[1].Key != "u/1/star.png" {
		t.Errorf("Zoë's line keeps %+v", zoe)
	}
	if len(c.Lines[0].Warnings) != 0 {
		t.Errorf("a 1600 px photo is warned of: %v", c.Lines[0].Warnings)
	}
	if w := c.Lines[1].Warnings; len(w) != 1 || !strings.Contains(w[0], "Your photo: This photo is 100 × 75 px: here it would print at 75 DPI") {
		t.Errorf("Bo's 100 px photo: warnings %q", w)
	}
}

// TestPersonalizedOrderPrintsTheBuyersValues pays for a personalized line: the order item keeps the
// personalization, goes to review, and the document its print file is rendered from has the buyer's
// name, year, symbol and photo in place.
func TestPersonalizedOrderPrintsTheBuyersValues(t *testing.T) {
	s, db, storeID, product := personalizedShop(t)
	ctx := context.Background()
	ready := photo(t, db, storeID, "ready", 1600, 900, "")
	cart, err := s.AddToCart(ctx, storeID, "", AddItem{ProductID: product, Color: "Black", Size: "M", Quantity: 1, Personalization: answers("Zoë", 1, 1, ready)})
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.Save(ctx, storeID, cart, input())
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Pay(ctx, storeID, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	var item struct {
		Personalization []byte `db:"personalization"`
		Status          string `db:"status"`
	}
	if err := db.Get(&item, `SELECT i.personalization, o.status FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.id = $1`, res.OrderID); err != nil {
		t.Fatal(err)
	}
	var p design.Personalization
	if err := json.Unmarshal(item.Personalization, &p); err != nil || len(p.Texts) != 2 || p.Texts[0].Value != "Zoë" {
		t.Fatalf("order item personalization %s (%v)", item.Personalization, err)
	}
	if item.Status != "reviewing" {
		t.Errorf("a personalized order is %q, want reviewing", item.Status)
	}
	var printed []byte
	if err := db.Get(&printed, `SELECT d.design_json FROM design_order_items d JOIN order_items i ON i.id = d.order_item_id WHERE i.order_id = $1`, res.OrderID); err != nil {
		t.Fatal(err)
	}
	doc, err := design.Parse(printed)
	if err != nil {
		t.Fatalf("the printed document: %v", err)
	}
	got := map[string]string{}
	for _, o := range doc.Objects {
		switch o := o.(type) {
		case *design.TextObject:
			got[o.ID] = o.Text
		case *design.ImageObject:
			got[o.ID] = o.Src
		}
	}
	want := map[string]string{"art": "u/1/frame.png", "name": "Zoë", "year": "2026", "symbol": "u/1/star.png"}
	for id, v := range want {
		if got[id] != v {
			t.Errorf("%s prints %q, want %q", id, got[id], v)
		}
	}
	if !strings.HasPrefix(got["photo"], PhotoKeyPrefix(storeID)) {
		t.Errorf("the photo prints %q, want the buyer's photo", got["photo"])
	}
}
