package feeds

import (
	"encoding/csv"
	"encoding/xml"
	"io"

	"github.com/pressroom/pressroom/worker/tasks"
)

// Item is one line of a feed: a product in one colour and size.
type Item struct {
	ID          string
	GroupID     string
	Title       string
	Description string
	Link        string
	ImageLink   string
	// Price is what the item costs, or its compare-at price when SalePrice is set.
	Price     string
	SalePrice string
	InStock   bool
	Brand     string
	Color     string
	Size      string
	// ProductType is the product's name ("T-shirt"), Google's product_type.
	ProductType string
}

// Channel is what a feed says of itself: the store.
type Channel struct {
	Title, Link, Description string
}

// writer writes one format: begin once, each item, end once. Each writes as it goes.
type writer interface {
	begin(Channel) error
	item(Item) error
	end() error
}

func newWriter(format string, w io.Writer) writer {
	if format == tasks.FeedFacebook {
		return &facebookCSV{w: csv.NewWriter(w)}
	}
	return &googleRSS{w: w, enc: xml.NewEncoder(w)}
}

// GoogleNS is the namespace of Google Merchant's product fields.
const GoogleNS = "http://base.google.com/ns/1.0"

// googleRSS is Google Merchant's feed: RSS 2.0 whose items carry the g: fields.
type googleRSS struct {
	w   io.Writer
	enc *xml.Encoder
}

// googleItem is an item's element; the g: names are written as they stand, with the namespace
// declared once on <rss>.
type googleItem struct {
	XMLName      xml.Name `xml:"item"`
	ID           string   `xml:"g:id"`
	Title        string   `xml:"title"`
	Description  string   `xml:"description"`
	Link         string   `xml:"link"`
	ImageLink    string   `xml:"g:image_link"`
	Availability string   `xml:"g:availability"`
	Price        string   `xml:"g:price"`
	SalePrice    string   `xml:"g:sale_price,omitempty"`
	Condition    string   `xml:"g:condition"`
	Brand        string   `xml:"g:brand"`
	GroupID      string   `xml:"g:item_group_id"`
	Color        string   `xml:"g:color"`
	Size         string   `xml:"g:size"`
	ProductType  string   `xml:"g:product_type"`
}

func (g *googleRSS) begin(c Channel) error {
	if _, err := io.WriteString(g.w, xml.Header+`<rss version="2.0" xmlns:g="`+GoogleNS+`">`+"\n<channel>\n"); err != nil {
		return err
	}
	for _, e := range []struct{ name, value string }{{"title", c.Title}, {"link", c.Link}, {"description", c.Description}} {
		if err := g.enc.EncodeElement(e.value, xml.StartElement{Name: xml.Name{Local: e.name}}); err != nil {
			return err
		}
	}
	return nil
}

func (g *googleRSS) item(it Item) error {
	availability := "out_of_stock"
	if it.InStock {
		availability = "in_stock"
	}
	return g.enc.Encode(googleItem{ID: it.ID, Title: it.Title, Description: it.Description, Link: it.Link, ImageLink: it.ImageLink,
		Availability: availability, Price: it.Price, SalePrice: it.SalePrice, Condition: "new", Brand: it.Brand,
		GroupID: it.GroupID, Color: it.Color, Size: it.Size, ProductType: it.ProductType})
}

func (g *googleRSS) end() error {
	if err := g.enc.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(g.w, "\n</channel>\n</rss>\n")
	return err
}

// FacebookColumns are the columns of the Facebook catalogue's CSV, in order.
var FacebookColumns = []string{"id", "title", "description", "availability", "condition", "price", "sale_price", "link",
	"image_link", "brand", "item_group_id", "color", "size", "product_type"}

// facebookCSV is the Facebook catalogue's data feed: CSV with its column names.
type facebookCSV struct{ w *csv.Writer }

func (f *facebookCSV) begin(Channel) error { return f.w.Write(FacebookColumns) }

func (f *facebookCSV) item(it Item) error {
	availability := "out of stock"
	if it.InStock {
		availability = "in stock"
	}
	return f.w.Write([]string{it.ID, it.Title, it.Description, availability, "new", it.Price, it.SalePrice, it.Link,
		it.ImageLink, it.Brand, it.GroupID, it.Color, it.Size, it.ProductType})
}

func (f *facebookCSV) end() error {
	f.w.Flush()
	return f.w.Error()
}
