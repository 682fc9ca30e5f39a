package money

import (
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name, in string
		cur      Currency
		want     int64
		err      error
	}{
		{"whole", "19", USD, 1900, nil},
		{"cents", "19.99", USD, 1999, nil},
		{"one decimal", "19.9", EUR, 1990, nil},
		{"zero", "0", EUR, 0, nil},
		{"spaces", " 5.05 ", USD, 505, nil},
		{"max", "10000000.00", USD, MaxAmount, nil},
		{"fraction of a cent", "19.999", USD, 0, ErrAmount},
		{"negative", "-1.00", USD, 0, ErrAmount},
		{"absurd", "99999999999", USD, 0, ErrAmount},
		{"just over max", "10000000.01", USD, 0, ErrAmount},
		{"letters", "12a", USD, 0, ErrAmount},
		{"empty", "", USD, 0, ErrAmount},
		{"trailing dot", "12.", USD, 0, ErrAmount},
		{"leading dot", ".5", USD, 0, ErrAmount},
		{"exponent", "1e3", USD, 0, ErrAmount},
		{"thousands", "1,000", USD, 0, ErrAmount},
		{"plus", "+3", USD, 0, ErrAmount},
		{"unknown currency", "1.00", "GBP", 0, ErrCurrency},
		{"empty currency", "1.00", "", 0, ErrCurrency},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.in, tc.cur)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("Parse(%q, %s) = %v, %v; want %v", tc.in, tc.cur, got, err, tc.err)
				}
				if err.Error() == tc.err.Error() {
					t.Errorf("error %q does not say what was wrong", err)
				}
				return
			}
			if err != nil || got.Amount != tc.want || got.Currency != tc.cur {
				t.Fatalf("Parse(%q) = %+v, %v; want %d %s", tc.in, got, err, tc.want, tc.cur)
			}
		})
	}
}

func TestString(t *testing.T) {
	cases := []struct {
		m    Money
		want string
	}{
		{Money{1999, USD}, "$19.99"},
		{Money{5, EUR}, "€0.05"},
		{Money{123456789, USD}, "$1,234,567.89"},
		{Money{100000, EUR}, "€1,000.00"},
		{Money{0, USD}, "$0.00"},
	}
	for _, tc := range cases {
		if got := tc.m.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.m, got, tc.want)
		}
		back, err := Parse(tc.m.Decimal(), tc.m.Currency)
		if err != nil || back != tc.m {
			t.Errorf("Parse(Decimal(%+v)) = %+v, %v", tc.m, back, err)
		}
	}
}

func TestRound(t *testing.T) {
	cases := []struct{ num, den, want int64 }{
		{250, 100, 3}, {249, 100, 2}, {-250, 100, -3}, {0, 100, 0}, {1, 3, 0}, {2, 3, 1}, {199900, 100, 1999},
	}
	for _, tc := range cases {
		if got := Round(tc.num, tc.den); got != tc.want {
			t.Errorf("Round(%d, %d) = %d, want %d", tc.num, tc.den, got, tc.want)
		}
	}
}

func TestArithmetic(t *testing.T) {
	a, b := Money{1999, USD}, Money{1, USD}
	if s, err := a.Add(b); err != nil || s.Amount != 2000 {
		t.Errorf("Add = %v, %v", s, err)
	}
	if _, err := a.Add(Money{1, EUR}); !errors.Is(err, ErrCurrency) {
		t.Errorf("Add across currencies: %v", err)
	}
	if d, _ := b.Sub(a); d.Amount != 0 {
		t.Errorf("Sub below zero = %v", d)
	}
	if m, err := a.Times(3); err != nil || m.Amount != 5997 {
		t.Errorf("Times = %v, %v", m, err)
	}
	if _, err := (Money{MaxAmount, USD}).Times(2); !errors.Is(err, ErrAmount) {
		t.Errorf("Times overflow: %v", err)
	}
	if p := (Money{1999, USD}).Percent(5); p.Amount != 100 { // 99.95 rounds half up
		t.Errorf("5%% of 19.99 = %v", p)
	}
	if p := (Money{1990, USD}).Percent(2); p.Amount != 40 { // 39.8
		t.Errorf("2%% of 19.90 = %v", p)
	}
}
