package tasks

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/queue"
	rendertasks "github.com/pressroom/pressroom/renderer/tasks"
)

// MaxNameLength is the campaigns table's bound on a name, in characters.
const MaxNameLength = 255

// FitName cuts name to MaxNameLength characters.
func FitName(name string) string {
	for utf8.RuneCountInString(name) > MaxNameLength {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return name
}

// ErrNoTemplate means a product template id names no template of the catalogue.
var ErrNoTemplate = errors.New("no such product template")

// ProductSource is where a new campaign's product is copied from: a product of a campaign
// (FromProduct, with the template's fields as that campaign took them), or else a product template
// of the catalogue (FromTemplate).
type ProductSource struct {
	FromProduct  int64
	FromTemplate int64
}

// CampaignDesign is the design document of one print space of the new campaign's product at index
// Product of its Products. Empty documents (no object) have no print file to make.
type CampaignDesign struct {
	Product    int
	PrintSpace string
	Document   []byte
	Option     string
	Empty      bool
}

// NewCampaign is a campaign to create for OwnerID, with its products and designs.
type NewCampaign struct {
	OwnerID      int64
	Name         string
	Kind         string
	Personalized *bool
	ArtworkKey   string
	Products     []ProductSource
	Designs      []CampaignDesign
}

// CreatedCampaign is what CreateCampaign made: the campaign, its products in the order of
// NewCampaign.Products, and the outbox rows of its print files to dispatch after commit.
type CreatedCampaign struct {
	ID         int64
	ProductIDs []int64
	OutboxIDs  []int64
}

// CreateCampaign creates c in tx, the one way a campaign is made from others (bulk records and jobs,
// imports, the campaign list's duplicate): the campaign (its address from its name, see
// schema/migrations), its products copied in order, and its designs at revision 1, each design
// with a print file queued as a render:export at priority through the outbox. An owner at their
// campaign limit gets nothing: the error is a *CampaignLimitError.
func CreateCampaign(ctx context.Context, tx *sqlx.Tx, c NewCampaign, priority queue.Priority) (CreatedCampaign, error) {
	if err := UnderCampaignLimit(ctx, tx, c.OwnerID, 1); err != nil {
		return CreatedCampaign{}, err
	}
	kind := c.Kind
	if kind == "" {
		kind = "regular"
	}
	var out CreatedCampaign
	const insCampaign = `INSERT INTO campaigns (user_id, name, kind, personalized, artwork_url) VALUES ($1, $2, $3, $4, $5) RETURNING id`
	if err := tx.GetContext(ctx, &out.ID, insCampaign, c.OwnerID, c.Name, kind, c.Personalized, c.ArtworkKey); err != nil {
		return CreatedCampaign{}, fmt.Errorf("create campaign %q: %w", c.Name, err)
	}
	const copyProduct = `
INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, full_printed, options,
	default_option, mockup_type, base_cost, extra_print_cost, personalized, position)
SELECT $1, template_id, name, product_type, print_spaces, full_printed, options, default_option, mockup_type, base_cost,
	extra_print_cost, personalized, position
FROM campaign_products WHERE id = $2
RETURNING id`
	for _, src := range c.Products {
		var id int64
		var err error
		if src.FromProduct != 0 {
			err = tx.GetContext(ctx, &id, copyProduct, out.ID, src.FromProduct)
		} else {
			id, err = AddTemplateProduct(ctx, tx, out.ID, src.FromTemplate)
		}
		if err != nil {
			return CreatedCampaign{}, fmt.Errorf("copy product %+v: %w", src, err)
		}
		out.ProductIDs = append(out.ProductIDs, id)
	}
	for _, d := range c.Designs {
		if d.Product < 0 || d.Product >= len(out.ProductIDs) {
			return CreatedCampaign{}, fmt.Errorf("design of product %d: the campaign has %d products", d.Product, len(out.ProductIDs))
		}
		oid, err := rendertasks.SaveDesign(ctx, tx, rendertasks.Design{CampaignID: out.ID, ProductID: out.ProductIDs[d.Product],
			PrintSpace: d.PrintSpace, Document: d.Document, Option: d.Option, Empty: d.Empty}, priority)
		if err != nil {
			return CreatedCampaign{}, err
		}
		if oid != 0 {
			out.OutboxIDs = append(out.OutboxIDs, oid)
		}
	}
	return out, nil
}

// AddTemplateProduct copies product template templateID of the catalogue into campaign campaignID
// as a new product and returns its id; ErrNoTemplate when there is no such template.
func AddTemplateProduct(ctx context.Context, tx sqlx.QueryerContext, campaignID, templateID int64) (int64, error) {
	const q = `
INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, full_printed, options,
	default_option, mockup_type, base_cost, extra_print_cost, personalized, position)
SELECT $1, id, name, product_type, print_spaces, full_printed, options, default_option, mockup_type, base_cost,
	extra_print_cost, personalized, position
FROM product_templates WHERE id = $2
RETURNING id`
	var ids []int64
	if err := sqlx.SelectContext(ctx, tx, &ids, q, campaignID, templateID); err != nil {
		return 0, fmt.Errorf("add product template %d: %w", templateID, err)
	}
	if len(ids) == 0 {
		return 0, ErrNoTemplate
	}
	return ids[0], nil
}

// filesPath is the path under which the bff serves an upload (GET /api/files/{key}).
const filesPath = "/api/files/"

// BlobKey is the upload key an artwork reference names (a bulk record's new_url, an imported row's
// artwork): the key itself, or the key of a files address (relative or absolute, query left off).
func BlobKey(ref string) string {
	u := ref
	if i := strings.Index(u, filesPath); i >= 0 {
		u = u[i+len(filesPath):]
		if j := strings.IndexAny(u, "?#"); j >= 0 {
			u = u[:j]
		}
	}
	return u
}
