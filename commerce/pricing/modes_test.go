package pricing

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pressroom/pressroom/commerce/money"
)

// shirt costs 8.50 to make, 4.00 for each print space designed beyond the first (two are designed
// here), and comes in S, M and 2XL (2.00 more to make).
var shirt = Cost{Currency: money.USD, Base: 850, ExtraPrint: 400, Designed: 2,
	Sizes: []Size{{"S", 0}, {"M", 0}, {"2XL", 200}}}

// settings are the seeded ones: a 4 % processing fee of at least 0.50, compare-at 25 % above.
var settings = Settings{Fees: Fees{BasisPoints: 400, Min: 50}, CompareRate: 2500}

// TestSizePrice is the one rule every size's price is read by, per mode.
func TestSizePrice(t *testing.T) {
	s, m, xxl := Size{"S", 0}, Size{"M", 0}, Size{"2XL", 200}
	for _, tc := range []struct {
		name   string
		stored Stored
		want   [3]int64
	}{
		{"adjust: each size adds what it costs", Stored{Mode: Adjust, Price: 1999}, [3]int64{1999, 1999, 2199}},
		{"fixed: one price for all", Stored{Mode: Fixed, Price: 2400}, [3]int64{2400, 2400, 2400}},
		{"custom: each its own", Stored{Mode: Custom, Price: 1800, Sizes: map[string]int64{"S": 1800, "M": 1900, "2XL": 2600}},
			[3]int64{1800, 1900, 2600}},
		{"custom: a size added since sells as in adjust", Stored{Mode: Custom, Price: 1800, Sizes: map[string]int64{"S": 1800}},
			[3]int64{1800, 1800, 2000}},
		{"a row written before modes reads as adjust", Stored{Price: 1999}, [3]int64{1999, 1999, 2199}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := [3]int64{tc.stored.SizePrice(s), tc.stored.SizePrice(m), tc.stored.SizePrice(xxl)}
			if got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestResolve turns each mode's intent into stored prices, and refuses what cannot be stored.
func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   Intent
		want Stored
		err  error
		size string
	}{
		{"adjust stores the base cost plus the margin", Intent{Mode: Adjust, Margin: 1149}, Stored{Mode: Adjust, Price: 1999}, nil, ""},
		{"adjust with no margin sells at cost", Intent{Mode: Adjust}, Stored{Mode: Adjust, Price: 850}, nil, ""},
		{"fixed stores the price", Intent{Mode: Fixed, Price: 2500}, Stored{Mode: Fixed, Price: 2500}, nil, ""},
		{"custom stores every size and the lowest as the price", Intent{Mode: Custom, Sizes: map[string]int64{"S": 2100, "M": 1900, "2XL": 2500}},
			Stored{Mode: Custom, Price: 1900, Sizes: map[string]int64{"S": 2100, "M": 1900, "2XL": 2500}}, nil, ""},
		{"custom without a size", Intent{Mode: Custom, Sizes: map[string]int64{"S": 2100, "M": 1900}}, Stored{}, ErrSizes, "2XL"},
		{"custom with a size the product lacks", Intent{Mode: Custom, Sizes: map[string]int64{"S": 1, "M": 1, "2XL": 1, "5XL": 1}},
			Stored{}, ErrSizes, "5XL"},
		{"custom size too dear", Intent{Mode: Custom, Sizes: map[string]int64{"S": 1, "M": money.MaxAmount + 1, "2XL": 1}}, Stored{}, ErrRange, "M"},
		{"fixed below zero", Intent{Mode: Fixed, Price: -1}, Stored{}, ErrRange, ""},
		{"a margin past the largest amount", Intent{Mode: Adjust, Margin: money.MaxAmount}, Stored{}, ErrRange, ""},
		{"no such mode", Intent{Mode: "dynamic"}, Stored{}, ErrMode, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Resolve(shirt, tc.in)
			if tc.err != nil {
				var pe *PriceError
				if !errors.Is(err, tc.err) || !errors.As(err, &pe) || pe.Size != tc.size || pe.Error() == "" {
					t.Fatalf("error %v (%#v), want %v on size %q", err, err, tc.err, tc.size)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestQuote explains each size: its cost (base, size and extra print cost), price, compare-at
// price, fee and earnings; and refuses a loss.
func TestQuote(t *testing.T) {
	q := QuoteOf(shirt, Stored{Mode: Adjust, Price: 1999}, settings)
	// compare-at: 19.99 * 1.25 = 24.99 (24.9875)
	want := Quote{Currency: money.USD, Mode: Adjust, Price: 1999, CompareAt: 2499, Base: 850, ExtraPrint: 400, Sizes: []SizeQuote{
		// 8.50 + 4.00 extra print; fee 4 % of 19.99 = 0.80 (0.7996)
		{Size: "S", Cost: 1250, Price: 1999, Fee: 80, Earnings: 669},
		{Size: "M", Cost: 1250, Price: 1999, Fee: 80, Earnings: 669},
		// 2XL costs 2.00 more and sells for 2.00 more: the same earnings but for the fee on it
		{Size: "2XL", Cost: 1450, Price: 2199, Fee: 88, Earnings: 661},
	}}
	if diff := cmp.Diff(want, q); diff != "" {
		t.Errorf("adjust (-want +got)\n%s", diff)
	}
	if err := q.NoLoss(); err != nil {
		t.Errorf("NoLoss: %v", err)
	}

	// A fixed price just over the 2XL's cost and fee earns 0 there, and the minimum fee applies.
	cheap := QuoteOf(Cost{Currency: money.USD, Base: 500, Sizes: []Size{{"11oz", 0}, {"15oz", 300}}}, Stored{Mode: Fixed, Price: 850}, settings)
	if z := cheap.Sizes[1]; z.Fee != 50 || z.Earnings != 0 || cheap.NoLoss() != nil {
		t.Errorf("fixed 8.50 on a 8.00 mug: %+v, %v", z, cheap.NoLoss())
	}
	loss := QuoteOf(Cost{Currency: money.USD, Base: 500, Sizes: []Size{{"11oz", 0}, {"15oz", 300}}}, Stored{Mode: Fixed, Price: 849}, settings)
	var pe *PriceError
	if err := loss.NoLoss(); !errors.Is(err, ErrLoss) || !errors.As(err, &pe) || pe.Size != "15oz" ||
		err.Error() != "Size 15oz at $8.49 earns less than nothing: it costs $8.00 to make and $0.50 in fees." {
		t.Errorf("loss: %v", err)
	}
	if _, _, err := Sell(shirt, Intent{Mode: Fixed, Price: 1000}, settings); !errors.Is(err, ErrLoss) {
		t.Errorf("Sell at a loss: %v", err)
	}
	if none := QuoteOf(shirt, Stored{Mode: Fixed, Price: 2000}, Settings{}); none.CompareAt != 0 || none.Sizes[0].Fee != 0 {
		t.Errorf("no compare-at rate and no fee: %+v", none)
	}
}

// TestSmallRules: the extra print cost, the compare-at price and the processing fee.
func TestSmallRules(t *testing.T) {
	for designed, want := range map[int]int64{0: 0, 1: 0, 2: 400, 4: 1200} {
		if got := ExtraPrintCost(400, designed); got != want {
			t.Errorf("ExtraPrintCost(4.00, %d) = %d, want %d", designed, got, want)
		}
	}
	for _, tc := range []struct{ price, rate, want int64 }{
		{1999, 2500, 2499}, {1000, 3333, 1333}, {1999, 0, 0}, {1, 5000, 2}, {0, 2500, 0},
	} {
		if got := CompareAt(tc.price, tc.rate); got != tc.want {
			t.Errorf("CompareAt(%d, %d) = %d, want %d", tc.price, tc.rate, got, tc.want)
		}
	}
	f := Fees{BasisPoints: 350, Min: 50}
	for _, tc := range []struct{ total, want int64 }{{2513, 88}, {1000, 50}, {0, 0}, {100_000, 3500}} {
		if got := f.On(tc.total); got != tc.want {
			t.Errorf("fee on %d = %d, want %d", tc.total, got, tc.want)
		}
	}
	if z := shirt.Size("XS"); z.Extra != 0 || shirt.Size("2XL").Extra != 200 {
		t.Errorf("sizes: %v, %v", z, shirt.Size("2XL"))
	}
}

// TestChange: what a change of many products' prices makes of each product.
func TestChange(t *testing.T) {
	custom := Stored{Mode: Custom, Price: 1900, Sizes: map[string]int64{"S": 1900, "M": 2000, "2XL": 2510}}
	for _, tc := range []struct {
		name   string
		ch     Change
		stored Stored
		want   Intent
	}{
		{"a margin", Change{ChangeMargin, 1500}, custom, Intent{Mode: Adjust, Margin: 1500}},
		{"a price", Change{ChangePrice, 2999}, custom, Intent{Mode: Fixed, Price: 2999}},
		{"10 % up keeps a fixed price fixed", Change{ChangePercent, 1000}, Stored{Mode: Fixed, Price: 2499}, Intent{Mode: Fixed, Price: 2749}},
		{"10 % up prices an adjusted product size by size", Change{ChangePercent, 1000}, Stored{Mode: Adjust, Price: 1999},
			Intent{Mode: Custom, Sizes: map[string]int64{"S": 2199, "M": 2199, "2XL": 2419}}},
		{"15 % down rounds half away from zero", Change{ChangePercent, -1500}, custom,
			Intent{Mode: Custom, Sizes: map[string]int64{"S": 1615, "M": 1700, "2XL": 2134}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.ch.Check(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, tc.ch.Intent(shirt, tc.stored)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	for _, bad := range []Change{{ChangePercent, 0}, {ChangePercent, -10_000}, {ChangePercent, 100_100}, {"double", 1}} {
		if err := bad.Check(); !errors.Is(err, ErrChange) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}

// TestCheckSetting refuses fee and compare-at settings prices cannot be computed with.
func TestCheckSetting(t *testing.T) {
	for _, tt := range []struct {
		key, value string
		ok         bool
	}{
		{KeyProcessingFee, "4", true}, {KeyProcessingFee, "3.75", true}, {KeyProcessingFee, "100", true},
		{KeyProcessingFee, "100.01", false}, {KeyProcessingFee, "-1", false}, {KeyProcessingFee, "4%", false},
		{KeyProcessingFeeMin, "0.50", true}, {KeyProcessingFeeMin, "0.505", false},
		{KeyComparePriceRate, "25", true}, {KeyComparePriceRate, "0", true}, {KeyComparePriceRate, "1.5x", false},
		{"maintenance", "anything", true},
	} {
		if err := CheckSetting(tt.key, tt.value); (err == nil) != tt.ok {
			t.Errorf("%s=%q: %v", tt.key, tt.value, err)
		}
	}
}
