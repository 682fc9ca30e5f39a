package campaigns

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/commerce/pricing"
	"github.com/pressroom/pressroom/renderer/design"
	workertasks "github.com/pressroom/pressroom/worker/tasks"
)

// Messages of the campaign rules.
const (
	MsgNotFound             = "Campaign not found"
	MsgProductNotFound      = "Product not found"
	MsgPersonalizedMismatch = "Campaign's personalized should be matched with products's personalized."
	MsgTryAgain             = "An error occurred, please try again."
	MsgNeedDesign           = "Every product needs at least one design."
	MsgNameRequired         = "The name field is required."
	MsgNameTooLong          = "The name may not be greater than 255 characters."
	MsgBadKind              = "The kind must be one of " + kindList + "."
	MsgBadTemplate          = "The selected product template is invalid."
	MsgNotYourArtwork       = "The artwork must be one of your uploads."
	MsgDuplicateDesign      = "A print space has only one design."
	MsgNoSuchProduct        = "The product is not in this campaign."
	MsgTooManyProducts      = "A campaign can have at most 30 products."
	MsgBadSystemType        = "The system type must be one of " + kindList + "."
	MsgBadProductType       = "The product type must be one of " + productTypeList + "."
	MsgBadStatus            = "The status must be one of draft, active, archived."
	MsgBadFormat            = "The format must be csv or json."
	MsgSlug                 = "The address must be 1 to 80 lower-case letters, digits and single hyphens between them."
	MsgSlugTaken            = "You have a campaign at this address already; choose another."
	MsgArchived             = "The campaign is archived and no longer sold in your stores."
	MsgUnarchived           = "The campaign is back among your campaigns. Sell it again from the campaigns page or Pricing."
	MsgAlreadyArchived      = "The campaign is archived already."
	MsgNotArchived          = "The campaign is not archived."
	// msgCampaignLimitPattern is the refusal of a campaign over the account's campaign_limit.
	msgCampaignLimitPattern = "Your account can have at most %d campaigns. Delete a campaign to create a new one."
)

// MaxProducts bounds the products of one campaign (each is designed, exported and mocked up), at
// creation and when one is added; MsgTooManyProducts states it.
const MaxProducts = 30

// Campaign kinds.
var kinds = []string{"regular", "custom", "campaign_express", "mockup", "aop", "combo", "express_2", "ai_mockup"}

const kindList = "regular, custom, campaign_express, mockup, aop, combo, express_2, ai_mockup"

// Campaign statuses (campaigns.status): draft, active while a product is on sale (active) in one of
// the seller's stores, archived once the seller archives it (docs/campaigns.md).
const (
	StatusDraft    = "draft"
	StatusActive   = "active"
	StatusArchived = "archived"
)

var statuses = []string{StatusDraft, StatusActive, StatusArchived}

// productTypes are the template kinds a campaign list filters by (product_type[]); a campaign is
// of the first three (productTypeOf), the last two name products of the catalogue.
var productTypes = []string{"campaign", "campaign_express", "campaign_template", "product_template", "product"}

const productTypeList = "campaign, campaign_express, campaign_template, product_template, product"

// Defaults of the list's filters: the campaign kinds of product_type[], and every status but
// archived (an archived campaign shows when status[] asks for it).
var (
	defaultProductTypes = productTypes[:3]
	defaultStatuses     = []string{StatusDraft, StatusActive}
)

