package trademark

import "testing"

func TestNormalize(t *testing.T) {
	cases := map[string]string{
		"Just  Do It!":      "just do it",
		"  JUST-DO-IT tee ": "just do it tee",
		"Bücher & Co.":      "bücher co",
		"-!-":               "",
		"R2-D2":             "r2 d2",
	}
	for in, want := range cases {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}
