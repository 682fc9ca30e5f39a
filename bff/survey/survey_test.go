package survey

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValidFacebook(t *testing.T) {
	tests := []struct {
		url  string
		want bool
	}{
		{"https://www.facebook.com/pressroom", true},
		{"facebook.com/pressroom", true},
		{"HTTPS://FB.COM/pressroom", true},
		{"https://fb.me/pressroom", true},
		{"https://m.facebook.com/profile.php?id=1", true},
		{"https://facebook.com", false},
		{"https://example.com/facebook", false},
		{"pressroom", false},
	}
	for _, tc := range tests {
		t.Run(tc.url, func(t *testing.T) {
			if got := ValidFacebook(tc.url); got != tc.want {
				t.Fatalf("ValidFacebook(%q) = %v, want %v", tc.url, got, tc.want)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name      string
		answers   Answers
		needPhone bool
		want      []FieldError
	}{
		{"every sale volume of the spec is accepted", Answers{SaleVolume: "1000 - 2000"}, false, nil},
		{"the phone is required when the account has none", Answers{SaleVolume: "2000+"}, true,
			[]FieldError{{"phone", MsgPhoneEmpty}}},
		{"a short number", Answers{SaleVolume: "2000+", Phone: "12345"}, true, []FieldError{{"phone", MsgPhoneBad}}},
		{"letters in the number", Answers{SaleVolume: "2000+", Phone: "+1 555 CALL NOW"}, false, []FieldError{{"phone", MsgPhoneBad}}},
		{"a formatted number", Answers{SaleVolume: "50 - 100", Phone: "+84 (28) 3822-1234"}, true, nil},
		{"an unlisted volume and a bad Facebook URL", Answers{SaleVolume: "100+", Facebook: "twitter.com/me"}, false,
			[]FieldError{{"sale_volume", MsgSaleVolumeBad}, {"facebook", MsgBadFacebook}}},
		{"blank answers are trimmed away", Answers{SaleVolume: "   ", Facebook: "  "}, false,
			[]FieldError{{"sale_volume", MsgSaleVolumeEmpty}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Check(&tc.answers, tc.needPhone)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("Check (-want +got):\n%s", diff)
			}
		})
	}
}
