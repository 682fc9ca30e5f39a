package seed

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// personalization is what a customer typed and uploaded for an order item.
type personalization struct {
	Texts  []customText  `json:"texts"`
	Images []customImage `json:"images"`
}

type customText struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

type customImage struct {
	Label string `json:"label"`
	Key   string `json:"key"`
}

// demoItem is one item of a demo design order: a product's print space of w x h print pixels, the
// artwork placed as a square of side px at (x, y) and the customer's text under it.
type demoItem struct {
	product, productType, space string
	w, h, printType             int
	side, x, y                  float64
	text                        string
}

type demoOrder struct {
	number, customer string
	items            []demoItem
}

// demoOrders are the demo seller's orders waiting for a designer: a personalised T-shirt
// (the artwork at 200 DPI: normal), a mug wrap (good), and an all-over-print shirt at three times the
// shirt's size, 13500x16200, whose artwork is stretched to 44 DPI (low) — the file that shows why the
// review screen draws tiles.
var demoOrders = []demoOrder{
	{number: "PR-1001", customer: "Jamie Rivera", items: []demoItem{
		{product: "T-shirt", productType: "tshirt", space: "front", w: 4500, h: 5400, side: 3000, x: 750, y: 600, text: "Jamie"},
		{product: "Mug wrap", productType: "mug", space: "wrap", w: 2700, h: 1050, side: 600, x: 150, y: 75, text: "Best Dad Ever"},
	}},
	{number: "PR-1002", customer: "Alex Chen", items: []demoItem{
		{product: "All-over-print shirt", productType: "aop_shirt", space: "front", w: 13500, h: 16200, printType: 3,
			side: 13500, x: 0, y: 1350, text: "Alex"},
	}},
	{number: "PR-1003", customer: "Morgan Lee", items: []demoItem{
		{product: "Hoodie", productType: "hoodie", space: "front", w: 4500, h: 5400, side: 2250, x: 1125, y: 700, text: "Morgan 2026"},
	}},
}

// seedOrders gives the demo seller its design orders once: every item starts designing at revision 1,
// and its print file is rendered from the design document by the renderer (render:order-export, then
// render:tiles), queued through the outbox here. Rendering the 13500 px file in the seed would hold
// `bff seed` for a minute; the renderer does it as soon as it runs. The artwork is the bulk template's
// (seedBulkTemplate stores it first).
func seedOrders(ctx context.Context, tx *sqlx.Tx) error {
	var sellerID int64
	if err := tx.GetContext(ctx, &sellerID, `SELECT id FROM users WHERE lower(email) = 'seller@example.com'`); err != nil {
		return fmt.Errorf("seed orders: find the demo seller: %w", err)
	}
	artwork := BulkArtworkKey(sellerID)
	for _, o := range demoOrders {
		var orderID int64
		const insOrder = `INSERT INTO design_orders (seller_id, number, customer_name) VALUES ($1, $2, $3)
ON CONFLICT (seller_id, number) DO NOTHING RETURNING id`
		rows, err := tx.QueryxContext(ctx, insOrder, sellerID, o.number, o.customer)
		if err != nil {
			return fmt.Errorf("seed order %s: %w", o.number, err)
		}
		inserted := rows.Next()
		if inserted {
			err = rows.Scan(&orderID)
		}
		rows.Close()
		if err != nil {
			return fmt.Errorf("seed order %s: %w", o.number, err)
		}
		if !inserted {
			continue // seeded before: kept as the designers left it
		}
		for _, it := range o.items {
			if err := seedOrderItem(ctx, tx, orderID, it, artwork); err != nil {
				return fmt.Errorf("seed order %s %s: %w", o.number, it.product, err)
			}
		}
	}
	return nil
}

// seedOrderItem stores one item and queues the rendering of its print file.
func seedOrderItem(ctx context.Context, tx *sqlx.Tx, orderID int64, it demoItem, artwork string) error {
	ps := design.PrintSpace{Name: it.space, Width: it.w, Height: it.h, DPI: 300, MinDPI: 150, PrintType: it.printType}
	doc := design.Document{Version: design.Version, PrintSpace: ps, Objects: []design.Object{
		&design.ImageObject{ID: "artwork", Src: artwork, X: it.x, Y: it.y, Width: it.side, Height: it.side},
		&design.TextObject{ID: "name", Text: it.text, FontFamily: design.DefaultFontFamily, FontSize: float64(it.h) / 14,
			Fill: "#1f2a44", X: float64(it.w) / 10, Y: it.y + it.side + float64(it.h)/40, Width: float64(it.w) * 8 / 10,
			TextWidth: design.TextWidthLimited, TextAlign: design.AlignCenter, MaxLength: 16,
			ConvertText: design.ConvertUppercase, DisplayStyle: design.DisplayColor, IsCustom: true},
	}}
	docJSON, err := json.Marshal(&doc)
	if err != nil {
		return err
	}
	if _, err := design.Parse(docJSON); err != nil {
		return fmt.Errorf("demo design: %w", err)
	}
	space, err := json.Marshal(ps)
	if err != nil {
		return err
	}
	custom, err := json.Marshal(personalization{
		Texts:  []customText{{Label: "Name", Value: it.text}},
		Images: []customImage{{Label: "Artwork", Key: artwork}},
	})
	if err != nil {
		return err
	}
	var itemID int64
	const insItem = `INSERT INTO design_order_items (order_id, product_name, product_type, print_space, personalization, design_json)
VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`
	if err := tx.GetContext(ctx, &itemID, insItem, orderID, it.product, it.productType, space, custom, docJSON); err != nil {
		return err
	}
	job, err := tasks.NewOrderExportJob(itemID, 1, queue.Default)
	if err != nil {
		return err
	}
	_, err = outbox.Add(ctx, tx, job)
	return err
}
