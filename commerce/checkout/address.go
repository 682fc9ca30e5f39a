package checkout

import (
	"context"
	"fmt"
	"net/mail"
	"regexp"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/orders"
)

// Address is where an order ships. State is a subdivision code ("US-CA") where the country has a
// list of them, and free text otherwise.
type Address struct {
	Name       string `json:"name"`
	Line1      string `json:"line1"`
	Line2      string `json:"line2"`
	City       string `json:"city"`
	State      string `json:"state"`
	PostalCode string `json:"postal_code"`
	Country    string `json:"country"`
	Phone      string `json:"phone"`
}

// postalCodes are the postal code formats of the countries that have a well-known one; other
// countries take 2 to 10 letters, digits, spaces and hyphens.
var postalCodes = map[string]*regexp.Regexp{
	"US": regexp.MustCompile(`^\d{5}(-\d{4})?$`),
	"CA": regexp.MustCompile(`^[A-Z]\d[A-Z] ?\d[A-Z]\d$`),
	"GB": regexp.MustCompile(`^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$`),
	"DE": regexp.MustCompile(`^\d{5}$`), "FR": regexp.MustCompile(`^\d{5}$`), "IT": regexp.MustCompile(`^\d{5}$`),
	"ES": regexp.MustCompile(`^\d{5}$`), "NL": regexp.MustCompile(`^\d{4} ?[A-Z]{2}$`),
	"AU": regexp.MustCompile(`^\d{4}$`), "NZ": regexp.MustCompile(`^\d{4}$`), "BR": regexp.MustCompile(`^\d{5}-?\d{3}$`),
	"JP": regexp.MustCompile(`^\d{3}-?\d{4}$`), "AT": regexp.MustCompile(`^\d{4}$`), "BE": regexp.MustCompile(`^\d{4}$`),
	"CH": regexp.MustCompile(`^\d{4}$`), "SE": regexp.MustCompile(`^\d{3} ?\d{2}$`), "PL": regexp.MustCompile(`^\d{2}-\d{3}$`),
}

var otherPostalCode = regexp.MustCompile(`^[A-Z0-9][A-Z0-9 -]{0,8}[A-Z0-9]$`)

// statesRequired are the countries whose addresses need a state from the locations list.
var statesRequired = map[string]bool{"US": true, "CA": true, "AU": true}

// Country is a destination a buyer may pick.
type Country struct {
	Code string `db:"code"`
	Name string `db:"name"`
}

// State is a subdivision of a country.
type State struct {
	Code string `db:"code"`
	Name string `db:"name"`
}

// Countries lists the countries, by name.
func Countries(ctx context.Context, db sqlx.QueryerContext) ([]Country, error) {
	var out []Country
	err := sqlx.SelectContext(ctx, db, &out, `SELECT code, name FROM countries ORDER BY name`)
	return out, err
}

// States lists the states of the countries that need one, by country then name.
func States(ctx context.Context, db sqlx.QueryerContext) (map[string][]State, error) {
	var rows []struct {
		Country string `db:"country_code"`
		State
	}
	if err := sqlx.SelectContext(ctx, db, &rows, `SELECT country_code, code, name FROM locations WHERE country_code IN ('US', 'CA', 'AU') ORDER BY country_code, name`); err != nil {
		return nil, err
	}
	out := map[string][]State{}
	for _, r := range rows {
		out[r.Country] = append(out[r.Country], r.State)
	}
	return out, nil
}

// checkContact validates the e-mail and the address, normalising them, and answers every problem
// at once.
func checkContact(ctx context.Context, db sqlx.QueryerContext, email *string, a *Address) error {
	var errs []FieldError
	*email = strings.TrimSpace(*email)
	if *email == "" {
		errs = append(errs, FieldError{Field: "email", Message: "Enter your e-mail address."})
	} else if m, err := mail.ParseAddress(*email); err != nil || m.Address != *email || len(*email) > 254 {
		errs = append(errs, FieldError{Field: "email", Message: "Enter an e-mail address like name@example.com."})
	}
	addrErrs, err := AddressProblems(ctx, db, a)
	if err != nil {
		return err
	}
	if errs = append(errs, addrErrs...); len(errs) > 0 {
		return &InvalidError{Errors: errs}
	}
	return nil
}

// AddressProblems normalises a shipping address and answers what the country rules refuse in it
// (required fields and lengths, a known country, the state where the country lists states, the
// country's postal code format), one problem per field; none when it passes. Orders check their
// addresses with it too (docs/orders.md).
func AddressProblems(ctx context.Context, db sqlx.QueryerContext, a *Address) ([]FieldError, error) {
	var errs []FieldError
	add := func(field, msg string) { errs = append(errs, FieldError{Field: field, Message: msg}) }
	for _, f := range []struct {
		p          *string
		field, msg string
		max        int
		required   bool
	}{
		{&a.Name, "name", "Enter the name to ship to.", 100, true},
		{&a.Line1, "line1", "Enter the street and number.", 200, true},
		{&a.Line2, "line2", "", 200, false},
		{&a.City, "city", "Enter the city.", 100, true},
		{&a.Phone, "phone", "", 40, false},
	} {
		*f.p = strings.TrimSpace(*f.p)
		switch {
		case f.required && *f.p == "":
			add(f.field, f.msg)
		case len([]rune(*f.p)) > f.max:
			add(f.field, fmt.Sprintf("Use at most %d characters.", f.max))
		}
	}
	a.Country = strings.ToUpper(strings.TrimSpace(a.Country))
	var known bool
	if a.Country != "" {
		if err := sqlx.GetContext(ctx, db, &known, `SELECT EXISTS (SELECT 1 FROM countries WHERE code = $1)`, a.Country); err != nil {
			return nil, err
		}
	}
	if !known {
		add("country", "Choose the country to ship to.")
	}
	a.State = strings.TrimSpace(a.State)
	if known && statesRequired[a.Country] {
		a.State = strings.ToUpper(a.State)
		var ok bool
		if err := sqlx.GetContext(ctx, db, &ok, `SELECT EXISTS (SELECT 1 FROM locations WHERE code = $1 AND country_code = $2)`, a.State, a.Country); err != nil {
			return nil, err
		}
		if !ok {
			add("state", "Choose the state or province.")
		}
	} else if len([]rune(a.State)) > 100 {
		add("state", "Use at most 100 characters.")
	}
	a.PostalCode = strings.ToUpper(strings.TrimSpace(a.PostalCode))
	if known {
		re, ok := postalCodes[a.Country]
		if !ok {
			re = otherPostalCode
		}
		if !re.MatchString(a.PostalCode) {
			add("postal_code", "Enter a valid postal code for this country.")
		}
	}
	return errs, nil
}

// checkOrderAddress records the country rules' verdict on order id's address a in tx.
func checkOrderAddress(ctx context.Context, tx *sqlx.Tx, id int64, a Address) error {
	errs, err := AddressProblems(ctx, tx, &a)
	if err != nil || len(errs) == 0 {
		return err
	}
	problems := make([]orders.AddressProblem, len(errs))
	for i, e := range errs {
		problems[i] = orders.AddressProblem(e)
	}
	return orders.CheckedAddress(ctx, tx, id, problems)
}
