package customdomain

import (
	"net/netip"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// Refusal is a domain name refused, worded for the seller who typed it.
type Refusal string

func (r Refusal) Error() string { return string(r) }

// Refusals of Normalize.
const (
	// ErrEmpty: nothing was typed.
	ErrEmpty Refusal = "Enter a domain name, such as shop.example.com."
	// ErrNotBare: an address with a scheme, path, port or spaces rather than a bare name.
	ErrNotBare Refusal = "Enter the domain name only, such as shop.example.com: no http://, path or port."
	// ErrIP: an IP address.
	ErrIP Refusal = "Enter a domain name, not an IP address."
	// ErrInvalid: not a valid (internationalized) host name.
	ErrInvalid Refusal = "This is not a valid domain name: use letters, digits and hyphens between the dots."
	// ErrNotFull: a single label or a top-level domain alone.
	ErrNotFull Refusal = "Enter a full domain name, such as shop.example.com."
	// ErrReserved: the platform's own host or a name under it.
	ErrReserved Refusal = "This domain belongs to the platform: enter a domain of your own."
)

// MaxLength is the longest domain name DNS carries, in ASCII.
const MaxLength = 253

// profile checks names as registrable host names: UTS 46 mapping (so Unicode input is folded
// to lower case) with the hyphen and bidi rules, and DNS length limits.
var profile = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.ValidateLabels(true), idna.VerifyDNSLength(true),
	idna.StrictDomainName(true))

// Normalize returns raw as the lower-case ASCII (punycode) name stored and matched, or the refusal
// to show. reserved are the platform's own hosts: neither they nor names under them are accepted.
func Normalize(raw string, reserved ...string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", ErrEmpty
	}
	if strings.ContainsAny(s, "/:@?#\\ \t") {
		if _, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
			return "", ErrIP
		}
		return "", ErrNotBare
	}
	s = strings.TrimSuffix(s, ".")
	if _, err := netip.ParseAddr(s); err == nil {
		return "", ErrIP
	}
	if !utf8.ValidString(s) {
		return "", ErrInvalid
	}
	name, err := profile.ToASCII(s)
	if err != nil || name == "" || len(name) > MaxLength {
		return "", ErrInvalid
	}
	// The ASCII form must be a valid name of its own: labels that only look like punycode
	// ("xn--" followed by what decodes to a disallowed character) are refused here.
	if again, err := profile.ToASCII(name); err != nil || again != name {
		return "", ErrInvalid
	}
	labels := strings.Split(name, ".")
	if len(labels) < 2 {
		return "", ErrNotFull
	}
	// A top-level domain is never all digits; such a name is an IPv4 address in another notation.
	if strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return "", ErrIP
	}
	for _, r := range reserved {
		r = strings.ToLower(strings.Trim(r, "."))
		if r != "" && (name == r || strings.HasSuffix(name, "."+r)) {
			return "", ErrReserved
		}
	}
	return name, nil
}

// RecordName is where the TXT record proving domain lives.
func RecordName(domain string) string { return RecordPrefix + domain }

// RecordPrefix is the label the verification record sits under.
const RecordPrefix = "_pressroom-verify."
