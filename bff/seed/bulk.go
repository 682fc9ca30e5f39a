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
	"sync"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// BulkTemplateName is the demo seller's template campaign for bulk imports: the
// T-shirt designed on front and back with the demo artwork.
const BulkTemplateName = "Bulk template — T-shirt"

// Size of the demo artwork: square, so that a square bulk artwork keeps its placement, and large
// enough for 200 DPI on the front.
const bulkArtworkSize = 2000

// BulkArtworkKey is the blob key of the demo artwork, an upload of the seller with id sellerID.
func BulkArtworkKey(sellerID int64) string {
	return "u/" + strconv.FormatInt(sellerID, 10) + "/demo/bulk-template-artwork.png"
}

// seedBulkTemplate gives the demo seller the bulk template campaign: the artwork drawn below is
// stored under its fixed key and recorded as the seller's ready upload (its version renewed, since
// the file was just rewritten), then the campaign is made once with the T-shirt and a design on
// front and back. A campaign of that name already there is kept as the seller left it.
func seedBulkTemplate(ctx context.Context, tx *sqlx.Tx, store blob.Store) error {
	var sellerID int64
	if err := tx.GetContext(ctx, &sellerID, `SELECT id FROM users WHERE lower(email) = 'seller@example.com'`); err != nil {
		return fmt.Errorf("seed bulk template: find the demo seller: %w", err)
	}
	key := BulkArtworkKey(sellerID)
	art, err := bulkArtwork()
	if err != nil {
		return fmt.Errorf("seed bulk template: draw the artwork: %w", err)
	}
	if err := store.Put(ctx, key, bytes.NewReader(art), int64(len(art)), "image/png"); err != nil {
		return fmt.Errorf("seed bulk template: store %s: %w", key, err)
	}
	info, err := store.Stat(ctx, key)
	if err != nil {
		return fmt.Errorf("seed bulk template: stat %s: %w", key, err)
	}
	const upload = `
INSERT INTO uploads (owner_id, blob_key, file_name, kind, status, content_type, width, height, byte_size, stripped, blob_version)
VALUES ($1, $2, 'bulk-template-artwork.png', 'design', 'ready', 'image/png', $3, $3, $4, true, $5)
ON CONFLICT (blob_key) DO UPDATE SET status = 'ready', width = EXCLUDED.width, height = EXCLUDED.height,
	byte_size = EXCLUDED.byte_size, blob_version = EXCLUDED.blob_version, updated_at = now()`
	if _, err := tx.ExecContext(ctx, upload, sellerID, key, bulkArtworkSize, info.Size, tasks.BlobVersion(info)); err != nil {
		return fmt.Errorf("seed bulk template: record the artwork upload: %w", err)
	}

	var campaignID int64
	err = tx.GetContext(ctx, &campaignID, `SELECT id FROM campaigns WHERE user_id = $1 AND name = $2 ORDER BY id LIMIT 1`, sellerID, BulkTemplateName)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("seed bulk template: %w", err)
	}
	if err := tx.GetContext(ctx, &campaignID, `INSERT INTO campaigns (user_id, name, artwork_url) VALUES ($1, $2, $3) RETURNING id`,
		sellerID, BulkTemplateName, key); err != nil {
		return fmt.Errorf("seed bulk template: create the campaign: %w", err)
	}
	productID, spaces, err := addTemplateProduct(ctx, tx, campaignID, "T-shirt", false)
	if err != nil {
		return fmt.Errorf("seed bulk template: %w", err)
	}
	const insDesign = `INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json, option, export_status)
VALUES ($1, $2, $3, $4::jsonb, 'print', 'none')`
	for _, s := range spaces {
		doc, err := bulkTemplateDesign(s, key)
		if err != nil {
			return fmt.Errorf("seed bulk template: %s design: %w", s.Name, err)
		}
		if _, err := tx.ExecContext(ctx, insDesign, campaignID, productID, s.Name, string(doc)); err != nil {
			return fmt.Errorf("seed bulk template: store the %s design: %w", s.Name, err)
		}
	}
	return nil
}

