package blob

import "testing"

func TestMockupKey(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{MockupKey(12, 3, 4), "p/12/design_3_4.png"},
		{MockupPreviewKey(12, 3, 4), "p/12/design_3_4_preview.webp"},
		{MockupBaseKey(12, 3, 4), "p/12/design_3_4_base.webp"},
	} {
		if tc.got != tc.want {
			t.Errorf("key = %q, want %q", tc.got, tc.want)
		}
		if err := ValidateKey(tc.got); err != nil {
			t.Error(err)
		}
	}
}
