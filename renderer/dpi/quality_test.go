package dpi_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pressroom/pressroom/renderer/dpi"
)

func TestQualityOf(t *testing.T) {
	tests := []struct {
		name              string
		eff, docDPI, minD float64
		want              dpi.Quality
	}{
		{"well above", 600, 300, 150, dpi.Good},
		{"at document DPI", 300, 300, 150, dpi.Good},
		{"at midpoint", 225, 300, 150, dpi.Good},
		{"midpoint up to float error", 225 - 1e-12, 300, 150, dpi.Good},
		{"just below midpoint", 224.99, 300, 150, dpi.Normal},
		{"just above minimum", 150.01, 300, 150, dpi.Normal},
		{"at minimum", 150, 300, 150, dpi.Normal},
		{"just below minimum", 149.99, 300, 150, dpi.Low},
		{"zero", 0, 300, 150, dpi.Low},
		{"other document: midpoint", 150, 200, 100, dpi.Good},
		{"other document: below midpoint", 149.999, 200, 100, dpi.Normal},
		{"other document: below minimum", 99.999, 200, 100, dpi.Low},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := dpi.QualityOf(tc.eff, tc.docDPI, tc.minD); got != tc.want {
				t.Errorf("QualityOf(%v, %v, %v) = %q, want %q", tc.eff, tc.docDPI, tc.minD, got, tc.want)
			}
		})
	}
}

func TestEffective(t *testing.T) {
	tests := []struct {
		name string
		p    dpi.Placement
		want float64
	}{
		{"native size", dpi.Placement{SourceWidth: 4500, SourceHeight: 5400, PlacedWidth: 4500, PlacedHeight: 5400}, 300},
		{"enlarged 4/3: the midpoint", dpi.Placement{SourceWidth: 3000, SourceHeight: 3000, PlacedWidth: 4000, PlacedHeight: 4000}, 225},
		{"enlarged twice: the minimum", dpi.Placement{SourceWidth: 2000, SourceHeight: 1000, PlacedWidth: 4000, PlacedHeight: 2000}, 150},
		{"shrunk", dpi.Placement{SourceWidth: 6000, SourceHeight: 6000, PlacedWidth: 3000, PlacedHeight: 3000}, 600},
		{"stretched: the worse axis wins", dpi.Placement{SourceWidth: 1000, SourceHeight: 1000, PlacedWidth: 1000, PlacedHeight: 2000}, 150},
		{"fractional placed size", dpi.Placement{SourceWidth: 1000, SourceHeight: 1000, PlacedWidth: 1333.5, PlacedHeight: 1333.5}, 300 * 1000 / 1333.5},
		{"zero placed height ignored", dpi.Placement{SourceWidth: 1000, SourceHeight: 1000, PlacedWidth: 2000}, 150},
		{"unknown source size", dpi.Placement{PlacedWidth: 100, PlacedHeight: 100}, 0},
		{"nothing usable", dpi.Placement{}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := dpi.Effective(tc.p, 300); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("Effective = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestAssess(t *testing.T) {
	tests := []struct {
		name       string
		placements []dpi.Placement
		want       dpi.Report
	}{
		{"no images", nil, dpi.Report{Quality: dpi.Good, Objects: []dpi.ObjectReport{}}},
		{
			"the lowest image decides",
			[]dpi.Placement{
				{ID: "art-1", SourceWidth: 4500, SourceHeight: 5400, PlacedWidth: 4500, PlacedHeight: 5400},
				{ID: "art-2", SourceWidth: 1000, SourceHeight: 1000, PlacedWidth: 1500, PlacedHeight: 1500},
			},
			dpi.Report{Quality: dpi.Normal, MinEffectiveDPI: 200, Objects: []dpi.ObjectReport{
				{ID: "art-1", SourceWidth: 4500, SourceHeight: 5400, PlacedWidth: 4500, PlacedHeight: 5400, EffectiveDPI: 300, Quality: dpi.Good},
				{ID: "art-2", SourceWidth: 1000, SourceHeight: 1000, PlacedWidth: 1500, PlacedHeight: 1500, EffectiveDPI: 200, Quality: dpi.Normal},
			}},
		},
		{
			"one low image makes the design low",
			[]dpi.Placement{
				{ID: "a", SourceWidth: 500, SourceHeight: 500, PlacedWidth: 4000, PlacedHeight: 4000},
				{ID: "b", SourceWidth: 3000, SourceHeight: 3000, PlacedWidth: 4000, PlacedHeight: 4000},
			},
			dpi.Report{Quality: dpi.Low, MinEffectiveDPI: 37.5, Objects: []dpi.ObjectReport{
				{ID: "a", SourceWidth: 500, SourceHeight: 500, PlacedWidth: 4000, PlacedHeight: 4000, EffectiveDPI: 37.5, Quality: dpi.Low},
				{ID: "b", SourceWidth: 3000, SourceHeight: 3000, PlacedWidth: 4000, PlacedHeight: 4000, EffectiveDPI: 225, Quality: dpi.Good},
			}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := dpi.Assess(tc.placements, 300, 150)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Assess (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReportJSON(t *testing.T) {
	r := dpi.Assess([]dpi.Placement{{ID: "art-1", SourceWidth: 3000, SourceHeight: 3000, PlacedWidth: 4000, PlacedHeight: 4000}}, 300, 150)
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"quality":"good","min_effective_dpi":225,"objects":[{"id":"art-1","source_width":3000,"source_height":3000,"placed_width":4000,"placed_height":4000,"effective_dpi":225,"quality":"good"}]}`
	if string(b) != want {
		t.Errorf("JSON\n got %s\nwant %s", b, want)
	}
}

func TestScaleCap(t *testing.T) {
	tests := []struct {
		docDPI, minDPI, want float64
	}{
		{300, 150, 2},
		{300, 300, 1},
		{300, 200, 1.5},
		{300, 0, 0},
		{0, 150, 0},
	}
	for _, tc := range tests {
		if got := dpi.ScaleCap(tc.docDPI, tc.minDPI); got != tc.want {
			t.Errorf("ScaleCap(%v, %v) = %v, want %v", tc.docDPI, tc.minDPI, got, tc.want)
		}
	}
}
