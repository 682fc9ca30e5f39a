package tracking

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pressroom/pressroom/bff/envelope"
)

func TestCheck(t *testing.T) {
	many := map[string]string{}
	for i := range MaxQueryKeys + 1 {
		many[strings.Repeat("k", i+1)] = "v"
	}
	tests := []struct {
		name    string
		payload Payload
		want    []envelope.FieldError
	}{
		{"a campaign with its query and client", Payload{UTMCampaign: " spring ", Query: map[string]string{"utm_source": "mail"}, ClientInfo: ClientInfo{Browser: "Chrome"}}, nil},
		{"no campaign", Payload{UTMCampaign: "  "}, []envelope.FieldError{{Field: "utm_campaign", Message: MsgCampaignRequired}}},
		{"too many query parameters", Payload{UTMCampaign: "x", Query: many}, []envelope.FieldError{{Field: "query", Message: MsgTooManyKeys}}},
		{"a huge user agent", Payload{UTMCampaign: "x", ClientInfo: ClientInfo{UserAgent: strings.Repeat("a", MaxFieldLength+1)}},
			[]envelope.FieldError{{Field: "client_info.user_agent", Message: "The client info user agent may not be longer than 1000 characters."}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Check(&tc.payload)); diff != "" {
				t.Fatalf("Check (-want +got):\n%s", diff)
			}
		})
	}
}
