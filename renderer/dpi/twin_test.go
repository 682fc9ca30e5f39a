package dpi_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/pressroom/pressroom/renderer/dpi"
)

// sharedTable is schema/testdata/twins/dpi.json, the table the editor's resolution badge (ui/src/editor/model)
// is tested against too, so the badge and the print file's report agree.
type sharedTable struct {
	Effective []struct {
		Name         string  `json:"name"`
		SourceWidth  int     `json:"source_width"`
		SourceHeight int     `json:"source_height"`
		PlacedWidth  float64 `json:"placed_width"`
		PlacedHeight float64 `json:"placed_height"`
		DPI          float64 `json:"dpi"`
		Want         float64 `json:"want"`
	} `json:"effective"`
	Quality []struct {
		Name      string      `json:"name"`
		Effective float64     `json:"effective"`
		DPI       float64     `json:"dpi"`
		MinDPI    float64     `json:"min_dpi"`
		Want      dpi.Quality `json:"want"`
	} `json:"quality"`
	ScaleCap []struct {
		Name   string   `json:"name"`
		DPI    float64  `json:"dpi"`
		MinDPI float64  `json:"min_dpi"`
		Want   *float64 `json:"want"` // null: no cap, which ScaleCap says with 0
	} `json:"scale_cap"`
}

func TestSharedTable(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "schema", "testdata", "twins", "dpi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var table sharedTable
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Effective) == 0 || len(table.Quality) == 0 || len(table.ScaleCap) == 0 {
		t.Fatal("a part of the table is empty")
	}
	for _, tc := range table.Effective {
		t.Run("effective/"+tc.Name, func(t *testing.T) {
			p := dpi.Placement{SourceWidth: tc.SourceWidth, SourceHeight: tc.SourceHeight, PlacedWidth: tc.PlacedWidth, PlacedHeight: tc.PlacedHeight}
			if got := dpi.Effective(p, tc.DPI); math.Abs(got-tc.Want) > 1e-9 {
				t.Errorf("Effective(%+v, %v) = %v, want %v", p, tc.DPI, got, tc.Want)
			}
		})
	}
	for _, tc := range table.Quality {
		t.Run("quality/"+tc.Name, func(t *testing.T) {
			if got := dpi.QualityOf(tc.Effective, tc.DPI, tc.MinDPI); got != tc.Want {
				t.Errorf("QualityOf(%v, %v, %v) = %q, want %q", tc.Effective, tc.DPI, tc.MinDPI, got, tc.Want)
			}
		})
	}
	for _, tc := range table.ScaleCap {
		t.Run("scale cap/"+tc.Name, func(t *testing.T) {
			want := 0.0
			if tc.Want != nil {
				want = *tc.Want
			}
			if got := dpi.ScaleCap(tc.DPI, tc.MinDPI); got != want {
				t.Errorf("ScaleCap(%v, %v) = %v, want %v", tc.DPI, tc.MinDPI, got, want)
			}
		})
	}
}