// parseFilter reads the campaign list's filters (the list, its export): q, system_type[] (kind[]
// too, as the editor's kind filter sends it), product_type[] and status[], each checked against
// its values, with their defaults.
func parseFilter(c echo.Context, q string) (listFilter, error) {
	f := listFilter{Q: q, Types: listing.Values(c, "product_type"), Statuses: listing.Values(c, "status")}
	var errs []envelope.FieldError
	for _, field := range []string{"system_type", "kind"} {
		for _, k := range listing.Values(c, field) {
			if !slices.Contains(kinds, k) {
				msg := MsgBadSystemType
				if field == "kind" {
					msg = MsgBadKind
				}
				errs = append(errs, envelope.FieldError{Field: field, Message: msg})
				break
			}
			f.Kinds = append(f.Kinds, k)
		}
	}
	if slices.ContainsFunc(f.Types, func(t string) bool { return !slices.Contains(productTypes, t) }) {
		errs = append(errs, envelope.FieldError{Field: "product_type", Message: MsgBadProductType})
	}
	if slices.ContainsFunc(f.Statuses, func(st string) bool { return !slices.Contains(statuses, st) }) {
		errs = append(errs, envelope.FieldError{Field: "status", Message: MsgBadStatus})
	}
	if len(errs) > 0 {
		return listFilter{}, invalid(errs...)
	}
	if len(f.Types) == 0 {
		f.Types = defaultProductTypes
	}
	if len(f.Statuses) == 0 {
		f.Statuses = defaultStatuses
	}
	for _, l := range []*[]string{&f.Kinds, &f.Types, &f.Statuses} {
		*l = slices.Compact(slices.Sorted(slices.Values(*l)))
	}
	return f, nil
}

func checkName(name string) *envelope.FieldError {
	switch {
	case strings.TrimSpace(name) == "":
		return &envelope.FieldError{Field: "name", Message: MsgNameRequired}
	case utf8.RuneCountInString(name) > workertasks.MaxNameLength:
		return &envelope.FieldError{Field: "name", Message: MsgNameTooLong}
	}
	return nil
}

// personalizedMatch is the personalized match rule (docs/editor.md): among products that are not handmade, every product's
// personalized value equals the first one's, and the campaign's when it states one.
func personalizedMatch(campaign *bool, products []Product) bool {
	var first *bool
	for _, p := range products {
		if p.FullPrinted == fullPrintedHandmade {
			continue
		}
		if first == nil {
			first = &p.Personalized
			continue
		}
		if p.Personalized != *first {
			return false
		}
	}
	return campaign == nil || first == nil || *campaign == *first
}

// designInput is one design of a save request.
type designInput struct {
	ProductID  int64           `json:"product_id"`
	PrintSpace string          `json:"print_space"`
	DesignJSON json.RawMessage `json:"design_json"`
}

// checkedDesign is a design that passed the rules, ready to store.
type checkedDesign struct {
	designInput
	doc    *design.Document
	option string
}

// checkDesigns runs every rule a design must pass against the campaign's products and returns the
// designs ready to store with the problems found (fields like "designs[2].design_json.objects[0].text").
// Source ownership is checked by the caller, which has the database: sources lists every blob key
// used, with the field naming it.
func checkDesigns(in []designInput, products []Product) ([]checkedDesign, []envelope.FieldError, []design.Source) {
	byID := make(map[int64]Product, len(products))
	for _, p := range products {
		byID[p.ID] = p
	}
	var (
		out     []checkedDesign
		errs    []envelope.FieldError
		sources []design.Source
	)
	seen := map[string]bool{}
	for i, d := range in {
		field := fmt.Sprintf("designs[%d]", i)
		p, ok := byID[d.ProductID]
		if !ok {
			errs = append(errs, envelope.FieldError{Field: field + ".product_id", Message: MsgNoSuchProduct})
			continue
		}
		spaces, err := p.Spaces()
		if err != nil {
			errs = append(errs, envelope.FieldError{Field: field + ".product_id", Message: MsgTryAgain})
			continue
		}
		si := slices.IndexFunc(spaces, func(s PrintSpace) bool { return s.Name == d.PrintSpace })
		if si < 0 {
			msg := fmt.Sprintf("The product %s has no print space %q.", p.Name, d.PrintSpace)
			errs = append(errs, envelope.FieldError{Field: field + ".print_space", Message: msg})
			continue
		}
		ps := spaces[si]
		key := fmt.Sprint(d.ProductID, "\x00", d.PrintSpace)
		if seen[key] {
			errs = append(errs, envelope.FieldError{Field: field + ".print_space", Message: MsgDuplicateDesign})
			continue
		}
		seen[key] = true
		doc, err := design.Parse(d.DesignJSON)
		if err != nil {
			errs = append(errs, documentErrors(field+".design_json", err)...)
			continue
		}
		if msg := printSpaceMismatch(doc.PrintSpace, ps); msg != "" {
			errs = append(errs, envelope.FieldError{Field: field + ".design_json.printSpace", Message: msg})
			continue
		}
		for _, src := range doc.Sources() {
			src.Field = field + ".design_json." + src.Field
			sources = append(sources, src)
		}
		out = append(out, checkedDesign{designInput: d, doc: doc, option: doc.Option()})
	}
	return out, errs, sources
}

