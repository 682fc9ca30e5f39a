package mockuptask

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestProductColorTwin runs productColor over schema/testdata/twins/product-color.json, the table the editor's
// 3D preview (ui/src/mockup3d/productColor.ts) is tested against too, so both show the same colour.
func TestProductColorTwin(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "schema", "testdata", "twins", "product-color.json"))
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []struct {
			Name          string `json:"name"`
			Options       string `json:"options"`
			DefaultOption string `json:"default_option"`
			Hex           string `json:"hex"`
			Error         bool   `json:"error"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) == 0 {
		t.Fatal("no cases")
	}
	for _, tc := range table.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			got, err := productColor(tc.Options, tc.DefaultOption)
			if tc.Error {
				if err == nil {
					t.Fatalf("productColor(%s, %q) = %q, want an error", tc.Options, tc.DefaultOption, got)
				}
				return
			}
			if err != nil || got != tc.Hex {
				t.Fatalf("productColor(%s, %q) = %q, %v; want %q", tc.Options, tc.DefaultOption, got, err, tc.Hex)
			}
		})
	}
}
