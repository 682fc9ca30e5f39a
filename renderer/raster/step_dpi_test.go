package raster

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/dpi"
)

func TestAssessDPIStep(t *testing.T) {
	// 300 DPI document, minimum 150, midpoint 225. A 1000 px wide source placed 1000 px wide is 300 DPI;
	// placed 2000 px wide, 150.
	tests := []struct {
		name        string
		placedWidth []float64
		wantQuality dpi.Quality
		wantMin     float64
	}{
		{"no images is good", nil, dpi.Good, 0},
		{"native size", []float64{1000}, dpi.Good, 300},
		{"at the midpoint", []float64{1000 * 300 / 225.0}, dpi.Good, 225},
		{"just below the midpoint", []float64{1000 * 300 / 224.0}, dpi.Normal, 224},
		{"at the minimum", []float64{2000}, dpi.Normal, 150},
		{"below the minimum, worst image wins", []float64{1000, 2001}, dpi.Low, 1000 * 300 / 2001.0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &state{doc: &design.Document{PrintSpace: printSpace(5000, 5000)}}
			for i, w := range tt.placedWidth {
				s.placements = append(s.placements, dpi.Placement{ID: string(rune('a' + i)), SourceWidth: 1000,
					SourceHeight: 1000, PlacedWidth: w, PlacedHeight: w})
			}
			if err := assessDPIStep().Run(context.Background(), s); err != nil {
				t.Fatal(err)
			}
			if s.report.DPI.Quality != tt.wantQuality || !cmp.Equal(s.report.DPI.MinEffectiveDPI, tt.wantMin, cmpApprox) {
				t.Errorf("quality %s min %.3f, want %s %.3f", s.report.DPI.Quality, s.report.DPI.MinEffectiveDPI, tt.wantQuality, tt.wantMin)
			}
		})
	}
}

var cmpApprox = cmp.Comparer(func(a, b float64) bool { return a-b < 1e-6 && b-a < 1e-6 })

// TestAssessDPIMatchesRender checks that the header-only assessment (the CLI's dpi command) equals the one a
// render reports.
func TestAssessDPIMatchesRender(t *testing.T) {
	for name, doc := range validFixtures(t) {
		if len(doc.Objects) == 0 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			_, rep, err := Render(context.Background(), doc, Options{Width: 100, Loader: fixtureLoader()})
			if err != nil {
				t.Fatal(err)
			}
			got, err := AssessDPI(context.Background(), doc, fixtureLoader(), Options{}.Limits)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(rep.DPI, got); diff != "" {
				t.Errorf("AssessDPI differs from Render's report (-render +assess):\n%s", diff)
			}
		})
	}
}
