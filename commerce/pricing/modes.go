package pricing

import (
	"errors"
	"fmt"
	"slices"

	"github.com/pressroom/pressroom/commerce/money"
)

// Mode is how a seller sets a product's prices in a store (docs/pricing.md).
type Mode string

// The price modes.
const (
	// Adjust (dynamic): every size sells at its own base cost plus one margin, so a size that costs
	// more to make sells for more.
	Adjust Mode = "adjust_price"
	// Fixed: every size sells at one price.
	Fixed Mode = "fixed_price"
	// Custom: every size has a price of its own.
	Custom Mode = "custom_price"
)

// Modes lists the price modes in the order forms offer them.
var Modes = []Mode{Adjust, Fixed, Custom}

// Valid reports whether m is one of Modes.
func (m Mode) Valid() bool { return slices.Contains(Modes, m) }

// Size is a size of a product type with what it costs to make beyond the product's base cost
// (product_sizes.extra_price), in minor units.
type Size struct {
	Name  string `json:"name"`
	Extra int64  `json:"extra_cost"`
}

// Cost is what one unit of a campaign product costs the seller, in minor units of Currency: the
// template's base cost, the extra print cost of each designed print space beyond the first, and
// the sizes of its type in the order buyers pick from.
type Cost struct {
	Currency money.Currency
	Base     int64
	// ExtraPrint is the extra print cost of one print space; Designed how many print spaces hold
	// a design with at least one object.
	ExtraPrint int64
	Designed   int
	Sizes      []Size
}

// ExtraPrintCost is what the print spaces designed beyond the first add to one unit: perSpace for
// each of them (docs/pricing.md). The editor's calc-extra-print-cost-products and the earnings of an
// order use it.
func ExtraPrintCost(perSpace int64, designed int) int64 {
	return perSpace * int64(max(designed-1, 0))
}

// Size is the product's size called name; a size it does not come in adds nothing.
func (c Cost) Size(name string) Size {
	for _, z := range c.Sizes {
		if z.Name == name {
			return z
		}
	}
	return Size{Name: name}
}

// BaseOf is the base cost of size z: the template's base cost and what the size adds.
func (c Cost) BaseOf(z Size) int64 { return c.Base + z.Extra }

// SizeCost is what one unit of size z costs the seller: its base cost and the extra print cost.
func (c Cost) SizeCost(z Size) int64 {
	return c.BaseOf(z) + ExtraPrintCost(c.ExtraPrint, c.Designed)
}

// Stored is a product's prices as a store keeps them: the mode, the product's price
// (store_products.price: the lowest of its sizes) and, in Custom mode, the price of each size
// (store_product_sizes).
type Stored struct {
	Mode  Mode             `json:"mode"`
	Price int64            `json:"price"`
	Sizes map[string]int64 `json:"sizes,omitempty"`
}

// SizePrice is what size z sells for: the one rule the storefront, the cart and the seller's
// screens read a size's price by. In Adjust mode the price carries the margin over the base cost,
// and each size adds what it costs beyond it; in Fixed mode every size sells at the price; in
// Custom mode each size at its own price (a size added to the catalogue since sells as in Adjust).
func (s Stored) SizePrice(z Size) int64 {
	switch s.Mode {
	case Fixed:
		return s.Price
	case Custom:
		if p, ok := s.Sizes[z.Name]; ok {
			return p
		}
	}
	return s.Price + z.Extra
}

// Intent is the seller's choice of a product's prices, in minor units: a margin (Adjust), a price
// (Fixed) or a price per size (Custom).
type Intent struct {
	Mode   Mode
	Margin int64
	Price  int64
	Sizes  map[string]int64
}

// Errors of Resolve; each *PriceError wraps one.
var (
	// ErrMode: the mode is not one of Modes.
	ErrMode = errors.New("unknown price mode")
	// ErrRange: a price is below zero or above money.MaxAmount.
	ErrRange = errors.New("price out of range")
	// ErrSizes: a Custom intent does not price every size exactly once, or names a size the
	// product does not come in.
	ErrSizes = errors.New("sizes not priced")
	// ErrLoss: a size would earn less than nothing.
	ErrLoss = errors.New("price below cost")
)

