package socialfeeds

import (
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/worker/tasks"
)

// Limits of a feed.
const (
	maxName = 100
	// MaxCampaigns is how many chosen campaigns a feed lists at most (a feed of all the store's
	// campaigns has no limit).
	MaxCampaigns = 500
)

// Messages the screens show.
const (
	MsgNotFound  = "Feed not found."
	MsgName      = "The name is required."
	MsgStore     = "Choose one of your stores."
	MsgFormat    = "Choose Google Merchant or Facebook catalogue."
	MsgCampaigns = "Choose one or more of your campaigns, or list all the store's."
	MsgTooMany   = "A feed lists at most 500 chosen campaigns; list all the store's instead."
	MsgCreated   = "The feed was created. It is being built and will be ready in a minute."
	MsgSaved     = "The feed was saved. It is being built again."
	MsgRebuild   = "The feed is being built again."
	MsgDeleted   = "The feed was deleted; its address no longer answers."
	MsgNotBuilt  = "This feed has not been built yet. Try again in a minute."
)

// Input is a feed as the edit screen sends it. AllCampaigns defaults to true; CampaignIDs are read
// only when it is false.
type Input struct {
	Name         string  `json:"name"`
	StoreID      int64   `json:"store_id"`
	Format       string  `json:"format"`
	AllCampaigns *bool   `json:"all_campaigns"`
	CampaignIDs  []int64 `json:"campaign_ids"`
}

// check normalises the input and lists the problems that need no database.
func (in *Input) check() []envelope.FieldError {
	var errs []envelope.FieldError
	add := func(f, m string) { errs = append(errs, envelope.FieldError{Field: f, Message: m}) }
	in.Name = strings.TrimSpace(in.Name)
	if in.Name == "" {
		add("name", MsgName)
	} else if utf8.RuneCountInString(in.Name) > maxName {
		errs = append(errs, envelope.TooLong("name", "name", maxName))
	}
	if in.StoreID <= 0 {
		add("store_id", MsgStore)
	}
	if !slices.Contains(tasks.FeedFormats, in.Format) {
		add("format", MsgFormat)
	}
	if in.AllCampaigns == nil {
		t := true
		in.AllCampaigns = &t
	}
	ids := make([]int64, 0, len(in.CampaignIDs))
	for _, id := range in.CampaignIDs {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	in.CampaignIDs = ids
	switch {
	case *in.AllCampaigns:
		in.CampaignIDs = []int64{}
	case len(in.CampaignIDs) == 0:
		add("campaign_ids", MsgCampaigns)
	case len(in.CampaignIDs) > MaxCampaigns:
		add("campaign_ids", MsgTooMany)
	}
	return errs
}

func invalid(errs ...envelope.FieldError) error {
	return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
}
