package access_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/pressroom/pressroom/bff/access"
)

type ruleCase struct {
	Name                string         `json:"name"`
	User                access.User    `json:"user"`
	Context             access.Context `json:"context"`
	Now                 time.Time      `json:"now"`
	DesignerQuery       bool           `json:"designer_query"`
	CustomPaymentDomain bool           `json:"custom_payment_domain"`
	Expect              expectation    `json:"expect"`
}

type expectation struct {
	Designer            bool            `json:"designer"`
	AuthorizedAccount   bool            `json:"authorized_account"`
	InAuthorizedAccount bool            `json:"in_authorized_account"`
	Trusted             bool            `json:"trusted"`
	FulfillmentDomain   bool            `json:"fulfillment_domain"`
	MustVerifyEmail     bool            `json:"must_verify_email"`
	NeedsTFA            bool            `json:"needs_tfa"`
	Can                 map[string]bool `json:"can"`
	Menu                []string        `json:"menu"`
	StoreDomain         string          `json:"store_domain"`
	LoginEndpoint       string          `json:"login_endpoint"`
	NeedsSellerCentre   bool            `json:"needs_seller_centre"`
}

type storeCase struct {
	Name      string      `json:"name"`
	User      access.User `json:"user"`
	Requested []int64     `json:"requested"`
	Want      []int64     `json:"want"`
}

func loadTable(t *testing.T) ([]ruleCase, []storeCase) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "schema", "testdata", "access", "rules.json"))
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases       []ruleCase  `json:"cases"`
		StoreFilter []storeCase `json:"store_filter"`
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) == 0 || len(table.StoreFilter) == 0 {
		t.Fatal("empty table")
	}
	return table.Cases, table.StoreFilter
}

// TestSharedRules checks every rule against schema/testdata/access/rules.json, the table the UI's
// tests read too.
func TestSharedRules(t *testing.T) {
	cases, _ := loadTable(t)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			u := tc.User
			can := map[string]bool{}
			for _, p := range access.Permissions {
				can[p] = access.Can(u, p)
			}
			got := expectation{
				Designer:            access.IsDesigner(u),
				AuthorizedAccount:   access.IsAuthorizedAccount(u),
				InAuthorizedAccount: access.InAuthorizedAccount(u),
				Trusted:             access.IsTrusted(u),
				FulfillmentDomain:   access.IsFulfillmentDomain(tc.Context.Host),
				MustVerifyEmail:     access.MustVerifyEmail(u, tc.Now),
				NeedsTFA:            access.NeedsTFA(u),
				Can:                 can,
				Menu:                access.Menu(u, tc.Context),
				StoreDomain:         access.StoreDomain(u),
				LoginEndpoint:       access.LoginEndpoint(tc.Context.Host, tc.DesignerQuery),
				NeedsSellerCentre:   access.NeedsSellerCentre(u, tc.CustomPaymentDomain),
			}
			if diff := cmp.Diff(tc.Expect, got); diff != "" {
				t.Fatalf("rules (-table +got):\n%s", diff)
			}
		})
	}
}

func TestSharedStoreFilter(t *testing.T) {
	_, cases := loadTable(t)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			if diff := cmp.Diff(tc.Want, access.StoreFilter(tc.User, tc.Requested)); diff != "" {
				t.Fatalf("store filter (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNeedAllows(t *testing.T) {
	seller := &access.Caller{User: access.User{Roles: []string{access.RoleSeller}}}
	team := &access.Caller{User: access.User{Roles: []string{"staff"}, Permissions: []string{access.GetOrders}}}
	admin := &access.Caller{User: access.User{Roles: []string{access.RoleAdmin}}}
	owesCode := &access.Caller{User: seller.User, NeedsTFA: true}
	impersonated := &access.Caller{User: seller.User, Impersonating: true}
	switched := &access.Caller{User: team.User, Switched: true}
	tagged := &access.Caller{User: access.User{Roles: []string{access.RoleSeller}, Tags: []string{access.TagEmailMarketing}}}
	taggedTeam := &access.Caller{User: access.User{Roles: []string{"staff"}, Tags: []string{access.TagEmailMarketing},
		Permissions: []string{access.UpdateCampaign}}}
	taggedTeamWithout := &access.Caller{User: access.User{Roles: []string{"staff"}, Tags: []string{access.TagEmailMarketing},
		Permissions: []string{access.GetCampaigns}}}
	emailMarketing := access.Need{Permission: access.UpdateCampaign, Tag: access.TagEmailMarketing}
	tests := []struct {
		name   string
		need   access.Need
		caller *access.Caller
		want   bool
	}{
		{"public admits anonymous", access.Anyone, nil, true},
		{"signed-in refuses anonymous", access.SignedIn, nil, false},
		{"signed-in admits a seller", access.SignedIn, seller, true},
		{"a session owing a code is refused", access.SignedIn, owesCode, false},
		{"a session owing a code may settle it", access.SignedInPending, owesCode, true},
		{"admin role", access.AdminOnly, admin, true},
		{"admin role refuses a seller", access.AdminOnly, seller, false},
		{"permission admits a seller", access.Permitted(access.GetPayments), seller, true},
		{"permission admits a team member holding it", access.Permitted(access.GetOrders), team, true},
		{"permission refuses a team member without it", access.Permitted(access.GetPayments), team, false},
		{"permission refuses an admin", access.Permitted(access.GetOrders), admin, false},
		{"impersonation refused where declared", access.Need{NotImpersonating: true}, impersonated, false},
		{"impersonation admitted elsewhere", access.SignedIn, impersonated, true},
		{"own-account call refused while switched", access.Need{OwnAccount: true}, switched, false},
		{"tag and permission admit a tagged seller", emailMarketing, tagged, true},
		{"tag refuses a seller without it", emailMarketing, seller, false},
		{"tag and permission admit a tagged team member holding it", emailMarketing, taggedTeam, true},
		{"tag does not stand in for the permission", emailMarketing, taggedTeamWithout, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.need.Allows(tt.caller); got != tt.want {
				t.Fatalf("%s allows = %v, want %v", tt.need, got, tt.want)
			}
		})
	}
}
