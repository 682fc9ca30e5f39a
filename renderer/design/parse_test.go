package design

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const fixtures = "../../schema/testdata/designs"

func readFixture(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestParseValidFixtures(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(fixtures, "valid", "*.json"))
	if len(files) < 10 {
		t.Fatalf("found %d valid fixtures, want the whole set", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			doc, err := Parse(readFixture(t, f))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			// A parsed document marshals to a document that parses to the same value.
			out, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			again, err := Parse(out)
			if err != nil {
				t.Fatalf("Parse(Marshal(doc)): %v\n%s", err, out)
			}
			if diff := cmp.Diff(doc, again); diff != "" {
				t.Errorf("round trip changed the document (-first +second):\n%s", diff)
			}
		})
	}
}

// expectedInvalid is schema/testdata/designs/invalid/expected.json.
type expectedInvalid map[string]struct {
	Field  string `json:"field"`
	Schema bool   `json:"schema"`
}

func loadExpectedInvalid(t testing.TB) expectedInvalid {
	t.Helper()
	var exp expectedInvalid
	if err := json.Unmarshal(readFixture(t, filepath.Join(fixtures, "invalid", "expected.json")), &exp); err != nil {
		t.Fatal(err)
	}
	return exp
}

func TestParseInvalidFixtures(t *testing.T) {
	exp := loadExpectedInvalid(t)
	files, _ := filepath.Glob(filepath.Join(fixtures, "invalid", "*.json"))
	for _, f := range files {
		name := filepath.Base(f)
		if name == "expected.json" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			want, ok := exp[name]
			if !ok {
				t.Fatalf("%s has no entry in expected.json", name)
			}
			doc, err := Parse(readFixture(t, f))
			if err == nil {
				t.Fatalf("Parse accepted it: %+v", doc)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("errors.Is(err, ErrInvalid) = false for %v", err)
			}
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error %T is not a *ValidationError", err)
			}
			if len(ve.Problems) != 1 || ve.Problems[0].Field != want.Field {
				t.Errorf("problems %+v, want exactly one naming %q", ve.Problems, want.Field)
			}
			if strings.ContainsAny(err.Error(), "\r\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
	for name := range exp {
		if _, err := os.Stat(filepath.Join(fixtures, "invalid", name)); err != nil {
			t.Errorf("expected.json names %s, which does not exist", name)
		}
	}
}

func TestParseMessages(t *testing.T) {
	valid := string(readFixture(t, filepath.Join(fixtures, "valid", "text-align-left-right.json")))
	tests := []struct {
		name    string
		doc     string
		wantErr []string // "field: message" of every problem, in order
	}{
		{
			name:    "unknown textWidth names the field and the allowed values",
			doc:     strings.Replace(valid, `"textWidth": "limited"`, `"textWidth": "wide"`, 1),
			wantErr: []string{`objects[0].textWidth: unknown value "wide" (want limited, fixed or flexible)`},
		},
		{
			name: "every problem at once, in document order",
			doc: `{"version": 3, "printSpace": {"width": 0, "height": 100, "dpi": 300, "minDpi": 150, "x": 1},
				"objects": [{"type": "image", "id": "", "src": "ftp://x", "x": 0, "y": 0, "width": 10, "height": 10},
				{"type": "text", "id": "t", "text": "0123456789abcdefg", "fontSize": 100, "x": 0, "y": 0, "width": 10,
				 "textWidth": "limited", "displayStyle": "color"}]}`,
			wantErr: []string{
				"version: unsupported version 3 (want 1)",
				"printSpace.width: must be between 1 and 20000, got 0",
				"printSpace.x: unknown field",
				"objects[0].id: must not be empty",
				"objects[0].src: not a blob key, an http(s) URL or a path starting with ./ or ../",
				"objects[1].text: 17 characters, longer than maxLength 16",
				"objects[1].fill: required",
			},
		},
		{
			name:    "wrong JSON types are named as JSON Schema names them",
			doc:     `{"version": 1, "printSpace": [], "objects": {}}`,
			wantErr: []string{"printSpace: want object, got array", "objects: want array, got object"},
		},
		{
			name:    "not JSON",
			doc:     `{"version": 1,`,
			wantErr: []string{"not valid JSON: unexpected end of input"},
		},
		{
			name:    "too large",
			doc:     `"` + strings.Repeat("x", MaxDocumentBytes) + `"`,
			wantErr: []string{"document is 1048578 bytes, larger than the limit of 1048576"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.doc))
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("err = %v, want a *ValidationError", err)
			}
			var got []string
			for _, p := range ve.Problems {
				got = append(got, p.String())
			}
			if diff := cmp.Diff(tt.wantErr, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseDefaults(t *testing.T) {
	doc, err := Parse([]byte(`{"version": 1.0, "printSpace": {"width": 4500.0, "height": 5400, "dpi": 300, "minDpi": 150},
		"objects": [{"type": "text", "id": "t", "text": "Hi", "fontSize": 100, "x": 1, "y": 2, "width": 3,
		"textWidth": "flexible", "displayStyle": "transparent"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &Document{Version: 1, PrintSpace: PrintSpace{Width: 4500, Height: 5400, DPI: 300, MinDPI: 150},
		Objects: []Object{&TextObject{ID: "t", Text: "Hi", FontFamily: "Roboto", FontSize: 100, X: 1, Y: 2, Width: 3,
			TextWidth: "flexible", TextAlign: "left", MaxLength: 16, DisplayStyle: "transparent"}}}
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("document (-want +got):\n%s", diff)
	}
}

func TestSourceKindOf(t *testing.T) {
	tests := []struct {
		src  string
		want SourceKind
	}{
		{"u/7/art.png", SourceBlobKey},
		{"p/12/design_3_4.png", SourceBlobKey},
		{"art.png", SourceBlobKey},
		{".hidden/a.png", SourceBlobKey},
		{"https://cdn.example.com/a.png?x=1", SourceURL},
		{"http://example.com/a b.png", SourceInvalid},
		{"https:///etc/passwd", SourceInvalid},
		{"HTTPS://example.com/a.png", SourceInvalid},
		{"./art.png", SourceRelative},
		{"../assets/my art.png", SourceRelative},
		{"./", SourceInvalid},
		{".//a.png", SourceInvalid},
		{"/etc/passwd", SourceInvalid},
		{"u/../x.png", SourceInvalid},
		{"u//x.png", SourceInvalid},
		{`u\x.png`, SourceInvalid},
		{"file:///etc/passwd", SourceInvalid},
		{"data:image/png;base64,AAAA", SourceInvalid},
		{"u/7/a\x00.png", SourceInvalid},
		{"", SourceInvalid},
		{strings.Repeat("a", MaxSourceLength+1), SourceInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			if got := SourceKindOf(tt.src); got != tt.want {
				t.Errorf("SourceKindOf(%q) = %v, want %v", tt.src, got, tt.want)
			}
		})
	}
}

func TestValidationErrorJSON(t *testing.T) {
	_, err := Parse([]byte(`{"version": 1, "printSpace": {"width": 1, "height": 1, "dpi": 1, "minDpi": 2}, "objects": []}`))
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v", err)
	}
	out, _ := json.Marshal(ve.Problems)
	want := `[{"field":"printSpace.minDpi","message":"must not exceed dpi (1), got 2"}]`
	if !bytes.Equal(out, []byte(want)) {
		t.Errorf("JSON = %s, want %s", out, want)
	}
}

func BenchmarkParse(b *testing.B) {
	data := readFixture(b, filepath.Join(fixtures, "valid", "design-md-example.json"))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

func TestSources(t *testing.T) {
	doc, err := Parse([]byte(`{"version": 1, "printSpace": {"name": "front", "width": 100, "height": 100, "dpi": 300, "minDpi": 150},
 "objects": [
  {"type": "image", "id": "a", "src": "u/1/a.png", "x": 0, "y": 0, "width": 10, "height": 10, "rotation": 0},
  {"type": "text", "id": "t", "text": "Hi", "fontFamily": "Pacifico", "fontUrl": "u/1/p.ttf", "fontSize": 20, "fill": "#111111",
   "x": 0, "y": 0, "width": 50, "rotation": 0, "textWidth": "limited", "textAlign": "center", "maxLength": 16,
   "convertText": "", "displayStyle": "image_background", "backgroundUrl": "u/1/bg.png", "isCustom": false},
  {"type": "text", "id": "u", "text": "Yo", "fontFamily": "Roboto", "fontUrl": "", "fontSize": 20, "fill": "#111111",
   "x": 0, "y": 0, "width": 50, "rotation": 0, "textWidth": "limited", "textAlign": "center", "maxLength": 16,
   "convertText": "", "displayStyle": "color", "backgroundUrl": "", "isCustom": false}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Source{{"objects[0].src", "u/1/a.png"}, {"objects[1].fontUrl", "u/1/p.ttf"}, {"objects[1].backgroundUrl", "u/1/bg.png"}}
	if got := doc.Sources(); !slices.Equal(got, want) {
		t.Fatalf("Sources() = %v, want %v", got, want)
	}
}