// PriceError is why an intent cannot be stored: Size names the size at fault (empty for the
// product as a whole), Err is one of the errors above, and the message says it in words.
type PriceError struct {
	Size string
	Err  error
	msg  string
}

func (e *PriceError) Error() string { return e.msg }
func (e *PriceError) Unwrap() error { return e.Err }

func priceError(size string, err error, format string, args ...any) *PriceError {
	return &PriceError{Size: size, Err: err, msg: fmt.Sprintf(format, args...)}
}

// inRange refuses an amount that is not a price.
func inRange(size string, c money.Currency, amount int64) error {
	if amount < 0 || amount > money.MaxAmount {
		what := "The price"
		if size != "" {
			what = "The price of size " + size
		}
		return priceError(size, ErrRange, "%s must be from %s to %s.", what, money.Money{Currency: c},
			money.Money{Amount: money.MaxAmount, Currency: c})
	}
	return nil
}

// Resolve turns the seller's intent for a product of cost c into the prices to store. Adjust
// stores the base cost plus the margin; Fixed the price; Custom a price for each of the product's
// sizes and, as the product's price, the lowest of them.
func Resolve(c Cost, in Intent) (Stored, error) {
	switch in.Mode {
	case Adjust:
		p := c.Base + in.Margin
		if err := inRange("", c.Currency, p); err != nil {
			return Stored{}, priceError("", ErrRange, "The margin makes a price below zero or above %s.",
				money.Money{Amount: money.MaxAmount, Currency: c.Currency})
		}
		return Stored{Mode: Adjust, Price: p}, nil
	case Fixed:
		if err := inRange("", c.Currency, in.Price); err != nil {
			return Stored{}, err
		}
		return Stored{Mode: Fixed, Price: in.Price}, nil
	case Custom:
		for name := range in.Sizes {
			if !slices.ContainsFunc(c.Sizes, func(z Size) bool { return z.Name == name }) {
				return Stored{}, priceError(name, ErrSizes, "The product does not come in size %s.", name)
			}
		}
		out := Stored{Mode: Custom, Sizes: make(map[string]int64, len(c.Sizes))}
		for i, z := range c.Sizes {
			p, ok := in.Sizes[z.Name]
			if !ok {
				return Stored{}, priceError(z.Name, ErrSizes, "Give a price for size %s.", z.Name)
			}
			if err := inRange(z.Name, c.Currency, p); err != nil {
				return Stored{}, err
			}
			out.Sizes[z.Name] = p
			if i == 0 || p < out.Price {
				out.Price = p
			}
		}
		if len(c.Sizes) == 0 {
			return Stored{}, priceError("", ErrSizes, "The product has no sizes to price one by one.")
		}
		return out, nil
	}
	return Stored{}, priceError("", ErrMode, "The price mode must be one of adjust_price, fixed_price, custom_price.")
}

// CompareAt is the compare-at price of price at rate (basis points, see Settings): price raised by
// the rate and rounded by money.Round; 0 (none) when the rate is 0.
func CompareAt(price, rate int64) int64 {
	if rate <= 0 {
		return 0
	}
	return money.Round(price*(10_000+rate), 10_000)
}

// SizeQuote is one size of a product priced: what a unit costs, sells for, pays in processing fee,
// and earns the seller, in minor units.
type SizeQuote struct {
	Size     string `json:"size"`
	Cost     int64  `json:"cost"`
	Price    int64  `json:"price"`
	Fee      int64  `json:"fee"`
	Earnings int64  `json:"earnings"`
}

// Quote is a product's prices in a store explained size by size.
type Quote struct {
	Currency money.Currency `json:"currency"`
	Mode     Mode           `json:"mode"`
	Price    int64          `json:"price"`
	// CompareAt is the compare-at price of Price at the settings' rate, which is stored with it
	// (store_products.compare_at_price) and shown beside it; 0 for none.
	CompareAt int64 `json:"compare_at_price"`
	// Base is the template's base cost; ExtraPrint what the print spaces beyond the first add.
	Base       int64       `json:"base_cost"`
	ExtraPrint int64       `json:"extra_print_cost"`
	Sizes      []SizeQuote `json:"sizes"`
}

