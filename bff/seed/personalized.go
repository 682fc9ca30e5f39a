package seed

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	imagecolor "image/color"
	"image/png"
	"math"
	"strconv"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// PersonalizedMugName is the demo seller's personalized campaign: a mug wrap whose buyer types a
// name, picks a symbol and may add a photo (docs/personalization.md).
const PersonalizedMugName = "Name mug — personalized"

// symbolSize is the side of the demo symbols (cliparts a buyer picks from).
const symbolSize = 600

// demoSymbol is a picture the buyer of the name mug may choose.
type demoSymbol struct {
	name string
	// inside says whether the point (x, y), from -1 to 1 on both axes, is in the shape.
	inside func(x, y float64) bool
	fill   imagecolor.NRGBA
}

var demoSymbols = []demoSymbol{
	{name: "Heart", fill: imagecolor.NRGBA{R: 216, G: 46, B: 139, A: 255}, inside: func(x, y float64) bool {
		// The classic heart curve, y pointing down: (x² + y² - 1)³ - x² y³ <= 0, flipped and scaled.
		x, y = x*1.25, -y*1.25+0.25
		a := x*x + y*y - 1
		return a*a*a-x*x*y*y*y <= 0
	}},
	{name: "Star", fill: imagecolor.NRGBA{R: 240, G: 176, B: 32, A: 255}, inside: func(x, y float64) bool {
		return inPolygon(starPoints, x, y)
	}},
}

// starPoints are the ten corners of a five-pointed star, the first at the top.
var starPoints = func() [][2]float64 {
	var pts [][2]float64
	for i := range 10 {
		r := 0.95
		if i%2 == 1 {
			r = 0.4
		}
		a := float64(i) * math.Pi / 5
		pts = append(pts, [2]float64{r * math.Sin(a), -r * math.Cos(a)})
	}
	return pts
}()

// inPolygon says whether (x, y) is inside the polygon pts (the even-odd rule).
func inPolygon(pts [][2]float64, x, y float64) bool {
	in := false
	for i, j := 0, len(pts)-1; i < len(pts); j, i = i, i+1 {
		a, b := pts[i], pts[j]
		if (a[1] > y) != (b[1] > y) && x < (b[0]-a[0])*(y-a[1])/(b[1]-a[1])+a[0] {
			in = !in
		}
	}
	return in
}

