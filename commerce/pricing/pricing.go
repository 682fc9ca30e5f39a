package pricing

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/commerce/money"
)

// Markets a store targets and shipping rates are set for.
const (
	MarketEurope       = "Europe"
	MarketUnitedStates = "United States"
	MarketCanada       = "Canada"
	MarketWorldWide    = "World Wide"
)

// Markets lists the target markets, in the order forms offer them.
var Markets = []string{MarketEurope, MarketUnitedStates, MarketCanada, MarketWorldWide}

// european are the countries shipped at the Europe rate: the EU, the EEA, the UK and Switzerland.
var european = []string{"AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV",
	"LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE", "IS", "LI", "NO", "GB", "CH"}

// Market is the shipping market of a destination country (ISO alpha-2).
func Market(country string) string {
	switch {
	case country == "US":
		return MarketUnitedStates
	case country == "CA":
		return MarketCanada
	case slices.Contains(european, country):
		return MarketEurope
	}
	return MarketWorldWide
}

// Rate is the shipping of one product type: the first item and each further one.
type Rate struct {
	FirstItem      money.Money
	AdditionalItem money.Money
}

// ErrNoRate: the rate table has no rate for a product type in the market (nor World Wide).
var ErrNoRate = errors.New("no shipping rate")

const qRates = `
SELECT DISTINCT ON (product_type) product_type, first_item, additional_item
FROM shipping_rates
WHERE product_type = ANY($1) AND currency = $2 AND market IN ($3, 'World Wide')
ORDER BY product_type, (market = $3) DESC`

// LoadRates reads the rates of the product types for a market in a currency; a type without a rate
// in the market falls back to World Wide.
func LoadRates(ctx context.Context, db sqlx.QueryerContext, productTypes []string, market string, c money.Currency) (map[string]Rate, error) {
	var rows []struct {
		Type       string `db:"product_type"`
		First      int64  `db:"first_item"`
		Additional int64  `db:"additional_item"`
	}
	if err := sqlx.SelectContext(ctx, db, &rows, qRates, pq.Array(productTypes), string(c), market); err != nil {
		return nil, fmt.Errorf("load shipping rates: %w", err)
	}
	out := make(map[string]Rate, len(rows))
	for _, r := range rows {
		out[r.Type] = Rate{FirstItem: money.Money{Amount: r.First, Currency: c}, AdditionalItem: money.Money{Amount: r.Additional, Currency: c}}
	}
	return out, nil
}

// Line is a cart line as pricing sees it.
type Line struct {
	ProductType string
	UnitPrice   money.Money
	Quantity    int
}

// Discount is a discount code's effect: free shipping, or a percent off the subtotal (or off Of,
// the part of the subtotal the code applies to, when set).
type Discount struct {
	Kind    string // "free" or "discount_with_percent"; empty: none
	Percent int
	Of      *money.Money
}

// Tips are the tip percentages a buyer may choose; no tip at all is a nil choice.
var Tips = []int{0, 2, 5, 10}

// ErrTip: a tip percentage not offered.
var ErrTip = errors.New("tip must be none, 0, 2, 5 or 10 percent")

// Totals are what a checkout shows and charges.
type Totals struct {
	Subtotal money.Money `json:"subtotal"`
	Shipping money.Money `json:"shipping"`
	Discount money.Money `json:"discount"`
	Tip      money.Money `json:"tip"`
	Total    money.Money `json:"total"`
}

// Compute totals lines in currency c: subtotal, shipping per product type (the first item at the
// first-item rate, every other at the additional rate), the discount (percent of the subtotal, or
// the shipping when free), the tip (percent of the subtotal after the discount; nil: none) and the
// total.
func Compute(c money.Currency, lines []Line, rates map[string]Rate, tip *int, d Discount) (Totals, error) {
	t := Totals{Subtotal: money.Zero(c), Shipping: money.Zero(c), Discount: money.Zero(c), Tip: money.Zero(c), Total: money.Zero(c)}
	if tip != nil && !slices.Contains(Tips, *tip) {
		return Totals{}, ErrTip
	}
	shippedTypes := map[string]bool{}
	for _, l := range lines {
		sum, err := l.UnitPrice.Times(l.Quantity)
		if err != nil {
			return Totals{}, err
		}
		if t.Subtotal, err = t.Subtotal.Add(sum); err != nil {
			return Totals{}, err
		}
		r, ok := rates[l.ProductType]
		if !ok {
			return Totals{}, fmt.Errorf("%w for %s", ErrNoRate, l.ProductType)
		}
		n := l.Quantity
		if !shippedTypes[l.ProductType] && n > 0 {
			shippedTypes[l.ProductType] = true
			if t.Shipping, err = t.Shipping.Add(r.FirstItem); err != nil {
				return Totals{}, err
			}
			n--
		}
		more, err := r.AdditionalItem.Times(n)
		if err != nil {
			return Totals{}, err
		}
		if t.Shipping, err = t.Shipping.Add(more); err != nil {
			return Totals{}, err
		}
	}
	switch d.Kind {
	case "free":
		t.Discount = t.Shipping
	case "discount_with_percent":
		of := t.Subtotal
		if d.Of != nil {
			of = *d.Of
		}
		t.Discount = of.Percent(d.Percent)
	}
	goods, err := t.Subtotal.Sub(t.Discount)
	if err != nil {
		return Totals{}, err
	}
	if d.Kind == "free" {
		goods = t.Subtotal
	}
	if tip != nil {
		t.Tip = goods.Percent(*tip)
	}
	total := t.Subtotal
	for _, add := range []money.Money{t.Shipping, t.Tip} {
		if total, err = total.Add(add); err != nil {
			return Totals{}, err
		}
	}
	if t.Total, err = total.Sub(t.Discount); err != nil {
		return Totals{}, err
	}
	return t, nil
}
