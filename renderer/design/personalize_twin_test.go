package design

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// personalizeTable is schema/testdata/twins/personalize.json, which ui/src/editor/personalize.ts
// is tested against too.
type personalizeTable struct {
	Space     string                     `json:"space"`
	Documents map[string]json.RawMessage `json:"documents"`
	Fields    map[string][]struct {
		ObjectID    string   `json:"object_id"`
		Kind        string   `json:"kind"`
		Label       string   `json:"label"`
		Required    bool     `json:"required"`
		Charset     string   `json:"charset"`
		MaxLength   int      `json:"max_length"`
		ConvertText string   `json:"convert_text"`
		Options     []Choice `json:"options"`
		Sample      string   `json:"sample"`
		Image       bool     `json:"image"`
	} `json:"fields"`
	Collect []struct {
		Name     string `json:"name"`
		Document string `json:"document"`
		Answers  map[string]struct {
			Text   string `json:"text"`
			Choice *int   `json:"choice"`
			Photo  *Photo `json:"photo"`
		} `json:"answers"`
		Want     *Personalization `json:"want"`
		Problems []struct {
			ObjectID string `json:"object_id"`
			Message  string `json:"message"`
		} `json:"problems"`
	} `json:"collect"`
	Apply []struct {
		Name            string          `json:"name"`
		Document        string          `json:"document"`
		Personalization Personalization `json:"personalization"`
		WantObjects     json.RawMessage `json:"want_objects"`
		Stale           bool            `json:"stale"`
	} `json:"apply"`
	PhotoWarning []struct {
		Name          string `json:"name"`
		Document      string `json:"document"`
		ObjectID      string `json:"object_id"`
		Width, Height int
		Want          string `json:"want"`
	} `json:"photo_warning"`
	Fit []struct {
		Name          string      `json:"name"`
		Box           ImageObject `json:"box"`
		Width, Height int
		Want          struct{ X, Y, Width, Height float64 } `json:"want"`
	} `json:"fit"`
}

// readPersonalizeTable reads the table and parses its documents, by name.
func readPersonalizeTable(t *testing.T) (personalizeTable, map[string]*Document) {
	t.Helper()
	raw, err := os.ReadFile("../../schema/testdata/twins/personalize.json")
	if err != nil {
		t.Fatal(err)
	}
	var tab personalizeTable
	if err := json.Unmarshal(raw, &tab); err != nil {
		t.Fatal(err)
	}
	docs := map[string]*Document{}
	for name, d := range tab.Documents {
		if docs[name], err = Parse(d); err != nil {
			t.Fatalf("the table's document %s: %v", name, err)
		}
	}
	return tab, docs
}

var approx = cmpopts.EquateApprox(0, 1e-9)

func TestPersonalizeTwinFields(t *testing.T) {
	tab, docs := readPersonalizeTable(t)
	for name, doc := range docs {
		got := doc.Fields()
		if len(got) != len(tab.Fields[name]) {
			t.Fatalf("%s: %d fields, the table has %d", name, len(got), len(tab.Fields[name]))
		}
		for i, w := range tab.Fields[name] {
			want := Field{ObjectID: w.ObjectID, Kind: w.Kind, Label: w.Label, Required: w.Required, Charset: w.Charset,
				MaxLength: w.MaxLength, ConvertText: w.ConvertText, Options: w.Options, Sample: w.Sample, Image: w.Image}
			if diff := cmp.Diff(want, got[i], cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: field %s (-table +got):\n%s", name, w.ObjectID, diff)
			}
		}
		if doc.Option() != OptionCustom {
			t.Errorf("%s: Option() = %q, want %q", name, doc.Option(), OptionCustom)
		}
	}
}

