// Package money is an amount of money: integer minor units of an ISO 4217 currency (EUR, USD),
// never a float. It parses what people type, refusing what cannot be an amount, formats for display
// and owns the one rounding rule every percentage uses. It is not a currency converter.
package money
