package seed

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// printSpace is one print space of a template as the print_spaces JSON holds it.
type printSpace struct {
	Name         string `json:"name"`
	Width        int    `json:"width"`
	Height       int    `json:"height"`
	DisplayWidth int    `json:"displayWidth"`
	PrintType    int    `json:"printType"`
	IsMain       bool   `json:"isMain"`
	ViewWidth    int    `json:"viewWidth"`
	ViewHeight   int    `json:"viewHeight"`
	DPI          int    `json:"DPI"`
	MinDPI       int    `json:"minDPI"`
}

// space is a print space of w x h print pixels shown 500 wide, at the default 300 DPI (150 minimum).
func space(name string, w, h, printType int, main bool) printSpace {
	return printSpace{Name: name, Width: w, Height: h, DisplayWidth: 500, PrintType: printType, IsMain: main,
		ViewWidth: 500, ViewHeight: (500*h + w/2) / w, DPI: 300, MinDPI: 150}
}

type color struct {
	Name string `json:"name"`
	Hex  string `json:"hex"`
}

type demoTemplate struct {
	name, productType string
	spaces            []printSpace
	fullPrinted       int
	colors            []color
	baseCost, extra   string
}

var (
	shirtColors  = []color{{"White", "#ffffff"}, {"Black", "#111111"}, {"Navy", "#1f2a44"}, {"Heather Grey", "#9ea3a8"}}
	hoodieColors = []color{{"Black", "#111111"}, {"Navy", "#1f2a44"}, {"Sport Grey", "#b5b8bb"}}
	plainWhite   = []color{{"White", "#ffffff"}}
)

// demoTemplates is the demo catalogue: a T-shirt and a hoodie printed front and back, a
// mug wrap, a poster and an all-over-print shirt (full 3D print type).
var demoTemplates = []demoTemplate{
	{name: "T-shirt", productType: "tshirt", colors: shirtColors, baseCost: "8.50", extra: "4.00",
		spaces: []printSpace{space("front", 4500, 5400, 0, true), space("back", 4500, 5400, 0, false)}},
	{name: "Hoodie", productType: "hoodie", colors: hoodieColors, baseCost: "18.00", extra: "5.50",
		spaces: []printSpace{space("front", 4500, 5400, 0, true), space("back", 4500, 5400, 0, false)}},
	{name: "Mug wrap", productType: "mug", colors: plainWhite, baseCost: "5.50", extra: "0.00",
		spaces: []printSpace{space("wrap", 2700, 1050, 0, true)}},
	{name: "Poster", productType: "poster", colors: plainWhite, baseCost: "7.00", extra: "0.00",
		spaces: []printSpace{space("front", 5400, 7200, 0, true)}},
	{name: "All-over-print shirt", productType: "aop_shirt", fullPrinted: 2, colors: plainWhite, baseCost: "16.00", extra: "3.00",
		spaces: []printSpace{space("front", 4500, 5400, 2, true), space("back", 4500, 5400, 2, true)}},
}

// seedCatalog writes the demo product templates; a template already there (by name) is kept as it is.
func seedCatalog(ctx context.Context, tx *sqlx.Tx) error {
	const q = `
INSERT INTO product_templates (name, product_type, print_spaces, full_printed, options, default_option, mockup_type,
	base_cost, extra_print_cost, position)
VALUES ($1, $2, $3, $4, $5, $6, $2, $7, $8, $9)
ON CONFLICT (name) DO NOTHING`
	for i, t := range demoTemplates {
		spaces, err := json.Marshal(t.spaces)
		if err != nil {
			return err
		}
		options, err := json.Marshal(map[string][]color{"colors": t.colors})
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, q, t.name, t.productType, string(spaces), t.fullPrinted, string(options),
			t.colors[0].Name, t.baseCost, t.extra, i+1); err != nil {
			return fmt.Errorf("seed template %s: %w", t.name, err)
		}
	}
	return nil
}
