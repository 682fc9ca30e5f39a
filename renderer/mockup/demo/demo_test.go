package demo

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/renderer/mockup"
)

func TestDrawIsDeterministicAndComplete(t *testing.T) {
	for _, id := range IDs() {
		t.Run(id, func(t *testing.T) {
			a, err := Draw(id, 64)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Draw(id, 64)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.JSON, b.JSON) || len(a.Files) != len(b.Files) {
				t.Fatal("two draws differ")
			}
			for name, data := range a.Files {
				if !bytes.Equal(data, b.Files[name]) {
					t.Errorf("%s differs between two draws", name)
				}
			}
			// every file the template names is in the set
			tpl := a.Template
			for _, name := range []string{tpl.Base, tpl.Shadow, tpl.Mask, tpl.Tint, tpl.Displacement} {
				if _, ok := a.Files[name]; name != "" && !ok {
					t.Errorf("template names %s, the set lacks it", name)
				}
			}
			if len(tpl.Sizes) != 1 || tpl.Sizes[0] != 64 {
				t.Errorf("sizes %v for a 64 px photo, want [64]", tpl.Sizes)
			}
		})
	}
	if s := sizesFor(DefaultSide); len(s) != 2 || s[0] != mockup.DefaultSize || s[1] != mockup.PreviewSize {
		t.Errorf("sizes of a %d px photo: %v", DefaultSide, s)
	}
}

func TestDrawErrors(t *testing.T) {
	if _, err := Draw("teapot", 64); err == nil || !strings.Contains(err.Error(), `unknown template "teapot"`) {
		t.Errorf("unknown id: %v", err)
	}
	if _, err := Draw("poster", 4); err == nil || !strings.Contains(err.Error(), "side 4") {
		t.Errorf("tiny side: %v", err)
	}
}

func TestWrite(t *testing.T) {
	s, err := Draw("mug-wrap", 32)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := s.Write(dir); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "mug-wrap", "template.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mockup.Parse(data); err != nil {
		t.Errorf("written template: %v", err)
	}
	for name := range s.Files {
		if _, err := os.Stat(filepath.Join(dir, "mug-wrap", name)); err != nil {
			t.Error(err)
		}
	}
}
