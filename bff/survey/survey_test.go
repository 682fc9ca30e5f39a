package survey

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pressroom/pressroom/bff/envelope"
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

// TestCheckSaleVolumes writes out the five answers of docs/shell.md rather than reading SaleVolumes, so a
// changed list fails here.
func TestCheckSaleVolumes(t *testing.T) {
	for _, v := range []string{"50 - 100", "150 - 300", "300 - 600", "1000 - 2000", "2000+"} {
		if errs := Check(&Answers{SaleVolume: v}, false); errs != nil {
			t.Errorf("Check(%q) = %v, want no errors", v, errs)
		}
	}
	if want := []string{"50 - 100", "150 - 300", "300 - 600", "1000 - 2000", "2000+"}; !slices.Equal(SaleVolumes, want) {
		t.Errorf("SaleVolumes = %q, want %q", SaleVolumes, want)
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name      string
		answers   Answers
		needPhone bool
		want      []envelope.FieldError
	}{
		{"the phone is required when the account has none", Answers{SaleVolume: "2000+"}, true,
			[]envelope.FieldError{{Field: "phone", Message: MsgPhoneEmpty}}},
		{"a short number", Answers{SaleVolume: "2000+", Phone: "12345"}, true, []envelope.FieldError{{Field: "phone", Message: MsgPhoneBad}}},
		{"letters in the number", Answers{SaleVolume: "2000+", Phone: "+1 555 CALL NOW"}, false, []envelope.FieldError{{Field: "phone", Message: MsgPhoneBad}}},
		{"a formatted number", Answers{SaleVolume: "50 - 100", Phone: "+84 (28) 3822-1234"}, true, nil},
		{"an unlisted volume and a bad Facebook URL", Answers{SaleVolume: "100+", Facebook: "twitter.com/me"}, false,
			[]envelope.FieldError{{Field: "sale_volume", Message: MsgSaleVolumeBad}, {Field: "facebook", Message: MsgBadFacebook}}},
		{"blank answers are trimmed away", Answers{SaleVolume: "   ", Facebook: "  "}, false,
			[]envelope.FieldError{{Field: "sale_volume", Message: MsgSaleVolumeEmpty}}},
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
