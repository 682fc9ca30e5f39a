package campaigns

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPersonalizedMatch(t *testing.T) {
	yes, no := true, false
	p := func(personalized bool, fullPrinted int) Product {
		return Product{Template: Template{Personalized: personalized, FullPrinted: fullPrinted}}
	}
	tests := []struct {
		name     string
		campaign *bool
		products []Product
		want     bool
	}{
		{name: "no products", campaign: &yes, want: true},
		{name: "all alike, campaign silent", products: []Product{p(true, 0), p(true, 2)}, want: true},
		{name: "all alike and the campaign agrees", campaign: &no, products: []Product{p(false, 0), p(false, 0)}, want: true},
		{name: "the campaign disagrees", campaign: &yes, products: []Product{p(false, 0)}, want: false},
		{name: "products disagree", products: []Product{p(true, 0), p(false, 0)}, want: false},
		{name: "handmade products are left out", campaign: &yes, products: []Product{p(false, 1), p(true, 0), p(false, 1)}, want: true},
		{name: "only handmade products", campaign: &yes, products: []Product{p(false, 1)}, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := personalizedMatch(tt.campaign, tt.products); got != tt.want {
				t.Fatalf("personalizedMatch = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestExtraCosts(t *testing.T) {
	product := func(id int64, cost float64) Product {
		return Product{Template: Template{ID: id, ExtraPrintCost: cost}}
	}
	products := []Product{product(1, 4), product(2, 0.1), product(3, 5.55), product(4, 9)}
	designed := map[int64]map[string]bool{
		1: {"front": true, "back": true},
		2: {"a": true, "b": true, "c": true, "d": true},
		3: {"front": true},
	}
	want := []ExtraCost{{ID: 1, ExtraPrintCost: 4}, {ID: 2, ExtraPrintCost: 0.3}, {ID: 3, ExtraPrintCost: 0}, {ID: 4, ExtraPrintCost: 0}}
	if diff := cmp.Diff(want, extraCosts(products, designed)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}