// QuoteOf prices every size of a product of cost c stored as s: its price (SizePrice) and what the
// seller earns on one unit bought alone before shipping and tip: the price less the size's cost and
// the processing fee on the price (Fees.On, the rule an order's earnings are booked by,
// docs/money.md); and the product's compare-at price at the settings' rate.
func QuoteOf(c Cost, s Stored, set Settings) Quote {
	q := Quote{Currency: c.Currency, Mode: s.Mode, Price: s.Price, CompareAt: CompareAt(s.Price, set.CompareRate), Base: c.Base,
		ExtraPrint: ExtraPrintCost(c.ExtraPrint, c.Designed), Sizes: make([]SizeQuote, len(c.Sizes))}
	for i, z := range c.Sizes {
		p := s.SizePrice(z)
		cost, fee := c.SizeCost(z), set.Fees.On(p)
		q.Sizes[i] = SizeQuote{Size: z.Name, Cost: cost, Price: p, Fee: fee, Earnings: p - cost - fee}
	}
	return q
}

// NoLoss refuses a quote in which a size would earn less than nothing, naming the first such size.
func (q Quote) NoLoss() error {
	for _, z := range q.Sizes {
		if z.Earnings < 0 {
			m := func(a int64) money.Money { return money.Money{Amount: a, Currency: q.Currency} }
			return priceError(z.Size, ErrLoss, "Size %s at %s earns less than nothing: it costs %s to make and %s in fees.",
				z.Size, m(z.Price), m(z.Cost), m(z.Fee))
		}
	}
	return nil
}

// Sell prices a product of cost c by the seller's intent at settings s: the prices to store and
// their quote. It refuses, with a *PriceError, an intent Resolve refuses and prices under which a
// size would earn less than nothing.
func Sell(c Cost, in Intent, s Settings) (Stored, Quote, error) {
	stored, err := Resolve(c, in)
	if err != nil {
		return Stored{}, Quote{}, err
	}
	q := QuoteOf(c, stored, s)
	if err := q.NoLoss(); err != nil {
		return Stored{}, Quote{}, err
	}
	return stored, q, nil
}

// Change is a change of many products' prices at once (docs/pricing.md): to a margin (Adjust), to a
// price (Fixed), or by a percent of today's prices (Percent, from -99 to 1000, in basis points).
type Change struct {
	Kind  string
	Value int64
}

// Kinds of a Change.
const (
	ChangeMargin  = "margin"
	ChangePrice   = "price"
	ChangePercent = "percent"
)

// ChangeKinds lists the kinds of a Change in the order forms offer them.
var ChangeKinds = []string{ChangeMargin, ChangePrice, ChangePercent}

// Bounds of a change by percent, in basis points: at most 99 % down and 1000 % up.
const (
	minPercent = -9_900
	maxPercent = 100_000
)

// ErrChange: a Change of an unknown kind, or a percent out of bounds.
var ErrChange = errors.New("invalid price change")

// Check refuses a change Apply cannot make.
func (ch Change) Check() error {
	switch ch.Kind {
	case ChangeMargin, ChangePrice:
		return nil
	case ChangePercent:
		if ch.Value < minPercent || ch.Value > maxPercent || ch.Value == 0 {
			return fmt.Errorf("%w: the percent must be from -99 to 1000, and not 0", ErrChange)
		}
		return nil
	}
	return fmt.Errorf("%w: the change must be one of margin, price, percent", ErrChange)
}

// Intent is the intent that change ch makes of a product of cost c stored as s today. A margin
// or a price sets it in Adjust or Fixed mode; a percent moves every size's price by it (rounded by
// money.Round), keeping a Fixed product fixed and giving any other its own price per size.
func (ch Change) Intent(c Cost, s Stored) Intent {
	switch ch.Kind {
	case ChangeMargin:
		return Intent{Mode: Adjust, Margin: ch.Value}
	case ChangePrice:
		return Intent{Mode: Fixed, Price: ch.Value}
	}
	move := func(p int64) int64 { return money.Round(p*(10_000+ch.Value), 10_000) }
	if s.Mode == Fixed {
		return Intent{Mode: Fixed, Price: move(s.Price)}
	}
	in := Intent{Mode: Custom, Sizes: make(map[string]int64, len(c.Sizes))}
	for _, z := range c.Sizes {
		in.Sizes[z.Name] = move(s.SizePrice(z))
	}
	return in
}
