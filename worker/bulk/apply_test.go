package bulk

import (
	"math"
	"strings"
	"testing"
)

func TestPlace(t *testing.T) {
	tests := []struct {
		name       string
		x, y, w, h float64
		rotation   float64
		art        artwork
		want       [4]float64
	}{
		{"same ratio keeps the box", 100, 200, 400, 400, 0, artwork{Width: 3000, Height: 3000}, [4]float64{100, 200, 400, 400}},
		{"ratio within 0.005 keeps the box", 100, 200, 400, 300, 0, artwork{Width: 1336, Height: 1000}, [4]float64{100, 200, 400, 300}},
		{"wider artwork is fitted across, centred", 100, 200, 400, 400, 0, artwork{Width: 2000, Height: 1000}, [4]float64{100, 300, 400, 200}},
		{"taller artwork is fitted down, centred", 0, 0, 400, 400, 0, artwork{Width: 1000, Height: 2000}, [4]float64{100, 0, 200, 400}},
		// Rotated 90° about (400, 0): the box covers x 0..400, y 0..400 and its centre is (200, 200).
		{"rotated box keeps its centre", 400, 0, 400, 400, 90, artwork{Width: 2000, Height: 1000}, [4]float64{300, 0, 400, 200}},
		{"an artwork of unknown size keeps the box", 1, 2, 3, 4, 0, artwork{}, [4]float64{1, 2, 3, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, y, w, h := place(tt.x, tt.y, tt.w, tt.h, tt.rotation, tt.art)
			got := [4]float64{x, y, w, h}
			for i := range got {
				if math.Abs(got[i]-tt.want[i]) > 1e-9 {
					t.Fatalf("place = %v, want %v", got, tt.want)
				}
			}
		})
	}
}

// TestNames: a made campaign's name is cut to the campaigns table's 255 characters, by character.
func TestNames(t *testing.T) {
	long := strings.Repeat("é", 300)
	if got := jobName("  Pre ", long, " Suf  "); got != "Pre "+strings.Repeat("é", 251) {
		t.Fatalf("jobName = %q", got)
	}
	if got := campaignName("Template", "art.png"); got != "Template - art" {
		t.Fatalf("campaignName = %q", got)
	}
	if got := campaignName(long, "art.png"); got != strings.Repeat("é", 255) {
		t.Fatalf("campaignName of a long template = %q", got)
	}
}