// drawSymbol draws a symbol on a transparent square, as a paletted PNG.
func drawSymbol(s demoSymbol) ([]byte, error) {
	img := image.NewPaletted(image.Rect(0, 0, symbolSize, symbolSize), imagecolor.Palette{imagecolor.NRGBA{}, s.fill})
	for py := range symbolSize {
		y := (float64(py)+0.5)/symbolSize*2 - 1
		for px := range symbolSize {
			if s.inside((float64(px)+0.5)/symbolSize*2-1, y) {
				img.Pix[img.PixOffset(px, py)] = 1
			}
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// symbolKey is the blob key of a demo symbol, an upload of the seller.
func symbolKey(sellerID int64, name string) string {
	return "u/" + strconv.FormatInt(sellerID, 10) + "/demo/symbol-" + name + ".png"
}

// seedPersonalizedMug gives the demo seller the name mug: its symbols stored and recorded as the
// seller's ready uploads, then the campaign made once with the mug wrap and a design whose every
// object the buyer fills (a required name of letters, a symbol from a list, an optional photo over
// the demo artwork). A campaign of that name already there is kept as the seller left it.
func seedPersonalizedMug(ctx context.Context, tx *sqlx.Tx, store blob.Store) error {
	var sellerID int64
	if err := tx.GetContext(ctx, &sellerID, `SELECT id FROM users WHERE lower(email) = 'seller@example.com'`); err != nil {
		return fmt.Errorf("seed name mug: find the demo seller: %w", err)
	}
	const upload = `
INSERT INTO uploads (owner_id, blob_key, file_name, kind, status, content_type, width, height, byte_size, stripped, blob_version)
VALUES ($1, $2, $3, 'design', 'ready', 'image/png', $4, $4, $5, true, $6)
ON CONFLICT (blob_key) DO UPDATE SET status = 'ready', width = EXCLUDED.width, height = EXCLUDED.height,
	byte_size = EXCLUDED.byte_size, blob_version = EXCLUDED.blob_version, updated_at = now()`
	var options []design.Choice
	for _, s := range demoSymbols {
		key := symbolKey(sellerID, s.name)
		png, err := drawSymbol(s)
		if err != nil {
			return fmt.Errorf("seed name mug: draw %s: %w", s.name, err)
		}
		if err := store.Put(ctx, key, bytes.NewReader(png), int64(len(png)), "image/png"); err != nil {
			return fmt.Errorf("seed name mug: store %s: %w", key, err)
		}
		info, err := store.Stat(ctx, key)
		if err != nil {
			return fmt.Errorf("seed name mug: stat %s: %w", key, err)
		}
		if _, err := tx.ExecContext(ctx, upload, sellerID, key, s.name+".png", symbolSize, info.Size, tasks.BlobVersion(info)); err != nil {
			return fmt.Errorf("seed name mug: record %s: %w", key, err)
		}
		options = append(options, design.Choice{Label: s.name, Src: key, Width: symbolSize, Height: symbolSize})
	}

	var campaignID int64
	err := tx.GetContext(ctx, &campaignID, `SELECT id FROM campaigns WHERE user_id = $1 AND name = $2 ORDER BY id LIMIT 1`, sellerID, PersonalizedMugName)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("seed name mug: %w", err)
	}
	if err := tx.GetContext(ctx, &campaignID, `INSERT INTO campaigns (user_id, name, personalized) VALUES ($1, $2, true) RETURNING id`,
		sellerID, PersonalizedMugName); err != nil {
		return fmt.Errorf("seed name mug: create the campaign: %w", err)
	}
	productID, spaces, err := addTemplateProduct(ctx, tx, campaignID, "Mug wrap", true)
	if err != nil {
		return fmt.Errorf("seed name mug: %w", err)
	}
	doc, err := nameMugDesign(spaces[0], options, BulkArtworkKey(sellerID))
	if err != nil {
		return fmt.Errorf("seed name mug: design: %w", err)
	}
	const insDesign = `INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json, option, export_status)
VALUES ($1, $2, $3, $4::jsonb, 'custom', 'none')`
	if _, err := tx.ExecContext(ctx, insDesign, campaignID, productID, spaces[0].Name, string(doc)); err != nil {
		return fmt.Errorf("seed name mug: store the design: %w", err)
	}
	return nil
}

// nameMugDesign is the name mug's design of the wrap s: the buyer's photo on the left (the demo
// artwork until they add one), their symbol in the middle and their name across the bottom.
func nameMugDesign(s printSpace, symbols []design.Choice, photoKey string) ([]byte, error) {
	w, h := float64(s.Width), float64(s.Height)
	doc := design.Document{
		Version: design.Version,
		PrintSpace: design.PrintSpace{Name: s.Name, Width: s.Width, Height: s.Height, DPI: float64(s.DPI),
			MinDPI: float64(s.MinDPI), PrintType: s.PrintType},
		Objects: []design.Object{
			&design.ImageObject{ID: "photo", Src: photoKey, X: w * 0.06, Y: h * 0.08, Width: h * 0.6, Height: h * 0.6,
				IsCustom: true, Input: &design.Input{Kind: design.InputImage, Label: "Your photo"}},
			&design.ImageObject{ID: "symbol", Src: symbols[0].Src, X: w*0.5 - h*0.25, Y: h * 0.08, Width: h * 0.5, Height: h * 0.5,
				IsCustom: true, Input: &design.Input{Kind: design.InputDropdown, Label: "Symbol", Options: symbols}},
			&design.TextObject{ID: "name", Text: "Sam", FontFamily: design.DefaultFontFamily, FontSize: h * 0.2, Fill: "#1f2a44",
				X: w * 0.05, Y: h * 0.72, Width: w * 0.9, TextWidth: design.TextWidthLimited, TextAlign: design.AlignCenter,
				MaxLength: 12, ConvertText: design.ConvertUppercase, DisplayStyle: design.DisplayColor, IsCustom: true,
				Input: &design.Input{Kind: design.InputText, Label: "Name on the mug", Required: true, Charset: design.CharsetLetters}},
		},
	}
	b, err := json.Marshal(&doc)
	if err != nil {
		return nil, err
	}
	// The document must be one the editor and the renderer accept.
	if _, err := design.Parse(b); err != nil {
		return nil, err
	}
	return b, nil
}
