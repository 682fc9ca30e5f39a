package design

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWithoutCustom(t *testing.T) {
	art := &ImageObject{ID: "art", Src: "u/1/art.png", Width: 10, Height: 10}
	title := &TextObject{ID: "title", Text: "SUMMER", MaxLength: 16}
	name := &TextObject{ID: "name", Text: "Alex", MaxLength: 16, IsCustom: true}
	photo := &ImageObject{ID: "photo", Src: "u/1/sample.png", Width: 10, Height: 10, IsCustom: true}
	ps := PrintSpace{Name: "front", Width: 4500, Height: 5400, DPI: 300, MinDPI: 150}
	for _, tc := range []struct {
		name string
		objs []Object
		want []Object
	}{
		{"no objects", []Object{}, []Object{}},
		{"nothing custom", []Object{art, title}, []Object{art, title}},
		{"custom text and photo among the seller's", []Object{photo, art, name, title}, []Object{art, title}},
		{"only custom", []Object{name, photo}, []Object{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := &Document{Version: Version, PrintSpace: ps, Objects: tc.objs}
			before, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			got := doc.WithoutCustom()
			if got.Version != Version || got.PrintSpace != ps {
				t.Errorf("version %d, print space %+v: want the document's", got.Version, got.PrintSpace)
			}
			if diff := cmp.Diff(tc.want, got.Objects); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
			if len(got.Fields()) != 0 {
				t.Errorf("fields of the copy: %+v, want none", got.Fields())
			}
			after, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			if string(after) != string(before) {
				t.Errorf("the document changed:\n%s\nwas\n%s", after, before)
			}
		})
	}
}