// bulkTemplateDesign is the template's design of print space s: the artwork, square, centred in
// the upper part (two thirds of the width on the front, half on the back), and on the front a
// caption under it.
func bulkTemplateDesign(s printSpace, artworkKey string) ([]byte, error) {
	side := float64(s.Width) / 2
	if s.IsMain {
		side = float64(s.Width) * 2 / 3
	}
	top := float64(s.Height) / 10
	doc := design.Document{
		Version: design.Version,
		PrintSpace: design.PrintSpace{Name: s.Name, Width: s.Width, Height: s.Height, DPI: float64(s.DPI),
			MinDPI: float64(s.MinDPI), PrintType: s.PrintType},
		Objects: []design.Object{&design.ImageObject{ID: "artwork", Src: artworkKey,
			X: (float64(s.Width) - side) / 2, Y: top, Width: side, Height: side}},
	}
	if s.IsMain {
		doc.Objects = append(doc.Objects, &design.TextObject{ID: "caption", Text: "Pressroom", FontFamily: design.DefaultFontFamily,
			FontSize: float64(s.Height) / 20, Fill: "#1f2a44", X: float64(s.Width) / 10, Y: top + side + float64(s.Height)/20,
			Width: float64(s.Width) * 8 / 10, TextWidth: design.TextWidthLimited, TextAlign: design.AlignCenter, MaxLength: 16,
			ConvertText: design.ConvertUppercase, DisplayStyle: design.DisplayColor})
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

// Colours of the demo artwork: transparent, gradientSteps steps from yellow to magenta, the stripes.
const gradientSteps = 64

// bulkArtwork is the demo artwork as a PNG, drawn once per process.
var bulkArtwork = sync.OnceValues(drawBulkArtwork)

// drawBulkArtwork draws a sunset disc, a vertical gradient from yellow to magenta cut by dark
// stripes in its lower half, on a transparent background. It is a paletted image filled row by
// row (one colour per row, the span filled by copying), which keeps seeding quick under -race.
func drawBulkArtwork() ([]byte, error) {
	const n = bulkArtworkSize
	pal := imagecolor.Palette{imagecolor.NRGBA{}}
	for i := range gradientSteps {
		t := float64(i) / (gradientSteps - 1)
		pal = append(pal, imagecolor.NRGBA{R: 255, G: uint8(200 - 150*t), B: uint8(60 + 100*t), A: 255})
	}
	stripe := uint8(len(pal))
	pal = append(pal, imagecolor.NRGBA{R: 31, G: 42, B: 68, A: 255})
	img := image.NewPaletted(image.Rect(0, 0, n, n), pal)
	centre, radius := float64(n)/2, float64(n)*0.46
	for y := range n {
		dy := float64(y) + 0.5 - centre
		if math.Abs(dy) >= radius {
			continue
		}
		c := 1 + uint8(math.Round((dy+radius)/(2*radius)*(gradientSteps-1)))
		if dy > 0 && int(dy/(radius/8))%2 == 1 {
			c = stripe
		}
		half := math.Sqrt(radius*radius - dy*dy)
		x0, x1 := int(math.Round(centre-half)), int(math.Round(centre+half))
		row := img.Pix[img.PixOffset(x0, y):img.PixOffset(x1, y)]
		if len(row) == 0 {
			continue
		}
		row[0] = c
		for filled := 1; filled < len(row); filled *= 2 {
			copy(row[filled:], row[:filled])
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// addTemplateProduct adds the product template called name to the campaign in tx, personalized when
// the template is or personalized is set, and answers the product and its print spaces (at least one).
func addTemplateProduct(ctx context.Context, tx *sqlx.Tx, campaignID int64, name string, personalized bool) (int64, []printSpace, error) {
	var product struct {
		ID          int64  `db:"id"`
		PrintSpaces string `db:"print_spaces"`
	}
	const copyProduct = `
INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, full_printed, options,
	default_option, mockup_type, base_cost, extra_print_cost, personalized, position)
SELECT $1, id, name, product_type, print_spaces, full_printed, options, default_option, mockup_type, base_cost,
	extra_print_cost, personalized OR $3, position
FROM product_templates WHERE name = $2
RETURNING id, print_spaces`
	if err := tx.GetContext(ctx, &product, copyProduct, campaignID, name, personalized); err != nil {
		return 0, nil, fmt.Errorf("add the %s: %w", name, err)
	}
	var spaces []printSpace
	if err := json.Unmarshal([]byte(product.PrintSpaces), &spaces); err != nil || len(spaces) == 0 {
		return 0, nil, fmt.Errorf("the %s's print spaces %q: %v", name, product.PrintSpaces, err)
	}
	return product.ID, spaces, nil
}
