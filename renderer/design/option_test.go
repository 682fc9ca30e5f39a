package design

import "testing"

func TestOption(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  Document
		want string
	}{
		{"empty", Document{}, OptionPrint},
		{"image and fixed text", Document{Objects: []Object{&ImageObject{}, &TextObject{}}}, OptionPrint},
		{"a text the customer edits", Document{Objects: []Object{&ImageObject{}, &TextObject{IsCustom: true}}}, OptionCustom},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.doc.Option(); got != tc.want {
				t.Fatalf("Option = %q, want %q", got, tc.want)
			}
		})
	}
}
