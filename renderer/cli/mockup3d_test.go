package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMockup3DRefusesBadArguments covers what the command checks before it starts a browser (the pool's
// own tests render in Chromium).
func TestMockup3DRefusesBadArguments(t *testing.T) {
	dir := t.TempDir()
	design := filepath.Join(dir, "design.png")
	notGLB := filepath.Join(dir, "model.glb")
	for _, f := range []string{design, notGLB} {
		if err := os.WriteFile(f, []byte("not what it claims"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		args  []string
		usage bool
		want  string
	}{
		{"no model", []string{"mockup3d", design, filepath.Join(dir, "out.png")}, true, "--model"},
		{"no output", []string{"mockup3d", design, "--model", "mug"}, true, "--model"},
		{"missing design", []string{"mockup3d", filepath.Join(dir, "none.png"), "--model", "mug", "out.png"}, false, "design"},
		{"not a GLB", []string{"mockup3d", design, "--model", notGLB, "out.png"}, false, "not a binary glTF"},
		{"missing model file", []string{"mockup3d", design, "--model", filepath.Join(dir, "none.glb"), "out.png"}, false, "model"},
		{"bad colour", []string{"mockup3d", design, "--model", "mug", "--color", "navy", "out.png"}, false, "--color"},
		{"no built UI", []string{"mockup3d", design, "--model", "mug", "--ui", dir, "out.png"}, false, "no built 3D page"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Run(context.Background(), tc.args, io.Discard, io.Discard)
			if err == nil {
				t.Fatal("no error")
			}
			if errors.Is(err, ErrUsage) != tc.usage || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q (usage %v); want one naming %q (usage %v)", err, errors.Is(err, ErrUsage), tc.want, tc.usage)
			}
		})
	}
}
