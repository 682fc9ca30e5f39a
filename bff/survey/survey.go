package survey

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pressroom/pressroom/bff/envelope"
)

// SaleVolumes are the answers of the sale-volume question, in the order the survey lists them.
var SaleVolumes = []string{"50 - 100", "150 - 300", "300 - 600", "1000 - 2000", "2000+"}

// FacebookMarkers are the address parts one of which a Facebook URL must contain.
var FacebookMarkers = []string{"facebook.com/", "fb.com/", "fb.me/"}

// Tiers of an account.
const (
	// TierDefault is every account's tier until its first survey.
	TierDefault = 1
	// TierSurveyed is the reward of the first completed survey.
	TierSurveyed = 2
)

// Messages of the survey call and of its field errors.
const (
	MsgSaved           = "Your information has been saved."
	MsgCannotSave      = "Cannot save your information."
	MsgBadFacebook     = "Please enter a valid Facebook URL!"
	MsgSaleVolumeEmpty = "The sale volume field is required."
	MsgSaleVolumeBad   = "The selected sale volume is invalid."
	MsgPhoneEmpty      = "The phone field is required."
	MsgPhoneBad        = "The phone must be a valid phone number."
	MsgNotForAccount   = "The seller survey is only for sellers in their own account."
)

// Field length limits.
const (
	MaxFacebookLength = 500
	MaxPhoneLength    = 30
)

// phonePattern is an international or local number: an optional +, then digits with spaces, dots,
// dashes or brackets between them.
var phonePattern = regexp.MustCompile(`^\+?[0-9][0-9 ().-]*[0-9]$`)

// Answers are what the survey sends. Facebook and Phone are asked only when the account lacks them.
type Answers struct {
	SaleVolume string `json:"sale_volume"`
	Facebook   string `json:"facebook"`
	Phone      string `json:"phone"`
}

// ValidFacebook reports whether url passes the Facebook rule: it contains one of FacebookMarkers.
func ValidFacebook(url string) bool {
	lower := strings.ToLower(url)
	return slices.ContainsFunc(FacebookMarkers, func(m string) bool { return strings.Contains(lower, m) })
}

// validPhone holds for 7 to 15 digits written with the separators phonePattern allows.
func validPhone(phone string) bool {
	if !phonePattern.MatchString(phone) {
		return false
	}
	digits := 0
	for _, r := range phone {
		if r >= '0' && r <= '9' {
			digits++
		}
	}
	return digits >= 7 && digits <= 15
}

// Check trims a and returns the problems of each field, every message of a field in order (the UI
// shows the first for the phone). needPhone is set when the account has no phone yet.
func Check(a *Answers, needPhone bool) []envelope.FieldError {
	a.SaleVolume, a.Facebook, a.Phone = strings.TrimSpace(a.SaleVolume), strings.TrimSpace(a.Facebook), strings.TrimSpace(a.Phone)
	var errs []envelope.FieldError
	switch {
	case a.SaleVolume == "":
		errs = append(errs, envelope.FieldError{Field: "sale_volume", Message: MsgSaleVolumeEmpty})
	case !slices.Contains(SaleVolumes, a.SaleVolume):
		errs = append(errs, envelope.FieldError{Field: "sale_volume", Message: MsgSaleVolumeBad})
	}
	if a.Facebook != "" {
		if !ValidFacebook(a.Facebook) {
			errs = append(errs, envelope.FieldError{Field: "facebook", Message: MsgBadFacebook})
		}
		if utf8.RuneCountInString(a.Facebook) > MaxFacebookLength {
			errs = append(errs, envelope.TooLong("facebook", "facebook", MaxFacebookLength))
		}
	}
	switch {
	case a.Phone == "" && needPhone:
		errs = append(errs, envelope.FieldError{Field: "phone", Message: MsgPhoneEmpty})
	case a.Phone != "":
		if !validPhone(a.Phone) {
			errs = append(errs, envelope.FieldError{Field: "phone", Message: MsgPhoneBad})
		}
		if utf8.RuneCountInString(a.Phone) > MaxPhoneLength {
			errs = append(errs, envelope.TooLong("phone", "phone", MaxPhoneLength))
		}
	}
	return errs
}
