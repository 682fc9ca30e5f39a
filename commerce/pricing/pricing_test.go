package pricing

import (
	"context"
	"errors"
	"testing"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/platform/testinfra"
)

func usd(a int64) money.Money { return money.Money{Amount: a, Currency: money.USD} }

func TestCompute(t *testing.T) {
	rates := map[string]Rate{"tshirt": {usd(499), usd(200)}, "mug": {usd(699), usd(300)}}
	two, five, seven := 2, 5, 7
	fifteen := usd(1500)
	cases := []struct {
		name  string
		lines []Line
		tip   *int
		d     Discount
		want  Totals
		err   error
	}{
		{"one shirt", []Line{{"tshirt", usd(2000), 1}}, nil, Discount{},
			Totals{usd(2000), usd(499), usd(0), usd(0), usd(2499)}, nil},
		{"three shirts on two lines and a mug", []Line{{"tshirt", usd(2000), 2}, {"tshirt", usd(2200), 1}, {"mug", usd(1500), 1}}, nil, Discount{},
			Totals{usd(7700), usd(499 + 200 + 200 + 699), usd(0), usd(0), usd(7700 + 1598)}, nil},
		{"tip 5% after 10% off", []Line{{"tshirt", usd(1999), 1}}, &five, Discount{Kind: "discount_with_percent", Percent: 10},
			// 10% of 19.99 = 2.00 (1.999 rounds half up); 5% of 17.99 = 0.90 (0.8995)
			Totals{usd(1999), usd(499), usd(200), usd(90), usd(1999 + 499 + 90 - 200)}, nil},
		{"free shipping, tip 2%", []Line{{"tshirt", usd(2000), 1}}, &two, Discount{Kind: "free"},
			Totals{usd(2000), usd(499), usd(499), usd(40), usd(2040)}, nil},
		{"20% off one line of two", []Line{{"tshirt", usd(2000), 1}, {"mug", usd(1500), 1}}, nil,
			Discount{Kind: "discount_with_percent", Percent: 20, Of: &fifteen},
			Totals{usd(3500), usd(499 + 699), usd(300), usd(0), usd(3500 + 1198 - 300)}, nil},
		{"tip not offered", []Line{{"tshirt", usd(2000), 1}}, &seven, Discount{}, Totals{}, ErrTip},
		{"no rate", []Line{{"poster", usd(2000), 1}}, nil, Discount{}, Totals{}, ErrNoRate},
		{"too much", []Line{{"tshirt", usd(money.MaxAmount), 2}}, nil, Discount{}, Totals{}, money.ErrAmount},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Compute(money.USD, tc.lines, rates, tc.tip, tc.d)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("error %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Compute = %+v, %v\nwant %+v", got, err, tc.want)
			}
		})
	}
}

func TestMarket(t *testing.T) {
	for country, want := range map[string]string{"US": MarketUnitedStates, "CA": MarketCanada, "DE": MarketEurope,
		"GB": MarketEurope, "AU": MarketWorldWide, "BR": MarketWorldWide} {
		if got := Market(country); got != want {
			t.Errorf("Market(%s) = %s, want %s", country, got, want)
		}
	}
}

// TestLoadRates reads the seeded table: a market's own rate, World Wide for the rest of the world.
func TestLoadRates(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	us, err := LoadRates(ctx, db, []string{"tshirt", "mug"}, MarketUnitedStates, money.USD)
	if err != nil {
		t.Fatal(err)
	}
	if us["tshirt"].FirstItem != usd(499) || us["mug"].AdditionalItem != usd(300) {
		t.Errorf("US rates %+v", us)
	}
	ww, err := LoadRates(ctx, db, []string{"tshirt"}, MarketWorldWide, money.EUR)
	if err != nil {
		t.Fatal(err)
	}
	if got := ww["tshirt"].FirstItem; got != (money.Money{Amount: 1097, Currency: money.EUR}) {
		t.Errorf("World Wide EUR first item %v", got)
	}
	if _, ok := us["poster"]; ok {
		t.Errorf("asked types only, got %v", us)
	}
}
