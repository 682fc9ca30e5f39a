package money

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Currency is an ISO 4217 code Pressroom sells in.
type Currency string

// The currencies a store may sell in.
const (
	EUR Currency = "EUR"
	USD Currency = "USD"
)

// Currencies lists every supported currency, in the order forms offer them.
var Currencies = []Currency{EUR, USD}

// MaxAmount is the largest amount accepted anywhere, in minor units (10,000,000.00): anything larger
// is a typing mistake or an attack, never a T-shirt.
const MaxAmount int64 = 1_000_000_000

// Errors of parsing and arithmetic.
var (
	// ErrCurrency: the currency is not one Pressroom sells in, or two amounts differ in currency.
	ErrCurrency = errors.New("unknown currency")
	// ErrAmount: the text is not an amount (letters, fractions of a cent, negative, too large).
	ErrAmount = errors.New("invalid amount")
)

// ParseCurrency accepts an ISO code in any letter case.
func ParseCurrency(s string) (Currency, error) {
	c := Currency(strings.ToUpper(strings.TrimSpace(s)))
	for _, k := range Currencies {
		if c == k {
			return c, nil
		}
	}
	return "", fmt.Errorf("%w %q: want EUR or USD", ErrCurrency, s)
}

// Money is an amount in minor units (cents) of Currency.
type Money struct {
	Amount   int64    `json:"amount"`
	Currency Currency `json:"currency"`
}

// New checks the amount and the currency.
func New(amount int64, c Currency) (Money, error) {
	if _, err := ParseCurrency(string(c)); err != nil {
		return Money{}, err
	}
	if amount < 0 {
		return Money{}, fmt.Errorf("%w: %d is negative", ErrAmount, amount)
	}
	if amount > MaxAmount {
		return Money{}, fmt.Errorf("%w: %d is more than %d", ErrAmount, amount, MaxAmount)
	}
	return Money{Amount: amount, Currency: c}, nil
}

// Zero is nothing in c.
func Zero(c Currency) Money { return Money{Currency: c} }

// Parse reads a decimal amount such as "19.99", "19.9" or "19" in currency c. It refuses
// fractions of a minor unit ("19.999"), signs, thousands separators, exponents and amounts above
// MaxAmount, with a message a person can act on.
func Parse(s string, c Currency) (Money, error) {
	if _, err := ParseCurrency(string(c)); err != nil {
		return Money{}, err
	}
	t := strings.TrimSpace(s)
	if t == "" {
		return Money{}, fmt.Errorf("%w: empty", ErrAmount)
	}
	if strings.HasPrefix(t, "-") {
		return Money{}, fmt.Errorf("%w: %q is negative", ErrAmount, s)
	}
	whole, frac, hasDot := strings.Cut(t, ".")
	if whole == "" || !digits(whole) || (hasDot && !digits(frac)) || (hasDot && frac == "") {
		return Money{}, fmt.Errorf("%w: %q is not a number like 19.99", ErrAmount, s)
	}
	if len(frac) > 2 {
		return Money{}, fmt.Errorf("%w: %q has more than 2 decimals", ErrAmount, s)
	}
	if len(whole) > 10 {
		return Money{}, fmt.Errorf("%w: %q is too large", ErrAmount, s)
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return Money{}, fmt.Errorf("%w: %q", ErrAmount, s)
	}
	cents := int64(0)
	if frac != "" {
		f, _ := strconv.ParseInt(frac, 10, 64)
		if len(frac) == 1 {
			f *= 10
		}
		cents = f
	}
	return New(w*100+cents, c)
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Decimal is the amount as a plain decimal ("19.99"), as Postgres numeric columns and forms take it.
func (m Money) Decimal() string {
	return fmt.Sprintf("%d.%02d", m.Amount/100, m.Amount%100)
}

// symbols are what display puts before an amount.
var symbols = map[Currency]string{EUR: "€", USD: "$"}

// String formats for display in the en-US way: "$1,234.50", "€19.99".
func (m Money) String() string {
	whole := strconv.FormatInt(m.Amount/100, 10)
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	sym, ok := symbols[m.Currency]
	if !ok {
		sym = string(m.Currency) + " "
	}
	return fmt.Sprintf("%s%s.%02d", sym, b.String(), m.Amount%100)
}

// Add sums amounts of one currency.
func (m Money) Add(o Money) (Money, error) {
	if m.Currency != o.Currency {
		return Money{}, fmt.Errorf("%w: add %s to %s", ErrCurrency, o.Currency, m.Currency)
	}
	return New(m.Amount+o.Amount, m.Currency)
}

// Sub takes o from m, never below zero.
func (m Money) Sub(o Money) (Money, error) {
	if m.Currency != o.Currency {
		return Money{}, fmt.Errorf("%w: subtract %s from %s", ErrCurrency, o.Currency, m.Currency)
	}
	if o.Amount > m.Amount {
		return Zero(m.Currency), nil
	}
	return Money{Amount: m.Amount - o.Amount, Currency: m.Currency}, nil
}

// Times multiplies by a count (a quantity).
func (m Money) Times(n int) (Money, error) {
	if n < 0 {
		return Money{}, fmt.Errorf("%w: times %d", ErrAmount, n)
	}
	if n > 0 && m.Amount > MaxAmount/int64(n) {
		return Money{}, fmt.Errorf("%w: %s times %d is too large", ErrAmount, m, n)
	}
	return Money{Amount: m.Amount * int64(n), Currency: m.Currency}, nil
}

// Percent is p percent of m, rounded by Round.
func (m Money) Percent(p int) Money {
	return Money{Amount: Round(m.Amount*int64(p), 100), Currency: m.Currency}
}

// Round divides num by den (den > 0) rounding half away from zero: the one rounding rule of money
// in Pressroom, used for every percentage (tips, discounts).
func Round(num, den int64) int64 {
	if num < 0 {
		return -Round(-num, den)
	}
	return (num + den/2) / den
}