// documentErrors turns design.Parse's problems into field errors under prefix.
func documentErrors(prefix string, err error) []envelope.FieldError {
	ve, ok := err.(*design.ValidationError)
	if !ok {
		return []envelope.FieldError{{Field: prefix, Message: "The design document is invalid: " + err.Error() + "."}}
	}
	out := make([]envelope.FieldError, 0, len(ve.Problems))
	for _, p := range ve.Problems {
		f := prefix
		if p.Field != "" {
			f += "." + p.Field
		}
		out = append(out, envelope.FieldError{Field: f, Message: "The design is invalid at " + f + ": " + p.Message + "."})
	}
	return out
}

// printSpaceMismatch says how the document's print space differs from the product's, empty when it
// does not.
func printSpaceMismatch(got design.PrintSpace, want PrintSpace) string {
	if got.Name == want.Name && got.Width == want.Width && got.Height == want.Height && got.DPI == want.DPI &&
		got.MinDPI == want.MinDPI && got.PrintType == want.PrintType {
		return ""
	}
	return fmt.Sprintf("The design's print space (%s %dx%d, %g DPI, min %g, print type %d) is not the product's %s (%dx%d, %g DPI, min %g, print type %d).",
		got.Name, got.Width, got.Height, got.DPI, got.MinDPI, got.PrintType,
		want.Name, want.Width, want.Height, want.DPI, want.MinDPI, want.PrintType)
}

// missingDesigns names every product (by its index in products) without a design holding an object.
func missingDesigns(products []Product, designs []checkedDesign) []envelope.FieldError {
	var errs []envelope.FieldError
	for i, p := range products {
		if !slices.ContainsFunc(designs, func(d checkedDesign) bool { return d.ProductID == p.ID && len(d.doc.Objects) > 0 }) {
			errs = append(errs, envelope.FieldError{Field: fmt.Sprintf("products[%d]", i), Message: MsgNeedDesign})
		}
	}
	return errs
}

// artworkOf is the first image of the designs, the campaign's artwork (empty without one).
func artworkOf(designs []checkedDesign) string {
	for _, d := range designs {
		for _, o := range d.doc.Objects {
			if im, ok := o.(*design.ImageObject); ok {
				return im.Src
			}
		}
	}
	return ""
}

// ExtraCost is a product's extra print cost, in the currency's units as the editor shows it (what
// calc-extra-print-cost-products answers, docs/pricing.md).
type ExtraCost struct {
	ID             int64   `json:"id"`
	ExtraPrintCost float64 `json:"extra_print_cost"`
}

// extraCosts prices each product's print spaces designed beyond the first
// (pricing.ExtraPrintCost); designed maps a product id to its designed print spaces.
func extraCosts(products []Product, designed map[int64]map[string]bool) []ExtraCost {
	out := make([]ExtraCost, 0, len(products))
	for _, p := range products {
		perSpace := int64(math.Round(p.ExtraPrintCost * 100))
		cents := pricing.ExtraPrintCost(perSpace, len(designed[p.ID]))
		out = append(out, ExtraCost{ID: p.ID, ExtraPrintCost: float64(cents) / 100})
	}
	return out
}
