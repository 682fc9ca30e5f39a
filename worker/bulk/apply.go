package bulk

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/worker/tasks"
)

// aspectTolerance is the tolerance for keeping an artwork's placement: the new
// artwork keeps the old box when width/height differ by at most this much.
const aspectTolerance = 0.005

// printSpace is one print space of a product as its print_spaces JSON holds it.
type printSpace struct {
	Name      string  `json:"name"`
	Width     int     `json:"width"`
	Height    int     `json:"height"`
	PrintType int     `json:"printType"`
	IsMain    bool    `json:"isMain"`
	DPI       float64 `json:"DPI"`
	MinDPI    float64 `json:"minDPI"`
}

// Defaults of a print space that states no DPI.
const (
	defaultDPI    = 300
	defaultMinDPI = 150
)

// product is a product of the template campaign with its designs, or, for an imported row that
// names product templates, a product template of the catalogue (Template, and an ID of its own
// below zero) without designs.
type product struct {
	ID       int64
	Template int64
	Spaces   []printSpace
	Designs  []templateDesign
}

// source is where the new campaign copies the product from.
func (p product) source() tasks.ProductSource {
	if p.Template != 0 {
		return tasks.ProductSource{FromTemplate: p.Template}
	}
	return tasks.ProductSource{FromProduct: p.ID}
}

// templateDesign is a design of the template campaign.
type templateDesign struct {
	PrintSpace string
	Document   []byte
}

// artwork is a replacement image: its blob key and pixel size.
type artwork struct {
	Key           string
	Width, Height int
}

// newDesign is a design of the campaign being made, for the template product ProductID.
type newDesign struct {
	ProductID  int64
	PrintSpace string
	Document   []byte
	Option     string
	// Empty designs (no object) have no print file to make.
	Empty bool
}

// apply builds the new campaign's designs: each product's designs copied, those on a print space
// of the record getting that artwork, and a new design for a print space of the record the product
// has no design on. It fails with PRINT_SPACE_IS_MISSING when a product lacks a print space of the
// record, 'Invalid design' when a document cannot be read or written, and 'Empty valid design'
// when no design carries a new artwork.
func apply(products []product, arts map[string]artwork) ([]newDesign, error) {
	var out []newDesign
	applied := 0
	for _, p := range products {
		for space := range arts {
			if !slices.ContainsFunc(p.Spaces, func(s printSpace) bool { return s.Name == space }) {
				return nil, &invalid{MsgPrintSpaceMissing}
			}
		}
		done := map[string]bool{}
		for _, d := range p.Designs {
			doc, err := design.Parse(d.Document)
			if err != nil {
				return nil, &invalid{MsgInvalidDesign}
			}
			if art, ok := arts[d.PrintSpace]; ok {
				replaceArtwork(doc, art)
				applied++
				done[d.PrintSpace] = true
			}
			nd, err := finish(p.ID, d.PrintSpace, doc)
			if err != nil {
				return nil, err
			}
			out = append(out, nd)
		}
		for _, s := range p.Spaces {
			art, ok := arts[s.Name]
			if !ok || done[s.Name] {
				continue
			}
			doc := &design.Document{Version: design.Version, PrintSpace: documentSpace(s)}
			replaceArtwork(doc, art)
			applied++
			nd, err := finish(p.ID, s.Name, doc)
			if err != nil {
				return nil, err
			}
			out = append(out, nd)
		}
	}
	if applied == 0 {
		return nil, &invalid{MsgEmptyValidDesign}
	}
	return out, nil
}

// finish writes doc and checks that it reads back as a valid document.
func finish(productID int64, space string, doc *design.Document) (newDesign, error) {
	b, err := json.Marshal(doc)
	if err != nil {
		return newDesign{}, fmt.Errorf("write design of product %d %s: %w", productID, space, err)
	}
	if _, err := design.Parse(b); err != nil {
		return newDesign{}, &invalid{MsgInvalidDesign}
	}
	return newDesign{ProductID: productID, PrintSpace: space, Document: b, Option: doc.Option(), Empty: len(doc.Objects) == 0}, nil
}

// documentSpace is the design document's print space for a product print space.
func documentSpace(s printSpace) design.PrintSpace {
	ps := design.PrintSpace{Name: s.Name, Width: s.Width, Height: s.Height, DPI: s.DPI, MinDPI: s.MinDPI, PrintType: s.PrintType}
	if ps.DPI == 0 {
		ps.DPI = defaultDPI
	}
	if ps.MinDPI == 0 {
		ps.MinDPI = defaultMinDPI
	}
	return ps
}

// replaceArtwork puts art in the place of the document's first image (the artwork), or adds it
// fitted to the print space when the document has none.
func replaceArtwork(doc *design.Document, art artwork) {
	for _, o := range doc.Objects {
		if im, ok := o.(*design.ImageObject); ok {
			im.Src = art.Key
			im.X, im.Y, im.Width, im.Height = place(im.X, im.Y, im.Width, im.Height, im.Rotation, art)
			return
		}
	}
	x, y, w, h := place(0, 0, float64(doc.PrintSpace.Width), float64(doc.PrintSpace.Height), 0, art)
	doc.Objects = append(doc.Objects, &design.ImageObject{ID: "bulk-artwork", Src: art.Key, X: x, Y: y, Width: w, Height: h})
}

// place is the box of art replacing an image in the box (x, y, w, h) rotated by rotation degrees
// about (x, y): the same box when the aspect ratios match within aspectTolerance, else the art
// fitted inside the old box around the same centre.
func place(x, y, w, h, rotation float64, art artwork) (float64, float64, float64, float64) {
	if art.Width <= 0 || art.Height <= 0 || w <= 0 || h <= 0 {
		return x, y, w, h
	}
	ratio := float64(art.Width) / float64(art.Height)
	if math.Abs(ratio-w/h) <= aspectTolerance {
		return x, y, w, h
	}
	scale := math.Min(w/float64(art.Width), h/float64(art.Height))
	nw, nh := float64(art.Width)*scale, float64(art.Height)*scale
	sin, cos := math.Sincos(rotation * math.Pi / 180)
	// The centre of the old box, then the top-left corner of the new one around it.
	cx, cy := x+w/2*cos-h/2*sin, y+w/2*sin+h/2*cos
	return cx - nw/2*cos + nh/2*sin, cy - nw/2*sin - nh/2*cos, nw, nh
}
