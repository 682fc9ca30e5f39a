package app

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/bff/campaigns"
)

type listedCampaign struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Slug        string `json:"slug"`
	Kind        string `json:"kind"`
	ProductType string `json:"product_type"`
	Status      string `json:"status"`
}

// names lists the seller's campaigns named "List …" the list answers for query.
func (p *pricingStack) names(t *testing.T, query string) []string {
	t.Helper()
	r := p.do(http.MethodGet, "/api/seller/campaigns?q=List&per_page=50&"+query, p.token, nil)
	var page struct{ Data []listedCampaign }
	if r.status != 200 {
		t.Fatalf("list %s: %d %s", query, r.status, r.raw)
	}
	decode2(t, r, &page)
	out := []string{}
	for _, c := range page.Data {
		out = append(out, c.Name)
	}
	slices.Sort(out)
	return out
}

// TestCampaignListFilters: system_type[], product_type[] (by default the campaign kinds) and
// status[] (by default all but archived), each refused with its field when it names no value.
func TestCampaignListFilters(t *testing.T) {
	p := newPricingStack(t)
	regular := p.campaign(t, "List regular", "T-shirt")
	r := p.do(http.MethodPost, "/api/seller/campaigns", p.token, map[string]any{"name": "List express", "kind": "campaign_express"})
	if r.status != 200 {
		t.Fatalf("express: %d %s", r.status, r.raw)
	}
	template := p.campaign(t, "List template", "T-shirt")
	if r := p.do(http.MethodPost, bulkBase+"/records", p.token, map[string]any{"template_campaign_id": template,
		"designs": `[{"new_url": "u/1/art.png", "print_space": "front"}]`}); r.status != 202 {
		t.Fatalf("bulk record: %d %s", r.status, r.raw)
	}
	sold := p.campaign(t, "List sold", "Mug wrap")
	if r := p.do(http.MethodPost, fmt.Sprintf("/api/seller/stores/%d/campaigns", p.store), p.token, map[string]any{"campaign_id": sold, "margin": "9"}); r.status != 200 {
		t.Fatalf("sell: %d %s", r.status, r.raw)
	}
	archived := p.campaign(t, "List archived", "Poster")
	if r := p.do(http.MethodPost, fmt.Sprintf("/api/seller/campaigns/%d/archive", archived), p.token, nil); r.status != 200 {
		t.Fatalf("archive: %d %s", r.status, r.raw)
	}
	_ = regular

	all := []string{"List express", "List regular", "List sold", "List template"}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", all},
		{"product_type[]=campaign_template", []string{"List template"}},
		{"product_type[]=campaign_express&product_type[]=campaign_template", []string{"List express", "List template"}},
		{"product_type=product", []string{}},
		{"system_type[]=campaign_express", []string{"List express"}},
		{"system_type[]=regular&status[]=active", []string{"List sold"}},
		{"status[]=draft", []string{"List express", "List regular", "List template"}},
		{"status[]=archived", []string{"List archived"}},
		{"status=archived,active", []string{"List archived", "List sold"}},
		{"kind[]=campaign_express", []string{"List express"}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			if got := p.names(t, tc.query); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	for _, tc := range []struct{ query, field, msg string }{
		{"system_type[]=tee", "system_type", campaigns.MsgBadSystemType},
		{"product_type[]=template", "product_type", campaigns.MsgBadProductType},
		{"status[]=sold", "status", campaigns.MsgBadStatus},
		{"kind=tee", "kind", campaigns.MsgBadKind},
	} {
		r := p.do(http.MethodGet, "/api/seller/campaigns?"+tc.query, p.token, nil)
		if r.status != 422 || r.body.Errors[0].Field != tc.field || r.body.Errors[0].Message != tc.msg {
			t.Errorf("%s: %d %s", tc.query, r.status, r.raw)
		}
	}
	r = p.do(http.MethodGet, "/api/seller/campaigns?q=List+template", p.token, nil)
	var page struct{ Data []listedCampaign }
	decode2(t, r, &page)
	if len(page.Data) != 1 || page.Data[0].ProductType != "campaign_template" || page.Data[0].Slug != "list-template" || page.Data[0].Status != "draft" {
		t.Errorf("template campaign %+v", page.Data)
	}
}

// TestCampaignActions: the address (checked and unique in the account), duplicate, archive and
// unarchive, each refused where it cannot apply; another seller's campaign answers 404.
func TestCampaignActions(t *testing.T) {
	p := newPricingStack(t)
	veteran := p.login("seller", "veteran@example.com")
	tees := fmt.Sprintf("/api/seller/campaigns/%d", p.tees)

	avail := func(slug string, except int64) map[string]any {
		r := p.do(http.MethodGet, fmt.Sprintf("/api/seller/campaigns/slug-availability?slug=%s&except=%d", url.QueryEscape(slug), except), p.token, nil)
		return r.body.Data.(map[string]any)
	}
	if a := avail("pricing-hoodies", 0); a["available"] != false || a["message"] != campaigns.MsgSlugTaken {
		t.Errorf("a taken address: %v", a)
	}
	if a := avail("pricing-hoodies", p.hoodies); a["available"] != true {
		t.Errorf("the campaign's own address: %v", a)
	}
	if a := avail("Summer Tees!", 0); a["available"] != false || a["message"] != campaigns.MsgSlug {
		t.Errorf("a bad address: %v", a)
	}
	for _, tc := range []struct{ slug, msg string }{{"pricing-hoodies", campaigns.MsgSlugTaken}, {"a--b", campaigns.MsgSlug}, {"", campaigns.MsgSlug}} {
		r := p.do(http.MethodPut, tees+"/slug", p.token, map[string]any{"slug": tc.slug})
		if r.status != 422 || r.body.Errors[0].Field != "slug" || r.body.Errors[0].Message != tc.msg {
			t.Errorf("slug %q: %d %s", tc.slug, r.status, r.raw)
		}
	}
	r := p.do(http.MethodPut, tees+"/slug", p.token, map[string]any{"slug": " Summer-Tees "})
	if r.status != 200 || r.body.Data.(map[string]any)["slug"] != "summer-tees" {
		t.Fatalf("set slug: %d %s", r.status, r.raw)
	}
	if r := p.do(http.MethodPut, tees+"/slug", veteran, map[string]any{"slug": "mine"}); r.status != 404 {
		t.Errorf("another seller's campaign: %d", r.status)
	}

	r = p.do(http.MethodPost, tees+"/duplicate", p.token, nil)
	if r.status != 200 {
		t.Fatalf("duplicate: %d %s", r.status, r.raw)
	}
	cp := r.body.Data.(map[string]any)
	if cp["name"] != "Pricing tees (copy)" || cp["slug"] != "pricing-tees-copy" || len(cp["products"].([]any)) != 2 || cp["status"] != "draft" {
		t.Errorf("copy %v", cp)
	}
	if r := p.do(http.MethodPost, tees+"/duplicate", veteran, nil); r.status != 404 {
		t.Errorf("duplicate another seller's: %d", r.status)
	}

	if r := p.do(http.MethodPost, tees+"/unarchive", p.token, nil); r.status != 422 || r.body.Message != campaigns.MsgNotArchived {
		t.Errorf("unarchive a campaign not archived: %d %s", r.status, r.raw)
	}
	r = p.do(http.MethodPost, tees+"/archive", p.token, nil)
	if r.status != 200 || r.body.Message != campaigns.MsgArchived {
		t.Fatalf("archive: %d %s", r.status, r.raw)
	}
	var onSale int
	p.app.DB.Get(&onSale, `SELECT count(*) FROM store_products WHERE campaign_id = $1 AND status = 'active'`, p.tees)
	if onSale != 0 {
		t.Errorf("%d products of an archived campaign still on sale", onSale)
	}
	if r := p.do(http.MethodPost, tees+"/archive", p.token, nil); r.status != 422 || r.body.Message != campaigns.MsgAlreadyArchived {
		t.Errorf("archive twice: %d %s", r.status, r.raw)
	}
	if r := p.do(http.MethodPost, fmt.Sprintf("/api/seller/stores/%d/campaigns", p.store), p.token, map[string]any{"campaign_id": p.tees, "margin": "9"}); r.status != 422 ||
		r.body.Errors[0].Field != "campaign_id" {
		t.Errorf("sell an archived campaign: %d %s", r.status, r.raw)
	}
	r = p.do(http.MethodPost, tees+"/unarchive", p.token, nil)
	if r.status != 200 || r.body.Data.(map[string]any)["status"] != "draft" {
		t.Fatalf("unarchive: %d %s", r.status, r.raw)
	}
	if r := p.do(http.MethodPost, fmt.Sprintf("/api/seller/stores/%d/campaigns", p.store), p.token, map[string]any{"campaign_id": p.tees, "margin": "9"}); r.status != 200 {
		t.Errorf("sell it again: %d %s", r.status, r.raw)
	}
	var status string
	p.app.DB.Get(&status, `SELECT status FROM campaigns WHERE id = $1`, p.tees)
	if status != "active" {
		t.Errorf("sold again, the campaign is %q", status)
	}
}

// TestCampaignExport streams the filtered campaigns as CSV and as JSON, every match and not a page.
func TestCampaignExport(t *testing.T) {
	p := newPricingStack(t)
	for i := range 20 {
		p.campaign(t, fmt.Sprintf("List export %02d", i), "Poster")
	}
	res := p.do(http.MethodGet, "/api/seller/campaigns/export?q=List+export&per_page=5", p.token, nil)
	if res.status != 200 || !strings.HasPrefix(res.header.Get("Content-Disposition"), `attachment; filename="campaigns-`) {
		t.Fatalf("csv: %d %v", res.status, res.header)
	}
	rows, err := csv.NewReader(strings.NewReader(string(res.raw))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 21 || strings.Join(rows[0], ",") != "id,name,slug,system_type,product_type,status,products,designs,stores,artwork_url,created_at,updated_at" ||
		rows[1][1] != "List export 19" || rows[1][6] != "Poster" || rows[1][5] != "draft" {
		t.Errorf("csv rows %d: %v", len(rows), rows[:2])
	}

	req, _ := http.NewRequest(http.MethodGet, p.srv.URL+"/api/seller/campaigns/export?format=json&q=Pricing", nil)
	req.Header.Set("Authorization", "Bearer "+p.token)
	jres, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer jres.Body.Close()
	var got []campaigns.Exported
	if err := json.NewDecoder(jres.Body).Decode(&got); err != nil || jres.StatusCode != 200 ||
		!strings.HasPrefix(jres.Header.Get("Content-Disposition"), `attachment; filename="campaigns-`) {
		t.Fatalf("json %d: %v", jres.StatusCode, err)
	}
	if len(got) != 2 || got[1].Name != "Pricing tees" || !slices.Equal(got[1].Products, []string{"T-shirt", "Mug wrap"}) ||
		!slices.Equal(got[1].Stores, []string{"demo"}) || got[1].Status != "active" || got[1].ProductType != "campaign" {
		t.Errorf("json %+v", got)
	}
	if r := p.do(http.MethodGet, "/api/seller/campaigns/export?format=xml", p.token, nil); r.status != 422 || r.body.Errors[0].Field != "format" {
		t.Errorf("xml: %d %s", r.status, r.raw)
	}
	if r := p.do(http.MethodGet, "/api/seller/campaigns/export?status[]=gone", p.token, nil); r.status != 422 {
		t.Errorf("bad filter: %d", r.status)
	}
}
