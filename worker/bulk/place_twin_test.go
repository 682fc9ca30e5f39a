package bulk

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestPlaceTwin runs place over schema/testdata/twins/replace-placement.json, the table the editor's
// replaceImage (ui/src/editor/model) is tested against too, so a bulk replace and the editor's agree.
func TestPlaceTwin(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "schema", "testdata", "twins", "replace-placement.json"))
	if err != nil {
		t.Fatal(err)
	}
	type box struct{ X, Y, Width, Height, Rotation float64 }
	var table struct {
		AspectTolerance float64 `json:"aspect_tolerance"`
		Cases           []struct {
			Name    string `json:"name"`
			Box     box    `json:"box"`
			Artwork struct {
				Width  int `json:"width"`
				Height int `json:"height"`
			} `json:"artwork"`
			Want box `json:"want"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	if table.AspectTolerance != aspectTolerance {
		t.Fatalf("aspectTolerance = %v, the table says %v", aspectTolerance, table.AspectTolerance)
	}
	if len(table.Cases) == 0 {
		t.Fatal("no cases")
	}
	for _, tc := range table.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			b := tc.Box
			x, y, w, h := place(b.X, b.Y, b.Width, b.Height, b.Rotation, artwork{Width: tc.Artwork.Width, Height: tc.Artwork.Height})
			got := [4]float64{x, y, w, h}
			want := [4]float64{tc.Want.X, tc.Want.Y, tc.Want.Width, tc.Want.Height}
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1e-9 {
					t.Fatalf("place = %v, want %v", got, want)
				}
			}
		})
	}
}
