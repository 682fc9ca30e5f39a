package blob

import "testing"

func TestMockupKey(t *testing.T) {
	got := MockupKey(12, 3, 4)
	if got != "p/12/design_3_4.png" {
		t.Fatalf("MockupKey = %q", got)
	}
	if err := ValidateKey(got); err != nil {
		t.Fatal(err)
	}
}