func TestPersonalizeTwinCollect(t *testing.T) {
	tab, docs := readPersonalizeTable(t)
	for _, tc := range tab.Collect {
		t.Run(tc.Name, func(t *testing.T) {
			doc := docs[tc.Document]
			answers := map[string]Answer{}
			for id, a := range tc.Answers {
				choice := -1
				if a.Choice != nil {
					choice = *a.Choice
				}
				answers[id] = Answer{Text: a.Text, Choice: choice, Photo: a.Photo}
			}
			got, problems := Collect(doc, tab.Space, answers)
			var gotProblems []string
			for _, p := range problems {
				if p.PrintSpace != tab.Space {
					t.Errorf("problem of print space %q", p.PrintSpace)
				}
				gotProblems = append(gotProblems, p.ObjectID+": "+p.Message)
			}
			var wantProblems []string
			for _, p := range tc.Problems {
				wantProblems = append(wantProblems, p.ObjectID+": "+p.Message)
			}
			if diff := cmp.Diff(wantProblems, gotProblems); diff != "" {
				t.Errorf("problems (-table +got):\n%s", diff)
			}
			if tc.Want != nil {
				if diff := cmp.Diff(*tc.Want, got, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("personalization (-table +got):\n%s", diff)
				}
			}
		})
	}
}

func TestPersonalizeTwinApply(t *testing.T) {
	tab, docs := readPersonalizeTable(t)
	before, err := json.Marshal(docs)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tab.Apply {
		t.Run(tc.Name, func(t *testing.T) {
			doc := docs[tc.Document]
			got, err := Apply(doc, tab.Space, tc.Personalization)
			if tc.Stale {
				if !errors.Is(err, ErrStale) {
					t.Fatalf("Apply = %v, want ErrStale", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// The result is a valid document, compared field by field with the table's objects.
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Parse(b); err != nil {
				t.Fatalf("the personalized document does not parse: %v", err)
			}
			var gotDoc, wantObjects any
			if err := json.Unmarshal(b, &gotDoc); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(tc.WantObjects, &wantObjects); err != nil {
				t.Fatal(err)
			}
			want, err := Parse(mustJSON(t, map[string]any{"version": 1, "printSpace": doc.PrintSpace, "objects": wantObjects}))
			if err != nil {
				t.Fatalf("the table's objects: %v", err)
			}
			if diff := cmp.Diff(want, got, approx, cmp.AllowUnexported()); diff != "" {
				t.Errorf("personalized document (-table +got):\n%s", diff)
			}
		})
	}
	after, _ := json.Marshal(docs)
	if string(before) != string(after) {
		t.Error("Apply changed the document it was given")
	}
}

func TestPersonalizeTwinFit(t *testing.T) {
	tab, _ := readPersonalizeTable(t)
	for _, tc := range tab.Fit {
		t.Run(tc.Name, func(t *testing.T) {
			x, y, w, h := Fit(&tc.Box, tc.Width, tc.Height)
			for _, c := range []struct {
				name      string
				got, want float64
			}{{"x", x, tc.Want.X}, {"y", y, tc.Want.Y}, {"width", w, tc.Want.Width}, {"height", h, tc.Want.Height}} {
				if math.Abs(c.got-c.want) > 1e-9 {
					t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
				}
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSchemaAcceptsThePersonalizedDocument(t *testing.T) {
	tab, _ := readPersonalizeTable(t)
	for name, doc := range tab.Documents {
		if accepted, ok := schemaAccepts(t, doc); !ok || !accepted {
			t.Errorf("schema/design.schema.json refuses the document %s of schema/testdata/twins/personalize.json", name)
		}
	}
}

func TestPersonalizeTwinPhotoWarning(t *testing.T) {
	tab, docs := readPersonalizeTable(t)
	for _, tc := range tab.PhotoWarning {
		t.Run(tc.Name, func(t *testing.T) {
			if got := PhotoWarning(docs[tc.Document], tc.ObjectID, tc.Width, tc.Height); got != tc.Want {
				t.Errorf("PhotoWarning = %q, want %q", got, tc.Want)
			}
		})
	}
}
