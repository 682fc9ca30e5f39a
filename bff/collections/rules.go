package collections

import (
	"net/http"
	"strings"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/stores"
)

// Limits of a collection.
const (
	maxName        = 100
	maxDescription = 2000
	// MaxCampaigns is how many campaigns one collection holds at most.
	MaxCampaigns = 500
	// MaxFeatured is how many campaigns of a collection may be featured: the store's home page
	// shows them all.
	MaxFeatured = 12
	maxStores   = 200
)

// Messages the screens show.
const (
	MsgNotFound       = "Collection not found."
	MsgName           = "The name is required."
	MsgSlug           = "The address may hold lower-case letters, digits and single hyphens, at most 80."
	MsgSlugTaken      = "You already have a collection at this address; choose another."
	MsgStores         = "Choose one or more of your stores, or show the collection in all of them."
	MsgCampaigns      = "Choose campaigns of your own."
	MsgTooMany        = "A collection holds at most 500 campaigns."
	MsgFeatured       = "Feature campaigns of this collection only."
	MsgFeaturedRepeat = "Each campaign can be featured once."
	MsgTooManyFeature = "Feature at most 12 campaigns."
	MsgCreated        = "The collection was created."
	MsgSaved          = "The collection was saved."
	MsgDeleted        = "The collection was deleted."
	MsgFeaturedSaved  = "The featured campaigns were saved."
)

// Input is a collection as the edit screen sends it. AllStores defaults to true; StoreIDs are read
// only when it is false.
type Input struct {
	Name        string  `json:"name"`
	Slug        string  `json:"slug"`
	Description string  `json:"description"`
	AllStores   *bool   `json:"all_stores"`
	StoreIDs    []int64 `json:"store_ids"`
	CampaignIDs []int64 `json:"campaign_ids"`
}

// FeaturedInput is the featured campaigns of a collection, in the order the store shows them.
type FeaturedInput struct {
	CampaignIDs []int64 `json:"campaign_ids"`
}

// check normalises the input and lists the problems that need no database.
func (in *Input) check() []envelope.FieldError {
	var errs []envelope.FieldError
	add := func(f, m string) { errs = append(errs, envelope.FieldError{Field: f, Message: m}) }
	in.Name = strings.TrimSpace(in.Name)
	in.Slug = strings.ToLower(strings.TrimSpace(in.Slug))
	in.Description = strings.TrimSpace(in.Description)
	if in.Name == "" {
		add("name", MsgName)
	} else if len([]rune(in.Name)) > maxName {
		errs = append(errs, envelope.TooLong("name", "name", maxName))
	}
	if !stores.PathSlugOK(in.Slug) {
		add("slug", MsgSlug)
	}
	if len([]rune(in.Description)) > maxDescription {
		errs = append(errs, envelope.TooLong("description", "description", maxDescription))
	}
	if in.AllStores == nil {
		t := true
		in.AllStores = &t
	}
	if *in.AllStores {
		in.StoreIDs = []int64{}
	} else if len(in.StoreIDs) == 0 || len(in.StoreIDs) > maxStores {
		add("store_ids", MsgStores)
	}
	in.StoreIDs = distinct(in.StoreIDs)
	in.CampaignIDs = distinct(in.CampaignIDs)
	if len(in.CampaignIDs) > MaxCampaigns {
		add("campaign_ids", MsgTooMany)
	}
	return errs
}

// check lists the problems of a featured list that need no database.
func (in *FeaturedInput) check() []envelope.FieldError {
	if in.CampaignIDs == nil {
		in.CampaignIDs = []int64{}
	}
	if len(in.CampaignIDs) > MaxFeatured {
		return []envelope.FieldError{{Field: "campaign_ids", Message: MsgTooManyFeature}}
	}
	if len(distinct(in.CampaignIDs)) != len(in.CampaignIDs) {
		return []envelope.FieldError{{Field: "campaign_ids", Message: MsgFeaturedRepeat}}
	}
	return nil
}

// distinct keeps the first of each id, in order; never nil.
func distinct(ids []int64) []int64 {
	out := make([]int64, 0, len(ids))
	seen := make(map[int64]bool, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func invalid(errs ...envelope.FieldError) error {
	return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
}
