package design

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzParse checks that Parse never panics, that what it accepts round-trips, and that it agrees with the
// JSON schema: whatever Parse accepts the schema accepts, and whatever the schema accepts Parse accepts
// unless the only problems are the ones beyond JSON Schema. Seeds: testdata/fuzz/FuzzParse plus every
// fixture under schema/testdata/designs.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"valid", "invalid"} {
		files, _ := filepath.Glob(filepath.Join(fixtures, dir, "*.json"))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Parse(data)
		accepted, isJSON := schemaAccepts(t, data)
		if err != nil {
			if doc != nil {
				t.Fatal("Parse returned a document with an error")
			}
			if accepted && !beyondSchema(err) {
				t.Fatalf("schema accepts what Parse refuses: %v\n%s", err, data)
			}
			return
		}
		if !isJSON || !accepted {
			t.Fatalf("Parse accepts what the schema refuses:\n%s", data)
		}
		out, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(Marshal(doc)): %v", err)
		}
		if diff := cmp.Diff(doc, again); diff != "" {
			t.Fatalf("round trip changed the document:\n%s", diff)
		}
	})
}
