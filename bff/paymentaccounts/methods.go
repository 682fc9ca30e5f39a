package paymentaccounts

import (
	"net/mail"
	"regexp"
	"strconv"
	"strings"

	"github.com/pressroom/pressroom/platform/seal"
)

// Field is one field of a payout method's form. A sensitive field is sealed at rest and shown masked.
type Field struct {
	Name      string `json:"name"`
	Label     string `json:"label"`
	Required  bool   `json:"required"`
	Sensitive bool   `json:"sensitive"`
	// Kind tells the form which input to draw: text, email or country.
	Kind string `json:"kind"`
	// Description helps the seller fill it in.
	Description string `json:"description"`
	// normalise tidies a value typed and answers the message for a value that cannot be used.
	normalise func(string) (string, string) `json:"-"`
}

// Method is a payout method and its form.
type Method struct {
	Code   string  `json:"code"`
	Label  string  `json:"label"`
	Fields []Field `json:"fields"`
}

// The payout methods' codes.
const (
	Bank       = "bank"
	Payoneer   = "payoneer"
	PingPong   = "pingpong"
	LianLian   = "lianlian"
	PayoneerVN = "payoneer_vn"
)

var (
	ibanLike = regexp.MustCompile(`^[A-Z0-9]{4,34}$`)
	swift    = regexp.MustCompile(`^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$`)
)

func holder() Field {
	return Field{Name: "holder_name", Label: "Account holder", Required: true, Kind: "text",
		Description: "The name on the account, as the provider has it.", normalise: words("the account holder's name", 100)}
}

func wallet(provider string) Field {
	return Field{Name: "email", Label: provider + " account e-mail", Required: true, Sensitive: true, Kind: "email",
		Description: "The e-mail address you sign in to " + provider + " with.", normalise: email}
}

// Methods lists the payout methods in the order the form offers them.
var Methods = []Method{
	{Code: Bank, Label: "Bank transfer", Fields: []Field{
		holder(),
		{Name: "bank_name", Label: "Bank", Required: true, Kind: "text", normalise: words("the bank's name", 100)},
		{Name: "country", Label: "Country of the bank", Required: true, Kind: "country"},
		{Name: "account_number", Label: "Account number or IBAN", Required: true, Sensitive: true, Kind: "text",
			Description: "Letters and digits; spaces are left out.", normalise: accountNumber},
		{Name: "swift_code", Label: "SWIFT / BIC", Kind: "text", Description: "8 or 11 characters; needed for transfers abroad.",
			normalise: swiftCode},
	}},
	{Code: Payoneer, Label: "Payoneer", Fields: []Field{holder(), wallet("Payoneer")}},
	{Code: PingPong, Label: "PingPong", Fields: []Field{holder(), wallet("PingPong")}},
	{Code: LianLian, Label: "LianLian Pay", Fields: []Field{holder(), wallet("LianLian Pay")}},
	{Code: PayoneerVN, Label: "Payoneer (Vietnam)", Fields: []Field{holder(), wallet("Payoneer")}},
}

// methodOf answers the method of code.
func methodOf(code string) (Method, bool) {
	for _, m := range Methods {
		if m.Code == code {
			return m, true
		}
	}
	return Method{}, false
}

func words(what string, max int) func(string) (string, string) {
	return func(v string) (string, string) {
		v = strings.Join(strings.Fields(v), " ")
		if len([]rune(v)) > max {
			return v, "Enter " + what + " in at most " + strconv.Itoa(max) + " characters."
		}
		return v, ""
	}
}

func email(v string) (string, string) {
	v = strings.TrimSpace(v)
	a, err := mail.ParseAddress(v)
	if err != nil || a.Address != v || len(v) > 254 {
		return v, "Enter one e-mail address, such as name@example.com."
	}
	return v, ""
}

func accountNumber(v string) (string, string) {
	v = strings.ToUpper(strings.NewReplacer(" ", "", "-", "").Replace(v))
	if !ibanLike.MatchString(v) {
		return v, "Enter the account number or IBAN: 4 to 34 letters and digits."
	}
	return v, ""
}

func swiftCode(v string) (string, string) {
	v = strings.ToUpper(strings.TrimSpace(v))
	if v != "" && !swift.MatchString(v) {
		return v, "A SWIFT / BIC code has 8 or 11 letters and digits, such as DEUTDEFF."
	}
	return v, ""
}

// mask shows a sensitive value: an e-mail by its first letter and its domain, anything else by its
// last four characters.
func mask(v string) string {
	if local, domain, ok := strings.Cut(v, "@"); ok && local != "" {
		return local[:1] + "•••@" + domain
	}
	return seal.Mask("", seal.Last4(v))
}

// label names an account in lists and payouts: the method, and what tells it apart.
func label(m Method, details, hints map[string]string) string {
	switch m.Code {
	case Bank:
		return m.Label + " · " + details["bank_name"] + " · " + hints["account_number"]
	default:
		return m.Label + " · " + hints["email"]
	}
}
