package checkout

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/stock"
)

// setStock marks the shop's T-shirt template's Black in size out of (or back in) stock.
func setStock(t *testing.T, db *sqlx.DB, size string, in bool) {
	t.Helper()
	var tmpl, admin int64
	if err := db.QueryRow(`SELECT (SELECT id FROM product_templates WHERE name = 'T'), (SELECT min(id) FROM users)`).Scan(&tmpl, &admin); err != nil {
		t.Fatal(err)
	}
	if _, err := stock.Set(context.Background(), db, admin, []stock.Change{{TemplateID: tmpl, Color: "Black", Size: size, InStock: in}}); err != nil {
		t.Fatal(err)
	}
}

// TestAddOutOfStock: a colour and size out of stock cannot go into a cart; its neighbours can, and it
// can again once back in stock. The offer lists what is out.
func TestAddOutOfStock(t *testing.T) {
	s, db, storeID, product := newShop(t)
	ctx := context.Background()
	setStock(t, db, "M", false)
	offers, err := Offers(ctx, db, storeID, 0, product)
	if err != nil || len(offers) != 1 || !offers[0].OutOfStock.Has("Black", "M") || offers[0].OutOfStock.Has("Black", "L") {
		t.Fatalf("offer: %+v %v", offers, err)
	}
	cases := []struct {
		name  string
		size  string
		in    bool // the stock of M before adding
		field string
	}{
		{"out of stock", "M", false, "size"},
		{"another size", "L", false, ""},
		{"back in stock", "M", true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			setStock(t, db, "M", c.in)
			_, err := s.AddToCart(ctx, storeID, "", AddItem{ProductID: product, Color: "Black", Size: c.size, Quantity: 1})
			var inv *InvalidError
			switch {
			case c.field == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.field != "" && (!errors.As(err, &inv) || inv.Field(c.field) != "Black in size M is out of stock: choose another colour or size."):
				t.Fatalf("want a refusal on %s, got %v", c.field, err)
			}
		})
	}
}

// TestCheckoutOutOfStock: a line that went out of stock after it was added stops the checkout, and
// one that went out after the checkout was saved stops the payment before the gateway is asked. The
// refusal names the line; the cart keeps every line, and no payment or order is made.
func TestCheckoutOutOfStock(t *testing.T) {
	const want = "C — T in Black, size M, is out of stock: remove it from your cart to check out."
	cases := []struct {
		name      string
		saveFirst bool // the checkout is saved before the stock changes
	}{
		{"at checkout", false},
		{"at payment", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, db, storeID, product := newShop(t)
			ctx := context.Background()
			cart, err := s.AddToCart(ctx, storeID, "", AddItem{ProductID: product, Color: "Black", Size: "M", Quantity: 2})
			if err == nil {
				_, err = s.AddToCart(ctx, storeID, cart, AddItem{ProductID: product, Color: "Black", Size: "L", Quantity: 1})
			}
			if err != nil {
				t.Fatal(err)
			}
			var saved Checkout
			if c.saveFirst {
				if saved, err = s.Save(ctx, storeID, cart, input()); err != nil {
					t.Fatal(err)
				}
			}
			setStock(t, db, "M", false)
			if c.saveFirst {
				_, err = s.Pay(ctx, storeID, saved.ID)
			} else {
				_, err = s.Save(ctx, storeID, cart, input())
			}
			var inv *InvalidError
			if !errors.As(err, &inv) || inv.Field("cart") != want {
				t.Fatalf("want the line named, got %v", err)
			}
			got, err := s.Cart(ctx, storeID, cart, "USD")
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for _, l := range got.Lines {
				lines = append(lines, l.Size+map[bool]string{true: " out"}[l.OutOfStock])
			}
			if strings.Join(lines, ",") != "M out,L" || got.Count != 3 {
				t.Fatalf("cart after the refusal: %v (%d items)", lines, got.Count)
			}
			var payments, orders, checkouts int
			db.QueryRow(`SELECT (SELECT count(*) FROM payments), (SELECT count(*) FROM orders), (SELECT count(*) FROM checkouts)`).
				Scan(&payments, &orders, &checkouts)
			if want := map[bool]int{true: 1}[c.saveFirst]; payments != 0 || orders != 0 || checkouts != want {
				t.Fatalf("%d payments, %d orders, %d checkouts", payments, orders, checkouts)
			}
			// Taking the line out lets the buyer pay for the rest.
			if err := s.SetQuantity(ctx, storeID, cart, got.Lines[0].ID, 0); err != nil {
				t.Fatal(err)
			}
			k, err := s.Save(ctx, storeID, cart, input())
			if err != nil {
				t.Fatal(err)
			}
			if res, err := s.Pay(ctx, storeID, k.ID); err != nil || res.OrderID == 0 {
				t.Fatalf("pay the rest: %+v %v", res, err)
			}
		})
	}
}
