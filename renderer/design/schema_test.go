package design

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The schema in schema/design.schema.json must accept exactly what Parse accepts, except for the rules JSON
// Schema cannot state (duplicate keys, minDpi above dpi) and input that is not one JSON value.

var (
	schemaOnce sync.Once
	schemaVal  *jsonschema.Schema
	schemaErr  error
)

func designSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	schemaOnce.Do(func() {
		f, err := os.Open("../../schema/design.schema.json")
		if err != nil {
			schemaErr = err
			return
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			schemaErr = err
			return
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource("design.schema.json", doc); err != nil {
			schemaErr = err
			return
		}
		schemaVal, schemaErr = c.Compile("design.schema.json")
	})
	if schemaErr != nil {
		t.Fatalf("compile schema: %v", schemaErr)
	}
	return schemaVal
}

// schemaAccepts validates data against the schema; ok is false when data is not one JSON value.
func schemaAccepts(t testing.TB, data []byte) (accepted, ok bool) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return false, false
	}
	return designSchema(t).Validate(v) == nil, true
}

func TestSchemaAcceptsValidFixtures(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(fixtures, "valid", "*.json"))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(readFixture(t, f)))
			if err != nil {
				t.Fatal(err)
			}
			if err := designSchema(t).Validate(v); err != nil {
				t.Errorf("schema refuses a valid fixture: %v", err)
			}
		})
	}
}

func TestSchemaRefusesInvalidFixtures(t *testing.T) {
	for name, want := range loadExpectedInvalid(t) {
		t.Run(name, func(t *testing.T) {
			accepted, ok := schemaAccepts(t, readFixture(t, filepath.Join(fixtures, "invalid", name)))
			if !ok {
				if want.Schema {
					t.Errorf("not JSON, but expected.json says the schema rejects it")
				}
				return
			}
			if accepted == want.Schema {
				t.Errorf("schema accepted = %v, expected.json schema = %v", accepted, want.Schema)
			}
		})
	}
}

// beyondSchema reports whether every problem is one a JSON schema cannot see.
func beyondSchema(err error) bool {
	var ve *ValidationError
	if !errors.As(err, &ve) {
		return false
	}
	for _, p := range ve.Problems {
		if p.Message != "duplicate field" && !strings.HasPrefix(p.Message, "must not exceed dpi") &&
			!strings.HasPrefix(p.Message, "must be at most the print space's height") &&
			!strings.HasPrefix(p.Message, "Use at most") && // a dropdown choice longer than its text's maxLength
			!strings.HasPrefix(p.Message, "not valid JSON") && !strings.HasPrefix(p.Message, "document is") {
			return false
		}
	}
	return true
}
